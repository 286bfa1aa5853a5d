import { describe, expect, it, beforeAll } from 'vitest';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { analyze } from '../src/analyze.js';
import { compare, type AttributionRow, type CompareReport } from '../src/compare/compare.js';
import type { CallLine, PairsLine } from '../src/compare/pairs.js';
import type { Report } from '../src/report/report.js';
import { amp, fixture, resetClock, runCli, tmpDir, writeCapture } from './helpers.js';
import { writeGenerated, type GenStats } from './generate.js';

const row = (c: CompareReport, caller: string, strategy: string, channel = 'llm'): AttributionRow =>
  c.channels.find((x) => x.channel === channel)!.attribution.find((r) => r.caller === caller && r.strategy === strategy)!;

describe('compare on fixtures/seed-trace.jsonl', () => {
  it('FIFO crosses 2 of 3; signature-FIFO none; id is the truth', async () => {
    const res = await runCli(['compare', '--format', 'json', 'fixtures/seed-trace.jsonl']);
    expect(res.code).toBe(0);
    const c = JSON.parse(res.stdout) as CompareReport;
    expect(c.schema).toBe('callpair.compare.v1');
    const ch = c.channels[0]!;
    expect(ch.channel).toBe('llm');
    expect(ch.groundTruth).toBe(true);
    expect(ch.comparable).toBe(3);
    expect(ch.strategies.fifo).toEqual({ pairs: 3, orphanRequests: 0, orphanResponses: 0, crossed: 2, crossedRate: 0.666667, atRisk: 0 });
    expect(ch.strategies.signature.crossed).toBe(0);
    expect(ch.strategies.id).toEqual({ pairs: 3, orphanRequests: 0, orphanResponses: 0, crossed: 0, crossedRate: 0, atRisk: 0 });
    expect(ch.scopes.map((s) => [s.scope, s.strategies.fifo.crossed])).toEqual([['sess-seed', 2]]);
  });

  it('under FIFO the summarizer is charged the agent’s tokens and the agent the summarizer’s', async () => {
    const c = await compare({ inputs: [fixture('seed-trace.jsonl')] });
    expect(row(c, 'agent', 'id')).toMatchObject({ calls: 1, errors: 0, inputTokens: 48000, outputTokens: 1900, latencyMs: { mean: 30, p50: 30, p90: 30 } });
    expect(row(c, 'summarizer', 'id')).toMatchObject({ calls: 1, inputTokens: 5200, outputTokens: 310, latencyMs: { mean: 10 } });
    expect(row(c, 'summarizer', 'fifo')).toMatchObject({ inputTokens: 48000, outputTokens: 1900 });
    expect(row(c, 'agent', 'fifo')).toMatchObject({ inputTokens: 5200, outputTokens: 310 });
    expect(row(c, 'summarizer', 'fifo').vsId!.inputTokens).toEqual({ abs: 42800, pct: 823.08 });
    expect(row(c, 'agent', 'fifo').vsId!.inputTokens).toEqual({ abs: -42800, pct: -89.17 });
    // Signature-FIFO gets these right (the callers are stated), and the naming timeout stays an error.
    expect(row(c, 'agent', 'signature').vsId!.inputTokens).toEqual({ abs: 0, pct: 0 });
    expect(row(c, 'naming', 'id')).toMatchObject({ calls: 1, errors: 1, inputTokens: null, outputTokens: null });
    expect(row(c, 'naming', 'fifo').vsId!.inputTokens).toEqual({ abs: null, pct: null });
  });

  it('the table shows the difference against id pairing for each caller', async () => {
    const res = await runCli(['compare', 'fixtures/seed-trace.jsonl']);
    expect(res.code).toBe(0);
    const out = res.stdout;
    expect(out).toMatch(/fifo +│ 3 +│ 0 +│ 0 +│ 2 +│ 66\.7%/);
    expect(out).toMatch(/│ agent +│ fifo +│ 1 \(=\) +│ 0 \(=\) +│ 5200 \(−42800, −89\.2%\) +│ 310 \(−1590, −83\.7%\)/);
    expect(out).toMatch(/│ summarizer +│ fifo +│ 1 \(=\) +│ 0 \(=\) +│ 48000 \(\+42800, \+823\.1%\) +│ 1900 \(\+1590, \+512\.9%\)/);
    expect(out).toMatch(/│ naming +│ fifo +│ 1 \(=\) +│ 1 \(=\)/);
    for (const caller of ['agent', 'summarizer', 'naming']) for (const s of ['fifo', 'signature', 'id']) expect(out).toMatch(new RegExp(`│ ${caller} +│ ${s} +│`));
  });

  it('renders Markdown with the same tables, and byte-identical JSON on two runs', async () => {
    const md = await runCli(['compare', '-f', 'markdown', 'fixtures/seed-trace.jsonl']);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('| strategy | pairs | orphan requests | orphan responses | crossed | crossed rate | at risk |');
    expect(md.stdout).toContain('| summarizer | fifo | 1 (=) | 0 (=) | 48000 (+42800, +823.1%) |');
    const a = await runCli(['compare', '-f', 'json', 'fixtures/seed-trace.jsonl']);
    const b = await runCli(['compare', '-f', 'json', 'fixtures/seed-trace.jsonl']);
    expect(a.stdout).toBe(b.stdout);
  });
});

