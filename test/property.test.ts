import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeLines } from './helpers.js';
import { ledgerViolations } from '../src/report/report.js';

interface Call {
  session: number;
  caller: number;
  model: number;
  open: number;
  close: number | null; // null: never closed
  kind: 'llm:response' | 'provider:error';
}

const callArb = fc.record({
  session: fc.integer({ min: 0, max: 3 }),
  caller: fc.integer({ min: 0, max: 2 }),
  model: fc.integer({ min: 0, max: 2 }),
  open: fc.integer({ min: 0, max: 200 }),
  dur: fc.option(fc.integer({ min: 1, max: 60 }), { freq: 8 }),
  kind: fc.constantFrom('llm:response' as const, 'provider:error' as const),
});

/** Builds a capture from random overlapping calls; `idRate` decides which events carry ids. */
function build(calls: Array<Omit<Call, 'close'> & { dur: number | null }>, idMask: boolean[], dropDup: number[]): object[] {
  type E = { t: number; seq: number; rec: object };
  const evs: E[] = [];
  calls.forEach((c, i) => {
    const withId = idMask[i % idMask.length] ?? true;
    const id = withId ? `req-${i}` : undefined;
    const base = { session_id: `s${c.session}` };
    const data = { provider: 'anthropic', model: `m${c.model}`, caller: `c${c.caller}` };
    evs.push({ t: c.open, seq: i * 2, rec: { ...base, event: 'llm:request', ts: new Date(1e12 + c.open).toISOString(), request_id: id, data } });
    if (c.dur !== null) {
      const t = c.open + c.dur;
      evs.push({
        t,
        seq: i * 2 + 1,
        rec: { ...base, event: c.kind, ts: new Date(1e12 + t).toISOString(), request_id: id, status: c.kind === 'llm:response' ? 'ok' : undefined, data },
      });
    }
  });
  evs.sort((a, b) => a.t - b.t || a.seq - b.seq);
  const out: object[] = [];
  evs.forEach((e, i) => {
    const mode = dropDup[i % dropDup.length] ?? 0;
    if (mode === 1) return; // dropped line
    out.push(e.rec);
    if (mode === 2) out.push(e.rec); // duplicated line
  });
  return out;
}

describe('property: generated captures', () => {
  it('the ledger identities hold in every report', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 10 }),
        fc.array(fc.constantFrom(0, 0, 0, 0, 1, 2), { minLength: 1, maxLength: 12 }),
        async (calls, idMask, dropDup) => {
          const r = await analyzeLines(build(calls, idMask, dropDup));
          expect(ledgerViolations(r)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('with full id coverage every pair is exact and nothing is orphaned but the unclosed calls', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(callArb, { minLength: 1, maxLength: 40 }), async (calls) => {
        const r = await analyzeLines(build(calls, [true], [0]));
        expect(ledgerViolations(r)).toEqual([]);
        const ch = r.channels[0]!;
        expect(ch.pairs.byConfidence.exact).toBe(ch.pairs.total);
        expect(ch.pairs.total).toBe(calls.filter((c) => c.dur !== null).length);
        expect(ch.orphanRequests).toBe(calls.filter((c) => c.dur === null).length);
        expect(ch.orphanResponses).toBe(0);
        expect(ch.crossed.comparable).toBe(ch.pairs.total);
      }),
      { numRuns: 60 },
    );
  });
});
