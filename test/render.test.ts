/**
 * `callpair render`: a saved report in every format equals `analyze`'s output in that format,
 * gates and exit codes included.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES } from '../src/formatters/index.js';
import { fixture, runCli, tmpDir, withoutGateLine } from './helpers.js';
import { writeGenerated } from './generate.js';

describe('render equals analyze', () => {
  const dir = tmpDir();
  const gen = path.join(dir, 'gen.jsonl');
  writeGenerated(gen, { sessions: 6, seed: 11, ids: false });
  const cases: Array<{ name: string; inputs: string[]; gate: string[] }> = [
    { name: 'seed trace, default gate', inputs: [fixture('seed-trace.jsonl')], gate: [] },
    { name: 'orphans and crossed, failing gate', inputs: [fixture('orphan-crossed.jsonl'), gen], gate: ['--fail-on', 'warning', '--max-orphan-requests', '0', '--min-id-coverage', '0.5'] },
    { name: 'failing gate, --no-fail', inputs: [gen], gate: ['--max-ambiguous', '0', '--no-fail'] },
  ];
  // Every format of a run comes from one spawn: the main format on stdout and all of them as
  // --report files (the bytes of `-f FORMAT` on stdout, checked here for the main format). The
  // main format differs per case (one the regated render writes), so stdout is compared for three.
  const MAIN = ['table', 'sarif', 'junit'] as const;
  for (const [k, c] of cases.entries()) {
    it(`${c.name}: every format`, async () => {
      const base = path.join(dir, c.name.replace(/\W+/g, '-'));
      const saved = `${base}.json`;
      const s = await runCli(['analyze', ...c.inputs, '-f', 'json', '--timeline', '-o', saved, ...c.gate]);
      expect(withoutGateLine(s.stderr)).toBe('');
      const resaved = `${base}-plain.json`;
      await runCli(['analyze', ...c.inputs, '-f', 'json', '-o', resaved]);
      const main = MAIN[k]!;
      const regated = FORMAT_NAMES.filter((f) => f !== 'json' && f !== 'html');
      const reports = (tag: string, formats: readonly string[]) => formats.flatMap((f) => ['--report', `${f}=${base}-${tag}.${f}`]);
      const read = (tag: string, f: string) => readFileSync(`${base}-${tag}.${f}`, 'utf8');
      // --timeline changes only the json report (it keeps the timeline the saved report has).
      const [a, r, g] = await Promise.all([
        runCli(['analyze', ...c.inputs, '-f', main, '--no-color', '--timeline', ...c.gate, ...reports('a', FORMAT_NAMES)]),
        // The report's own gate stands…
        runCli(['render', saved, '-f', main, '--no-color', ...reports('r', FORMAT_NAMES)]),
        // …and the same gate options on a report saved without them give the same output too.
        runCli(['render', resaved, '-f', main, '--no-color', ...c.gate, ...reports('g', regated)]),
      ]);
      expect(a.stdout, `${main} on stdout`).toBe(read('a', main));
      expect(r.stdout, main).toBe(a.stdout);
      expect(r.code).toBe(a.code);
      expect(r.stderr, 'the verdict line').toBe(a.stderr);
      expect(g.stdout, `${main} regated`).toBe(a.stdout);
      expect(g.code, 'regated').toBe(a.code);
      for (const format of FORMAT_NAMES) expect(read('r', format), format).toBe(read('a', format));
      for (const format of regated) expect(read('g', format), `${format} regated`).toBe(read('a', format));
    }, 60_000);
  }

  it('--report files and exit 2 on what is not a report', async () => {
    const saved = path.join(dir, 'r.json');
    await runCli(['analyze', fixture('orphan-crossed.jsonl'), '-f', 'json', '-o', saved]);
    const md = path.join(dir, 'r.md');
    const r = await runCli(['render', saved, '-f', 'table', '--report', `markdown=${md}`]);
    const a = await runCli(['analyze', fixture('orphan-crossed.jsonl'), '-f', 'markdown']);
    expect(readFileSync(md, 'utf8')).toBe(a.stdout);
    expect(r.code).toBe(a.code);
    const bad = await runCli(['render', fixture('seed-trace.jsonl')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});
