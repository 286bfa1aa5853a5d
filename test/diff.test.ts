/**
 * Baselines: `callpair diff` and `analyze --baseline`. The head capture adds one orphan request (a
 * line inserted near the top, so every later line number moves) and fixes one crossed pair (the two
 * terminals of a swapped pair now arrive in order): the diff names exactly those.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runCli, tmpDir, writeCapture } from './helpers.js';
import type { Report } from '../src/report/report.js';
import { sarifValidator } from './sarif-validator.js';

const T0 = Date.parse('2026-10-01T08:00:00Z');
const rec = (event: string, session: string, id: string, t: number, caller: string, model: string) => ({
  ts: new Date(T0 + t).toISOString(),
  event,
  session_id: session,
  request_id: id,
  ...(event === 'llm:response' ? { status: 'ok' } : {}),
  data: { provider: 'anthropic', model, caller },
});

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const C = 'cccccccc-0000-4000-8000-000000000003';
const D = 'dddddddd-0000-4000-8000-000000000004';

function capture(head: boolean): object[] {
  const lines: object[] = [];
  if (head) lines.push(rec('llm:request', 's3', D, 5, 'late', 'm3')); // the new orphan, above everything else
  lines.push(rec('llm:request', 's1', A, 10, 'agent', 'm1'));
  lines.push(rec('llm:request', 's1', B, 20, 'summarizer', 'm2'));
  if (head) {
    lines.push(rec('llm:response', 's1', A, 30, 'agent', 'm1'));
    lines.push(rec('llm:response', 's1', B, 40, 'summarizer', 'm2'));
  } else {
    lines.push(rec('llm:response', 's1', B, 30, 'summarizer', 'm2'));
    lines.push(rec('llm:response', 's1', A, 40, 'agent', 'm1'));
  }
  lines.push(rec('llm:request', 's2', C, 50, 'agent', 'm1')); // an orphan in both
  return lines;
}

describe('diff and --baseline', () => {
  const dir = tmpDir();
  const baseCap = writeCapture(capture(false), 'base.jsonl', dir);
  const headCap = writeCapture(capture(true), 'head.jsonl', dir);
  const baseJson = path.join(dir, 'base.json');
  const headJson = path.join(dir, 'head.json');

  it('diff names exactly the new orphan and the fixed crossed pair', async () => {
    expect((await runCli(['analyze', baseCap, '-f', 'json', '-o', baseJson])).code).toBe(0);
    expect((await runCli(['analyze', headCap, '-f', 'json', '-o', headJson])).code).toBe(0);
    const r = await runCli(['diff', baseJson, headJson]);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.schema).toBe('callpair.diff.v1');
    expect(d.new.map((f: { code: string; data: { id: string } }) => [f.code, f.data.id])).toEqual([['ORPHAN_REQUEST', D]]);
    expect(d.fixed.map((f: { code: string; data: { id: string } }) => [f.code, f.data.id]).sort()).toEqual([
      ['CROSSED_PAIR', A],
      ['CROSSED_PAIR', B],
    ]);
    expect(d.counts).toEqual({ new: 1, fixed: 2, unchanged: 1 });
    expect(d.deltas.orphanRequests).toEqual({ base: 1, head: 2, delta: 1 });
    expect(d.deltas.crossedRate).toEqual({ base: 1, head: 0, delta: -1 });
    expect(d.deltas.idCoverage).toEqual({ base: 1, head: 1, delta: 0 });
    expect(d.deltas.ambiguous.delta).toBe(0);
    const md = await runCli(['diff', baseJson, headJson, '-f', 'markdown']);
    expect(md.stdout).toContain('1 new, 2 fixed, 1 unchanged');
    expect(md.stdout).toContain('| orphan requests | 1 | 2 | +1 |');
  });

  it('--fail-on-new fails on the new orphan only', async () => {
    const gate = ['--fail-on', 'warning'];
    // The base's own orphan fails a warning gate…
    expect((await runCli(['analyze', baseCap, '-f', 'json', ...gate])).code).toBe(1);
    // …but compared with itself nothing is new.
    expect((await runCli(['analyze', baseCap, '-f', 'json', '--baseline', baseJson, '--fail-on-new', ...gate])).code).toBe(0);
    const h = await runCli(['analyze', headCap, '-f', 'json', '--baseline', baseJson, '--fail-on-new', ...gate]);
    expect(h.code).toBe(1);
    const rep = JSON.parse(h.stdout) as Report;
    const failed = rep.gate.checks.filter((c) => !c.passed);
    expect(failed.map((c) => [c.name, c.actual])).toEqual([['fail-on:warning', 1]]);
    expect(rep.baseline!.newCounts).toEqual({ ORPHAN_REQUEST: 1 });
    // render of the saved head report gates the same way, and equals analyze.
    const rh = await runCli(['render', headJson, '-f', 'json', '--baseline', baseJson, '--fail-on-new', ...gate]);
    expect(rh.code).toBe(1);
    expect(rh.stdout).toBe(h.stdout);
    // diff gates the same way.
    expect((await runCli(['diff', baseJson, headJson, '--fail-on-new', ...gate])).code).toBe(1);
    expect((await runCli(['diff', headJson, headJson, '--fail-on-new', ...gate])).code).toBe(0);
    expect((await runCli(['analyze', headCap, '--fail-on-new'])).code).toBe(2);
  });

  it('SARIF carries baselineState; Markdown shows the delta', async () => {
    const s = await runCli(['analyze', headCap, '-f', 'sarif', '--baseline', baseJson]);
    const doc = JSON.parse(s.stdout);
    const validate = sarifValidator();
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const results = doc.runs[0].results as Array<{ ruleId: string; baselineState: string; message: { text: string } }>;
    expect(results.map((r) => [r.ruleId, r.baselineState])).toEqual([
      ['callpair/ORPHAN_REQUEST', 'new'],
      ['callpair/ORPHAN_REQUEST', 'unchanged'],
    ]);
    const md = await runCli(['analyze', headCap, '-f', 'markdown', '--baseline', baseJson]);
    expect(md.stdout).toContain('### Since baseline');
    expect(md.stdout).toContain('| crossed rate (FIFO) | 100.0% | 0.0% | −100.0 pp |');
    expect(md.stdout).toMatch(/#### Fixed findings[\s\S]*CROSSED_PAIR/);
  });
});

describe('diff: gate options on the command line apply', () => {
  it('--fail-on warning fails a head with warnings; --no-fail turns a saved failing gate into exit 0', async () => {
    const dir = tmpDir();
    const plain = path.join(dir, 'plain.json');
    const strict = path.join(dir, 'strict.json');
    await runCli(['analyze', fixture('orphan-crossed.jsonl'), '-f', 'json', '-o', plain]);
    await runCli(['analyze', fixture('orphan-crossed.jsonl'), '--fail-on', 'warning', '-f', 'json', '-o', strict]);
    const a = await runCli(['diff', plain, plain, '--fail-on', 'warning']);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/^callpair: gate failed: fail-on:warning/m);
    expect((await runCli(['diff', strict, strict])).code).toBe(1);
    // --no-fail alone keeps the saved options (fail on warnings) and only stops enforcing them.
    const nf = await runCli(['diff', strict, strict, '--no-fail']);
    expect(nf.code).toBe(0);
    expect(nf.stderr).toMatch(/gate failed: fail-on:warning.*--no-fail/);
    const rn = await runCli(['render', strict, '--no-fail']);
    expect(rn.code).toBe(0);
    expect(rn.stderr).toMatch(/gate failed: fail-on:warning.*--no-fail/);
    // --fail-on-new: the same head has nothing new.
    expect((await runCli(['diff', strict, strict, '--fail-on-new', '--fail-on', 'warning'])).code).toBe(0);
  });
});
