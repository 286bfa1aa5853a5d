/**
 * The Assay delivery audit fails closed through the CLI, as a user runs it (docs/assay.md,
 * "Exact, or fail closed"): the default bounds, the exit codes, and the explicit opt-out.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tmpDir, writeCapture } from './helpers.js';

const rows = readFileSync(path.join(ROOT, 'fixtures/assay/run-noids.decisions.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
/** The producer's record, about tool `t`, without the fields the audit does not read (smaller files). */
const slim = (r: Record<string, unknown>) => {
  const { non_claims: _n, action: _a, ...rest } = r;
  return JSON.stringify({ ...rest, tool: { name: 't' } });
};
const ALLOW = slim(rows.find((r) => r.decision === 'allow')!);
const DENY = slim(rows.find((r) => r.decision === 'deny')!);
const call = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":{}}}`;

describe('the audit fails closed with the default options', () => {
  it('100 001 calls without correlation ids (today’s producer), the last denied and delivered: DELIVERY_UNVERIFIED evicted, exit 1', async () => {
    // The caller log is read first: with 100 000 open calls the first is evicted and every
    // decision would pair with the next call, the denied arrival with an allow.
    const n = 100_001;
    const dir = tmpDir();
    const d = path.join(dir, 'd.ndjson');
    writeFileSync(d, `${`${ALLOW}\n`.repeat(n - 1)}${DENY}\n`);
    const c = path.join(dir, 'c.jsonl');
    writeFileSync(c, `${Array.from({ length: n }, (_, i) => call(i + 1)).join('\n')}\n`);
    const u = path.join(dir, 'u.jsonl');
    writeFileSync(u, `${Array.from({ length: n - 1 }, (_, i) => call(i + 2)).join('\n')}\n`);
    const res = await runCli(['analyze', '--profile', 'assay', d, '--caller', c, '--upstream', u, '-f', 'json', '--max-findings', '10']);
    expect(res.code).toBe(1);
    const r = JSON.parse(res.stdout);
    const f = r.findings.filter((x: { code: string }) => x.code === 'DELIVERY_UNVERIFIED');
    expect(f.map((x: { data: { cause: string } }) => x.data.cause)).toContain('evicted');
    expect(f.find((x: { data: { cause: string } }) => x.data.cause === 'evicted').data).toMatchObject({ window: 'decision', bound: 100_000 });
    expect(r.gate.passed).toBe(false);
  }, 60_000);
});

describe('a side that names no log is a usage error', () => {
  for (const [what, fill] of [
    ['an empty --upstream directory', (_d: string) => {}],
    ['an --upstream directory holding the log as upstream.log', (d: string) => writeFileSync(path.join(d, 'upstream.log'), `${call(1)}\n`)],
  ] as const) {
    it(`${what}: exit 2, like an unmatched glob`, async () => {
      const dir = tmpDir();
      const up = path.join(dir, 'up');
      mkdirSync(up);
      fill(up);
      const res = await runCli(['analyze', '--profile', 'assay', writeCapture([DENY], 'd.ndjson', dir), '--upstream', up]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('--upstream');
      expect(res.stderr).toContain('no log in it');
    });
  }
});

describe('--allow-unverified', () => {
  it('is explicit: the finding stays in the report, the gate passes, and the run, the gate and stderr say so', async () => {
    const dir = tmpDir();
    const args = ['analyze', '--profile', 'assay', writeCapture([ALLOW, DENY], 'd.ndjson', dir), '--upstream', writeCapture([call(1)], 'u.jsonl', dir)];
    const strict = await runCli([...args, '-f', 'json']);
    expect(strict.code).toBe(1);
    const res = await runCli([...args, '-f', 'json', '--allow-unverified']);
    expect(res.code).toBe(0);
    const r = JSON.parse(res.stdout);
    expect(r.findingCounts.DELIVERY_UNVERIFIED).toBe(1);
    expect(r.run.gate.allowUnverified).toBe(true);
    expect(r.gate).toMatchObject({ passed: true, allowUnverified: true });
    expect(res.stderr).toContain('--allow-unverified');
  });
});
