/**
 * The Python loops of bench/peers/ do callpair's job: on small files of every call-dense shape
 * (bench/shapes.mjs), each family's loop counts the same requests, terminals, pairs, orphans,
 * duplicates and crossed pairs as callpair's JSON report (made in this process; bench/run.mjs
 * checks against the CLI's before timing), so the bench's speed ratios compare the same work.
 * Skipped where python3 is not installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze, type AnalyzeOptions } from '../src/analyze.js';
import { PEERS, SHAPES, reportCounts, writeShape, type WrittenShape } from '../bench/shapes.mjs';
import { peerCounts } from '../bench/check-peers.mjs';

const python = spawnSync('python3', ['--version']).status === 0;
const dir = mkdtempSync(path.join(tmpdir(), 'callpair-peers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The library options of a shape's CLI arguments (`analyze --max-findings 0 ARGS`, which
 * bench/check-peers.mjs runs): callpair's report in this process, not one CLI run per shape.
 */
function options(s: WrittenShape): AnalyzeOptions {
  const o: AnalyzeOptions & { caller: string[]; upstream: string[]; inputs: string[] } = { inputs: [], caller: [], upstream: [], maxFindings: 0 };
  for (let i = 0; i < s.args.length; i++) {
    const a = s.args[i]!;
    if (a === '--caller') o.caller.push(s.args[++i]!);
    else if (a === '--upstream') o.upstream.push(s.args[++i]!);
    else if (a === '--profile') o.profile = s.args[++i]!;
    else if (a.startsWith('-')) throw new Error(`an option options() does not know: ${a}`);
    else o.inputs.push(a);
  }
  return o;
}

describe.runIf(python)('each Python peer counts what callpair counts', () => {
  for (const [shape, s] of Object.entries(SHAPES))
    if (PEERS[s.family])
      it(`${PEERS[s.family]} on ${shape}`, async () => {
        const written = writeShape(shape, { dir: path.join(dir, shape), lines: 1500, seed: 3 });
        const report = JSON.parse(JSON.stringify(await analyze(options(written))));
        expect(peerCounts(shape, written)).toEqual(reportCounts(s.family, report));
      });
});
