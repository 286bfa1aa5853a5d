/**
 * The baseline in every view (docs/scale-out.md, baselines): `analyze --baseline B --fail-on-new`
 * shows new/fixed/unchanged counts in the table, the gate line says what it counted ("1 new
 * warning"), and errors come first in every format (the SPLIT_SCOPE that fails a merge leads the
 * table's findings).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/report/report.js';
import { FINDING_CODES, SEVERITY_RANK, type FindingCode } from '../src/report/findings.js';
import { amp, resetClock, runCli, tmpDir, writeCapture } from './helpers.js';

const cells = (row: string) => row.split('│').slice(1, -1).map((c) => c.trim());
/** The body rows of the table under `title`. */
function tableRows(out: string, title: string): string[][] {
  const lines = out.split('\n');
  const t = lines.findIndex((l) => l.startsWith(title));
  const start = lines.findIndex((l, i) => i > t && l.startsWith('┌'));
  const end = lines.findIndex((l, i) => i > start && l.startsWith('└'));
  return lines.slice(start + 2, end).map(cells);
}

describe('--fail-on-new names only the new findings as offenders', () => {
  it('Markdown offenders, the JUnit failure and the GitHub gate annotation point at the new finding, never the unchanged one', async () => {
    resetClock();
    const dir = tmpDir();
    const old = amp({ event: 'llm:request', id: 'r-1', provider: 'p', model: 'm', caller: 'a' });
    const base = writeCapture([old], 'base.jsonl', dir);
    const head = writeCapture([old, amp({ event: 'llm:request', id: 'r-2', provider: 'p', model: 'm', caller: 'b', session: 'S2' })], 'head.jsonl', dir);
    const baseJson = path.join(dir, 'base.json');
    await runCli(['analyze', base, '-f', 'json', '-o', baseJson]);
    const args = ['analyze', head, '--baseline', baseJson, '--fail-on-new', '--fail-on', 'warning'];
    const md = await runCli([...args, '-f', 'markdown']);
    const line = md.stdout.split('\n').find((l) => l.includes('offenders:'))!;
    expect(line).toContain('head.jsonl:2');
    expect(line).not.toContain('head.jsonl:1');
    const gh = await runCli([...args, '-f', 'github']);
    const gate = gh.stdout.split('\n').filter((l) => l.startsWith('::error') && l.includes('callpair gate'));
    expect(gate).toHaveLength(1);
    expect(gate[0]).toContain('line=2,');
    const junit = await runCli([...args, '-f', 'junit']);
    expect(junit.stdout).toContain('head.jsonl:2 ORPHAN_REQUEST');
    expect(junit.stdout).not.toContain('head.jsonl:1 ORPHAN_REQUEST');
  });
});

describe('the baseline in the table and the gate line', () => {
  it('analyze --baseline --fail-on-new: counts in the table, a new column, "1 new warning" in the verdict', async () => {
    resetClock();
    const dir = tmpDir();
    const base = writeCapture([amp({ event: 'llm:request', id: 'r-1', provider: 'p', model: 'm', caller: 'a' })], 'base.jsonl', dir);
    const head = writeCapture(
      [amp({ event: 'llm:request', id: 'r-1', provider: 'p', model: 'm', caller: 'a' }), amp({ event: 'llm:request', id: 'r-2', provider: 'p', model: 'm', caller: 'b', session: 'S2' })],
      'head.jsonl',
      dir,
    );
    const baseJson = path.join(dir, 'base.json');
    await runCli(['analyze', base, '-f', 'json', '-o', baseJson]);
    const r = await runCli(['analyze', head, '--baseline', baseJson, '--fail-on-new', '--fail-on', 'warning']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Since the baseline: 1 new, 0 fixed, 1 unchanged finding(s); the gate counts new findings only');
    const rows = tableRows(r.stdout, 'Findings');
    const orphan = rows.find((c) => c[0] === 'ORPHAN_REQUEST')!;
    expect(orphan.slice(0, 4)).toEqual(['ORPHAN_REQUEST', 'warning', '2', '1']);
    expect(r.stdout).toContain('gate failed: fail-on:warning: 1 new warning (limit <= 0)');
    expect(r.stderr).toContain('callpair: gate failed: fail-on:warning: 1 new warning (limit <= 0)');
    // Without a baseline the table has no new column and the line counts all.
    const plain = await runCli(['analyze', head, '--fail-on', 'warning']);
    expect(tableRows(plain.stdout, 'Findings')[0]).toHaveLength(5);
    expect(plain.stderr).toContain('fail-on:warning: 2 (limit <= 0)');
  });

  it('errors first: the SPLIT_SCOPE that fails a merge leads the findings of the table and every listing format', async () => {
    resetClock();
    const dir = tmpDir();
    // One scope in two shards (a SPLIT_SCOPE error), each with an orphan request (a warning).
    const one = writeCapture([amp({ event: 'llm:request', id: 'r-1', provider: 'p', model: 'm', caller: 'a' })], 'one.jsonl', dir);
    const two = writeCapture([amp({ event: 'llm:request', id: 'r-2', provider: 'p', model: 'm', caller: 'a' })], 'two.jsonl', dir);
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    await runCli(['analyze', one, '-f', 'json', '-o', a]);
    await runCli(['analyze', two, '-f', 'json', '-o', b]);
    const merged = path.join(dir, 'm.json');
    expect((await runCli(['merge', a, b, '-o', merged])).code).toBe(1);
    const report = JSON.parse(readFileSync(merged, 'utf8')) as Report;
    expect(report.findingCounts.SPLIT_SCOPE).toBe(1);
    const rank = (c: string) => SEVERITY_RANK[FINDING_CODES[c as FindingCode]];
    const sorted = (codes: string[]) => codes.every((c, i) => i === 0 || rank(codes[i - 1]!) <= rank(c));

    const table = await runCli(['render', merged, '-f', 'table']);
    const codes = tableRows(table.stdout, 'Findings').map((c) => c[0]!);
    expect(codes[0]).toBe('SPLIT_SCOPE');
    expect(sorted(codes)).toBe(true);
    expect(sorted(report.findings.map((f) => f.code))).toBe(true);
    const md = (await runCli(['render', merged, '-f', 'markdown'])).stdout;
    expect(md.indexOf('SPLIT_SCOPE')).toBeLessThan(md.indexOf('ORPHAN_REQUEST'));
    const nd = (await runCli(['render', merged, '-f', 'ndjson'])).stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; code?: string });
    expect(sorted(nd.filter((l) => l.type === 'finding').map((l) => l.code!))).toBe(true);
    const sarif = JSON.parse((await runCli(['render', merged, '-f', 'sarif'])).stdout) as { runs: Array<{ results: Array<{ ruleId: string }> }> };
    expect(sorted(sarif.runs[0]!.results.map((x) => x.ruleId).filter((c) => c in FINDING_CODES))).toBe(true);
  });
});