function parseLines(text: string): PairsLine[] {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  return lines.map((l) => JSON.parse(l) as PairsLine);
}

describe('a generated capture with full id coverage (40 sessions, agent loop + background calls, timeouts)', () => {
  let file = '';
  let stats: GenStats;
  let report: Report;
  let cmp: CompareReport;
  let lines: PairsLine[];
  beforeAll(async () => {
    file = path.join(tmpDir(), 'gen40.jsonl');
    stats = writeGenerated(file, { sessions: 40, seed: 7 });
    report = await analyze({ inputs: [file] });
    const [c, p] = await Promise.all([runCli(['compare', '-f', 'json', file]), runCli(['pairs', file])]);
    expect(c.code).toBe(0);
    expect(p.code).toBe(0);
    cmp = JSON.parse(c.stdout) as CompareReport;
    lines = parseLines(p.stdout);
  });

  it('is what it claims: 40 sessions, ids everywhere, overlap, timeouts', () => {
    const ch = report.channels[0]!;
    expect(ch.scopeCount).toBe(40);
    expect(ch.idCoverage).toEqual({ requests: 1, terminals: 1 });
    expect(ch.maxInFlight).toBeGreaterThan(2);
    expect(stats.timeouts).toBeGreaterThan(5);
    expect(ch.crossed.comparable).toBe(ch.pairs.total);
    expect(ch.crossed.fifo).toBeGreaterThan(0);
  });

  it('compare crossed counts equal analyze’s, per channel and per scope', () => {
    for (const ch of report.channels) {
      const cc = cmp.channels.find((x) => x.channel === ch.channel)!;
      expect(cc.comparable).toBe(ch.crossed.comparable);
      expect(cc.strategies.fifo.crossed).toBe(ch.crossed.fifo);
      expect(cc.strategies.signature.crossed).toBe(ch.crossed.signature);
      expect(cc.strategies.fifo.crossedRate).toBe(ch.crossed.fifoRate);
      expect(cc.strategies.id.pairs).toBe(ch.pairs.total);
      expect(cc.strategies.id.orphanRequests).toBe(ch.orphanRequests);
      expect(cc.scopes.map((s) => [s.scope, s.comparable, s.strategies.fifo.crossed, s.strategies.signature.crossed])).toEqual(
        ch.scopes.map((s) => [s.scope, s.crossed.comparable, s.crossed.fifo, s.crossed.signature]),
      );
      // Every request is a pair or an orphan under each strategy; every terminal a pair or an orphan response.
      for (const s of ['fifo', 'signature'] as const) {
        const st = cc.strategies[s];
        expect(st.pairs + st.orphanRequests).toBe(ch.requests);
        expect(st.pairs + st.orphanResponses).toBe(ch.terminals - ch.redundant);
      }
    }
  });

  it('per-caller totals under id equal the sums over `pairs` lines', () => {
    const calls = lines.filter((l): l is CallLine => l.type === 'call');
    expect(calls.length).toBe(report.channels[0]!.pairs.total);
    expect(lines.filter((l) => l.type === 'orphan').length).toBe(report.channels[0]!.orphanRequests + report.channels[0]!.orphanResponses);
    const by = new Map<string, { calls: number; errors: number; input: number | null; output: number | null; lat: number; latN: number }>();
    for (const l of calls) {
      let a = by.get(l.caller);
      if (!a) by.set(l.caller, (a = { calls: 0, errors: 0, input: null, output: null, lat: 0, latN: 0 }));
      a.calls++;
      if (l.status !== null && l.status !== 'ok') a.errors++;
      if (l.usage?.inputTokens != null) a.input = (a.input ?? 0) + l.usage.inputTokens;
      if (l.usage?.outputTokens != null) a.output = (a.output ?? 0) + l.usage.outputTokens;
      if (l.latencyMs !== null) {
        a.lat += l.latencyMs;
        a.latN++;
      }
    }
    const idRows = cmp.channels[0]!.attribution.filter((r) => r.strategy === 'id');
    expect(idRows.map((r) => r.caller).sort()).toEqual([...by.keys()].sort());
    expect(by.size).toBe(3);
    for (const r of idRows) {
      const a = by.get(r.caller)!;
      expect([r.caller, r.calls, r.errors, r.inputTokens, r.outputTokens]).toEqual([r.caller, a.calls, a.errors, a.input, a.output]);
      expect(r.latencyMs.mean).toBeCloseTo(a.lat / a.latN, 2);
    }
    // FIFO moves tokens between callers but keeps the total.
    const total = (s: string) => cmp.channels[0]!.attribution.filter((r) => r.strategy === s).reduce((n, r) => n + (r.calls ?? 0), 0);
    expect(total('fifo')).toBe(total('id'));
  });

  it('pairs lines carry the FIFO partner where ids exist, and it disagrees exactly on the crossed pairs', () => {
    const calls = lines.filter((l): l is CallLine => l.type === 'call');
    const crossed = calls.filter((l) => l.fifoPartner !== l.request).length;
    expect(crossed).toBe(report.channels[0]!.crossed.fifo);
    for (const l of calls) expect(l.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('compare without ids', () => {
  it('says no ground truth exists and reports at-risk pairs instead of crossed ones', async () => {
    const file = path.join(tmpDir(), 'noid.jsonl');
    writeGenerated(file, { sessions: 40, seed: 7, ids: false });
    const res = await runCli(['compare', '-f', 'json', file]);
    expect(res.code).toBe(0);
    const ch = (JSON.parse(res.stdout) as CompareReport).channels[0]!;
    expect(ch.groundTruth).toBe(false);
    expect(ch.comparable).toBe(0);
    for (const s of ['fifo', 'signature', 'id'] as const) {
      expect(ch.strategies[s].crossed).toBeNull();
      expect(ch.strategies[s].crossedRate).toBeNull();
    }
    expect(ch.strategies.fifo.atRisk).toBeGreaterThan(0);
    expect(ch.atRiskExamples.length).toBeGreaterThan(0);
    expect(ch.crossedExamples).toEqual([]);
    const table = await runCli(['compare', file]);
    expect(table.stdout).toContain('No ground truth');
    expect(table.stdout).toContain('At risk under FIFO');
    expect(table.stdout).not.toContain('Crossed by FIFO');
    expect(table.stdout).toMatch(/fifo +│ \d+ +│ \d+ +│ \d+ +│ n\/a +│ n\/a +│ [1-9]\d* /);
    const md = await runCli(['compare', '-f', 'markdown', file]);
    expect(md.stdout).toContain('> **No ground truth');
  });

  it('counts nothing at risk when only one call is ever in flight', async () => {
    resetClock();
    const lines = [];
    for (let i = 0; i < 3; i++) lines.push(amp({ event: 'llm:request', provider: 'p' }), amp({ event: 'llm:response', provider: 'p', status: 'ok' }));
    const c = await compare({ inputs: [writeCapture(lines)] });
    expect(c.channels[0]!.groundTruth).toBe(false);
    expect(c.channels[0]!.strategies.fifo).toEqual({ pairs: 3, orphanRequests: 0, orphanResponses: 0, crossed: null, crossedRate: null, atRisk: 0 });
  });
});

describe('attribution keeps unknown apart from 0', () => {
  it('sums known values in both eras; all-unknown is null, and unknowns are counted', async () => {
    resetClock();
    const c = await compare({
      inputs: [
        writeCapture([
          amp({ event: 'llm:request', id: 'a1', provider: 'p', caller: 'x' }),
          amp({ event: 'llm:response', id: 'a1', provider: 'p', status: 'ok', usage: { input_tokens: 100, output_tokens: null } }),
          amp({ event: 'llm:request', id: 'a2', provider: 'p', caller: 'x' }),
          amp({ event: 'llm:response', id: 'a2', provider: 'p', status: 'ok', usage: { input: 50, output: null, cache_read: 7 } }),
          amp({ event: 'llm:request', id: 'a3', provider: 'p', caller: 'x' }),
          amp({ event: 'llm:response', id: 'a3', provider: 'p', status: 'cancelled' }),
        ]),
      ],
    });
    const r = row(c, 'x', 'id');
    expect(r).toMatchObject({ calls: 3, errors: 1, inputTokens: 150, outputTokens: null, cacheReadTokens: 7, cacheWriteTokens: null });
    expect(r.unknown).toEqual({ inputTokens: 1, outputTokens: 3, cacheReadTokens: 2, cacheWriteTokens: 3, latency: 0 });
  });

  it('folds callers beyond the bound into (other)', async () => {
    resetClock();
    const lines = [];
    for (let i = 0; i < 5; i++) lines.push(amp({ event: 'llm:request', id: `r${i}`, provider: 'p', caller: `c${i}` }), amp({ event: 'llm:response', id: `r${i}`, provider: 'p' }));
    const c = await compare({ inputs: [writeCapture(lines)], maxCallers: 2 });
    expect(c.channels[0]!.attribution.filter((r) => r.strategy === 'id').map((r) => [r.caller, r.calls])).toEqual([
      ['(other)', 3],
      ['c0', 1],
      ['c1', 1],
    ]);
    expect(c.channels[0]!.callsFolded).toBe(9);
  });
});

describe('compare CLI edges', () => {
  it('strips hostile caller strings in table and Markdown, escapes them in JSON', async () => {
    resetClock();
    const evil = 'x\u001b[2J\u202ey|z`<b>\u2028';
    const file = writeCapture([
      amp({ event: 'llm:request', id: 'a1', provider: 'p', caller: evil }),
      amp({ event: 'llm:request', id: 'a2', provider: 'p', caller: 'b' }),
      amp({ event: 'llm:response', id: 'a2', provider: 'p', usage: { input_tokens: 1 } }),
      amp({ event: 'llm:response', id: 'a1', provider: 'p', usage: { input_tokens: 2 } }),
    ]);
    const [t, m, j] = await Promise.all([runCli(['compare', file]), runCli(['compare', '-f', 'markdown', file]), runCli(['compare', '-f', 'json', file])]);
    for (const r of [t, m, j]) {
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/[\u001b\u202e\u2028]/);
    }
    expect(t.stdout).toContain('xy|z`<b> ');
    expect(m.stdout).toContain('xy\\|z\\`&lt;b&gt;');
    expect((JSON.parse(j.stdout) as CompareReport).channels[0]!.attribution.some((r) => r.caller === evil)).toBe(true);
  });

  it('writes --output FILE, and exits 2 without inputs or with a bad --max-callers', async () => {
    const out = path.join(tmpDir(), 'c.json');
    const r = await runCli(['compare', '-f', 'json', '-o', out, 'fixtures/seed-trace.jsonl']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8')).schema).toBe('callpair.compare.v1');
    const p = path.join(tmpDir(), 'p.ndjson');
    expect((await runCli(['pairs', '-o', p, 'fixtures/seed-trace.jsonl'])).code).toBe(0);
    expect(readFileSync(p, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    for (const args of [['compare'], ['pairs'], ['compare', '--max-callers', '0', 'fixtures/seed-trace.jsonl']]) {
      const e = await runCli(args);
      expect(e.code).toBe(2);
      expect(e.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
