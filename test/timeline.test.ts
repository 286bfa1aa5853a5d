import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { safeJson } from '../src/formatters/json.js';
import { amp, analyzeLines, fixture, resetClock } from './helpers.js';

describe('report.timeline', () => {
  it('is absent unless asked for (the default JSON stays small)', async () => {
    const r = await analyze({ inputs: [fixture('seed-trace.jsonl')] });
    expect(r.timeline).toBeUndefined();
    expect(safeJson(r)).not.toContain('timeline');
  });

  it('holds the seed trace: 3 calls in 3 lanes, 2 crossed links to the request FIFO would have given', async () => {
    const r = await analyze({ inputs: [fixture('seed-trace.jsonl')], timeline: true });
    const t = r.timeline!;
    expect(t.scopesTotal).toBe(1);
    expect(t.omittedScopes).toEqual([]);
    const s = t.scopes[0]!;
    expect(s.axis).toBe('time');
    expect(s.start).toBe(Date.parse('2026-09-03T10:00:01.000Z'));
    expect(s.span).toBe(30);
    expect(s.lanes).toEqual(['agent', 'naming', 'summarizer']);
    expect(s.calls.map((c) => [c.caller, c.lane, c.request!.t, c.end, c.method, c.confidence])).toEqual([
      ['agent', 0, 0, 30, 'id', 'exact'],
      ['naming', 1, 2, 22, 'id', 'exact'],
      ['summarizer', 2, 4, 14, 'id', 'exact'],
    ]);
    // summarizer's terminal (line 5) → FIFO gives it the agent request (line 2); agent's terminal (line 7) → the summarizer request (line 4).
    const links = s.calls.flatMap((c, i) => (c.crossed ? [[i, c.fifoPartner]] : []));
    expect(links).toEqual([
      [0, 2],
      [2, 0],
    ]);
    const naming = s.calls[1]!;
    expect(naming.crossed).toBe(false);
    expect(naming.error).toBe(true);
    expect(naming.timeout).toBe(true);
    expect(naming.status).toBe('error');
    expect(s.calls[0]!.id).toBe('620c068b-044d-4b18-a100-332479278b82');
    expect(s.calls[0]!.latencyMs).toBe(30);
    expect(t.latency.map((d) => [d.group, d.subgroup, d.buckets.reduce((n, b) => n + b[1], 0)])).toEqual([
      ['anthropic', 'claude-haiku-5', 2],
      ['anthropic', 'claude-sonnet-5', 1],
    ]);
  });

  it('is deterministic: two runs give byte-identical JSON', async () => {
    const a = safeJson(await analyze({ inputs: [fixture('seed-trace.jsonl')], timeline: true }), 2);
    const b = safeJson(await analyze({ inputs: [fixture('seed-trace.jsonl')], timeline: true }), 2);
    expect(a).toBe(b);
  });

  it('without timestamps uses input order on the axis; orphans run to the end', async () => {
    const strip = (o: Record<string, unknown>) => {
      delete o.ts;
      return o;
    };
    const r = await analyzeLines(
      [
        strip(amp({ event: 'llm:response', provider: 'q', model: 'z' })),
        strip(amp({ event: 'llm:request', provider: 'p', model: 'm', caller: 'a' })),
        strip(amp({ event: 'llm:request', provider: 'p', model: 'm', caller: 'b' })),
        strip(amp({ event: 'llm:response', provider: 'p', model: 'm', caller: 'a' })),
      ],
      { timeline: true },
    );
    const s = r.timeline!.scopes[0]!;
    expect(s.axis).toBe('input-order');
    expect(s.start).toBeNull();
    expect(s.span).toBe(4);
    const orphan = s.calls.find((c) => c.kind === 'orphan-request')!;
    expect(orphan.caller).toBe('b');
    expect(orphan.request!.t).toBe(2);
    expect(orphan.end).toBe(4);
    expect(s.calls.find((c) => c.kind === 'orphan-response')!.terminal!.t).toBe(0);
    expect(s.calls.find((c) => c.kind === 'pair')!.latencyMs).toBeNull();
  });

  it('draws the worst scopes first, bounds scopes and calls, and says what it left out', async () => {
    resetClock();
    const lines: object[] = [];
    // 6 clean scopes of 5 sequential calls, then one with a crossing, one with an orphan.
    for (let s = 0; s < 6; s++) {
      for (let i = 0; i < 5; i++) {
        lines.push(amp({ event: 'llm:request', session: `clean${s}`, id: `c${s}-${i}`, provider: 'p', model: 'm' }));
        lines.push(amp({ event: 'llm:response', session: `clean${s}`, id: `c${s}-${i}`, provider: 'p', model: 'm' }));
      }
    }
    lines.push(amp({ event: 'llm:request', session: 'crossed', id: 'x1', provider: 'p', model: 'm', caller: 'a' }));
    lines.push(amp({ event: 'llm:request', session: 'crossed', id: 'x2', provider: 'p', model: 'm', caller: 'b' }));
    lines.push(amp({ event: 'llm:response', session: 'crossed', id: 'x2', provider: 'p', model: 'm', caller: 'b' }));
    lines.push(amp({ event: 'llm:response', session: 'crossed', id: 'x1', provider: 'p', model: 'm', caller: 'a' }));
    lines.push(amp({ event: 'llm:request', session: 'orphaned', id: 'o1', provider: 'p', model: 'm' }));
    const r = await analyzeLines(lines, { timeline: { maxScopes: 2, maxCallsPerScope: 3, maxHeldScopes: 4 } });
    const t = r.timeline!;
    expect(t.scopesTotal).toBe(8);
    // An orphan (a warning) ranks above crossed pairs (notes): docs/report.md, the worst-scopes ranking.
    expect(t.scopes.map((s) => s.scope)).toEqual(['orphaned', 'crossed']);
    expect(t.omittedScopes.reduce((n, o) => n + o.count, 0)).toBe(6);
    expect(t.omittedScopes.every((o) => o.withProblems === 0)).toBe(true);

    // Problem scopes first, a worse one later: the held set makes room for it.
    resetClock();
    const cross = (session: string, n: number) => {
      const out: object[] = [];
      for (let i = 0; i < n; i++) {
        out.push(amp({ event: 'llm:request', session, id: `${session}a${i}`, provider: 'p', model: 'm', caller: 'a' }));
        out.push(amp({ event: 'llm:request', session, id: `${session}b${i}`, provider: 'p', model: 'm', caller: 'b' }));
        out.push(amp({ event: 'llm:response', session, id: `${session}b${i}`, provider: 'p', model: 'm', caller: 'b' }));
        out.push(amp({ event: 'llm:response', session, id: `${session}a${i}`, provider: 'p', model: 'm', caller: 'a' }));
      }
      return out;
    };
    const r3 = await analyzeLines([...cross('A', 1), ...cross('B', 1), ...cross('C', 3), ...cross('D', 1)], {
      timeline: { maxScopes: 1, maxHeldScopes: 2 },
    });
    expect(r3.timeline!.scopes.map((s) => [s.scope, s.counts.crossedFifo])).toEqual([['C', 6]]);
    expect(r3.timeline!.omittedScopes).toEqual([
      { count: 1, reason: 'past-limit', withProblems: 1 },
      { count: 2, reason: 'not-kept', withProblems: 2 },
    ]);

    const r2 = await analyzeLines(lines, { timeline: { maxScopes: 20, maxCallsPerScope: 3, maxHeldScopes: 20 } });
    const clean = r2.timeline!.scopes.find((s) => s.scope === 'clean0')!;
    expect(clean.calls).toHaveLength(3);
    expect(clean.omittedCalls).toEqual({ count: 2, reason: 'only the first 3 calls of a scope are drawn' });
  });
});
