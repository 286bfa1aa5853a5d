/**
 * A failed gate check reads as what failed, never as its goal, in every view: `orphan requests
 * over limit: 1 > 0`, `FIFO crossed rate over limit: 0.666667 > 0.1` (src/formatters/gate-text.ts,
 * checkFailure); the check keeps its stable name (the JUnit `type`, the annotation title).
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { renderGithub } from '../src/formatters/github.js';
import { renderJunit } from '../src/formatters/junit.js';
import { renderMarkdown } from '../src/formatters/markdown.js';
import { table } from '../src/formatters/table.js';
import { annotations, fixture, tmpDir, writeCapture } from './helpers.js';


type Suite = { cases: Array<{ name: string; status: string; failure: string }> };
const { parse: readJunit } = createRequire(import.meta.url)('test-results-parser') as { parse(o: { type: string; files: string[] }): { suites: Suite[] } };

const run = () => analyze({ inputs: [fixture('orphan-crossed.jsonl')], gate: { maxOrphanRequests: 0, maxCrossedRate: 0.1 } });

describe('a failed gate check names the failure', () => {
  it('JUnit failure messages, as a JUnit reader gets them', async () => {
    const file = path.join(tmpDir(), 'callpair.junit.xml');
    writeFileSync(file, renderJunit(await run()));
    const failed = readJunit({ type: 'junit', files: [file] }).suites.flatMap((s) => s.cases).filter((c) => c.status === 'FAIL');
    expect(failed.map((c) => [c.name, c.failure])).toEqual([
      ['max-crossed-rate', 'FIFO crossed rate over limit: 0.666667 > 0.1'],
      ['max-orphan-requests', 'orphan requests over limit: 1 > 0'],
    ]);
  });

  it('GitHub annotations, as the runner reads them', async () => {
    const gate = annotations(renderGithub(await run(), process.cwd())).filter((a) => a.props.title?.startsWith('callpair gate: '));
    expect(gate.map((a) => [a.level, a.props.title, a.message])).toEqual([
      ['error', 'callpair gate: max-crossed-rate', 'gate check failed: FIFO crossed rate over limit: 0.666667 > 0.1'],
      ['error', 'callpair gate: max-orphan-requests', 'gate check failed: orphan requests over limit: 1 > 0'],
    ]);
  });

  it('the Markdown gate table: a failed row says what failed, a passing row its goal', async () => {
    const md = renderMarkdown(await run());
    expect(md).toContain('| `max-orphan-requests` | orphan requests over limit | 1 | ≤ 0 | ❌ fail |');
    expect(md).toContain('| `error-findings` | no error-severity findings | 0 | ≤ 0 | ✅ pass |');
    expect(md).not.toContain('within limit');
  });

  it('the table: a line per failed check under the gate line', async () => {
    const { Chalk } = await import('chalk');
    const text = table.render(await run(), { chalk: new Chalk({ level: 0 }), cwd: process.cwd() });
    const lines = text.trimEnd().split('\n');
    expect(lines.slice(-2)).toEqual(['  ✗ FIFO crossed rate over limit: 0.666667 > 0.1', '  ✗ orphan requests over limit: 1 > 0']);
    expect(text).not.toContain('within limit');
  });

  it('a check that cannot be evaluated says so', async () => {
    const report = await analyze({ inputs: [writeCapture([], 'empty.jsonl')], gate: { minIdCoverage: 0.95 } });
    const file = path.join(tmpDir(), 'callpair.junit.xml');
    writeFileSync(file, renderJunit(report));
    const failed = readJunit({ type: 'junit', files: [file] }).suites.flatMap((s) => s.cases).filter((x) => x.status === 'FAIL');
    expect(failed.filter((c) => c.name === 'min-id-coverage').map((c) => [c.name, c.failure])).toEqual([['min-id-coverage', 'correlation-id coverage not evaluated: no requests (limit >= 0.95)']]);
  });
});
