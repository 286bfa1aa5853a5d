/**
 * Id coverage is never made up: a channel whose profile declares no `id` has coverage `null` in
 * JSON and `n/a` in text, and `--min-id-coverage` says it cannot be evaluated and fails
 * (docs/ci.md, "Gate"); saved reports with it render, merge and diff.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportProblem } from '../src/report/validate.js';
import type { Report } from '../src/report/report.js';
import { runCli, tmpDir } from './helpers.js';

const HAR = ['fixtures/real/har/har-fulfill.har.json', '--profile', 'fixtures/real/profiles/har-entries.json'];

describe('a profile that declares no id', () => {
  it('reports id coverage null on the channel and its scopes, n/a in the table', async () => {
    const dir = tmpDir();
    const json = path.join(dir, 'r.json');
    const r = await runCli(['analyze', ...HAR, '--report', `json=${json}`]);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(reportProblem(report)).toBeNull();
    const ch = report.channels[0]!;
    expect(ch.requests).toBeGreaterThan(0);
    expect(ch.meaning.ids).toBe('undeclared');
    expect(ch.idCoverage).toEqual({ requests: null, terminals: null });
    for (const s of ch.scopes) expect(s.idCoverage).toEqual({ requests: null, terminals: null });
    expect(r.stdout).toContain('id coverage n/a');
    expect(r.stdout).not.toMatch(/id coverage \d/);
  });

  it('a profile whose roles name their own id paths declares ids: coverage is measured', async () => {
    const dir = tmpDir();
    const json = path.join(dir, 'r.json');
    const r = await runCli(['analyze', '--profile', 'fixtures/custom/lang/claude-code.json', 'fixtures/custom/lang/claude-code-parallel.jsonl', '--report', `json=${json}`]);
    expect(r.code).toBe(0);
    const ch = (JSON.parse(readFileSync(json, 'utf8')) as Report).channels[0]!;
    expect(ch.meaning.ids).toBeUndefined();
    expect(ch.idCoverage).toEqual({ requests: 1, terminals: 1 });
    expect(r.stdout).not.toContain('id coverage n/a');
  });

  it('--min-id-coverage cannot be evaluated: the gate fails and says why', async () => {
    const dir = tmpDir();
    const json = path.join(dir, 'r.json');
    const r = await runCli(['analyze', ...HAR, '--min-id-coverage', '0.95', '--report', `json=${json}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('min-id-coverage: n/a, cannot be evaluated: a profile declares no correlation id (limit >= 0.95)');
    const check = (JSON.parse(readFileSync(json, 'utf8')) as Report).gate.checks.find((c) => c.name === 'min-id-coverage')!;
    expect(check).toMatchObject({ actual: null, passed: false, unknown: 'ids-undeclared' });
  });

  it('a saved report with null coverage renders, merges (null stays null) and diffs', async () => {
    const dir = tmpDir();
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    await runCli(['analyze', ...HAR, '-f', 'json', '-o', a]);
    await runCli(['analyze', ...HAR, '-f', 'json', '-o', b]);
    const render = await runCli(['render', a, '-f', 'table']);
    expect(render.code).toBe(0);
    expect(render.stdout).toContain('id coverage n/a');
    const merged = path.join(dir, 'm.json');
    const m = await runCli(['merge', a, b, '-o', merged]);
    expect(m.code).toBe(1); // both list the same scope: SPLIT_SCOPE, an error
    const mr = JSON.parse(readFileSync(merged, 'utf8')) as Report;
    expect(reportProblem(mr)).toBeNull();
    expect(mr.channels[0]!.idCoverage).toEqual({ requests: null, terminals: null });
    const d = await runCli(['diff', a, b, '-f', 'json']);
    expect(JSON.parse(d.stdout).deltas.idCoverage).toMatchObject({ base: null, head: null });
  });
});
