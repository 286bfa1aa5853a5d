/**
 * After an eviction: the table's finding row tallies the reasons of the listed findings (orphans
 * evicted and never answered), so the first one's is not read as every one's; and the gate does not
 * count a finding an eviction can hide (`--fail-on CROSSED_PAIR`: unknown, fails).
 */
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { analyzeLines, fixture } from './helpers.js';
import { analyze } from '../src/analyze.js';
import { compareReports } from '../src/merge/diff.js';
import { table } from '../src/formatters/table.js';
import { markdown } from '../src/formatters/markdown.js';

const ctx = { chalk: new Chalk({ level: 0 }), cwd: process.cwd(), width: 400 };
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't' } });
const reply = (id: number) => ({ jsonrpc: '2.0', id, result: {} });

describe('finding rows with several reasons', () => {
  it('tallies the reasons of the listed findings (4 evicted, 2 never answered)', async () => {
    const lines = [...Array.from({ length: 10 }, (_, i) => call(i)), ...[5, 6, 7, 8].map(reply)];
    const r = await analyzeLines(lines, { maxOpenCalls: 6 });
    const row = table.render(r, ctx).split('\n').find((l) => l.includes('ORPHAN_REQUEST'))!;
    expect(row).toContain('request from main evicted while open (--max-open-calls reached) — reasons: evicted 4, end-of-input 2');
    // One reason: no tally.
    const one = await analyzeLines(lines.slice(0, 10), {});
    expect(table.render(one, ctx).split('\n').find((l) => l.includes('ORPHAN_REQUEST'))).not.toContain('reasons');
  });

  it('counts only what is listed, and says so, when findings were left out', async () => {
    const lines = [...Array.from({ length: 10 }, (_, i) => call(i)), ...[5, 6, 7, 8].map(reply)];
    // Six orphans (lines 1–4 evicted, 5 and 10 never answered); five listed.
    const r = await analyzeLines(lines, { maxOpenCalls: 6, maxFindings: 5 });
    expect(r.findingsOmitted.ORPHAN_REQUEST).toBe(1);
    const row = table.render(r, ctx).split('\n').find((l) => l.includes('ORPHAN_REQUEST'))!;
    expect(row).toContain('— reasons of the 5 listed: evicted 4, end-of-input 1');
  });
});

describe('the gate after an eviction', () => {
  it('--fail-on of a finding an eviction can hide cannot be evaluated (and fails); one it cannot hide is counted', async () => {
    const lines = [...Array.from({ length: 10 }, (_, i) => call(i)), ...[5, 6, 7, 8].map(reply)];
    const r = await analyzeLines(lines, { maxOpenCalls: 6, gate: { failOn: ['CROSSED_PAIR', 'note', 'ORPHAN_RESPONSE'] } });
    expect(r.channels[0]!.evictedRequests).toBe(4);
    const byName = new Map(r.gate.checks.map((c) => [c.name, c]));
    expect(byName.get('fail-on:CROSSED_PAIR')).toMatchObject({ actual: null, unknown: 'evicted', passed: false });
    expect(byName.get('fail-on:note')).toMatchObject({ actual: null, unknown: 'evicted', passed: false });
    expect(byName.get('fail-on:ORPHAN_RESPONSE')).toMatchObject({ actual: 0, passed: true });
    expect(byName.get('fail-on:ORPHAN_RESPONSE')!.unknown).toBeUndefined();
    // Said as not evaluated, never as findings present (there are none).
    expect(table.render(r, ctx)).toContain('CROSSED_PAIR findings not evaluated: requests were evicted');
    expect(table.render(r, ctx)).not.toContain('CROSSED_PAIR findings present');
    expect(r.gate.passed).toBe(false);
    // Without an eviction the same checks are counted.
    const whole = await analyzeLines(lines, { gate: { failOn: ['CROSSED_PAIR'] } });
    expect(whole.gate.checks.find((c) => c.name === 'fail-on:CROSSED_PAIR')!.unknown).toBeUndefined();
  });

  it('Markdown says why a check was not evaluated and lists no offenders for it; notes are shown whole', async () => {
    const lines = [...Array.from({ length: 10 }, (_, i) => call(i)), ...[5, 6, 7, 8].map(reply)];
    const r = await analyzeLines(lines, { maxOpenCalls: 6, gate: { maxCrossedRate: 0.5 } });
    const md = markdown.render(r, ctx);
    expect(md).toContain('FIFO crossed rate not evaluated: requests were evicted at --max-open-calls (raise it)');
    expect(md).not.toContain('`max-crossed-rate` offenders');
    const note = r.notes.find((n) => n.includes('were evicted'))!;
    expect(note.length).toBeGreaterThan(300);
    expect(md).toContain(note.replace(/\(/g, '(').slice(-60));
    expect(table.render(r, ctx)).toContain(note.slice(-60));
  });

  it('--max-crossed-rate on OpenAI Batch alone: not evaluated because the order is arbitrary, not for want of id pairs', async () => {
    const r = await analyze({ inputs: [fixture('real/openai-batch')], gate: { maxCrossedRate: 0.5 } });
    expect(r.gate.checks.find((c) => c.name === 'max-crossed-rate')).toMatchObject({ actual: null, unknown: 'arbitrary-order', passed: false });
  });

  it('diff and --baseline: a head that evicted has no crossed rate or ambiguity count to compare (n/a), not a made-up drop', async () => {
    const lines = [...Array.from({ length: 10 }, (_, i) => call(i)), ...[5, 6, 7, 8].map(reply)];
    const base = await analyzeLines(lines);
    const head = await analyzeLines(lines, { maxOpenCalls: 6 });
    const d = compareReports(base, head).deltas;
    expect(d.crossedRate).toMatchObject({ head: null, delta: null });
    expect(d.crossedRate.base).not.toBeNull();
    expect(d.ambiguous).toMatchObject({ head: null, delta: null });
    expect(d.orphanRequests.head).toBe(head.channels[0]!.orphanRequests);
  });

  it('--fail-on DUPLICATE_TERMINAL after the closed-id window forgot ids: unknown "window", and the channel says how many', async () => {
    const lines = [...[1, 2, 3].flatMap((i) => [call(i), reply(i)]), reply(1)];
    const r = await analyzeLines(lines, { closedWindow: 2, gate: { failOn: ['DUPLICATE_TERMINAL', 'note'] } });
    expect(r.channels[0]!.unsureOrphans).toBe(1);
    const byName = new Map(r.gate.checks.map((c) => [c.name, c]));
    expect(byName.get('fail-on:DUPLICATE_TERMINAL')).toMatchObject({ actual: null, unknown: 'window', passed: false });
    expect(byName.get('fail-on:note')).toMatchObject({ actual: null, unknown: 'window', passed: false });
    // Remembered: a DUPLICATE_TERMINAL, counted, and nothing unsure.
    const held = await analyzeLines(lines, { gate: { failOn: ['DUPLICATE_TERMINAL'] } });
    expect(held.channels[0]!.unsureOrphans).toBeUndefined();
    expect(held.gate.checks.find((c) => c.name === 'fail-on:DUPLICATE_TERMINAL')).toMatchObject({ actual: 1, passed: false });
  });
});
