/**
 * Requests that share an id (state.ts IdList): a terminal takes the oldest open request with its
 * id, whichever requests with that id closed before (by their own terminals or by eviction), and
 * however many share it. Checked against a plain model: per id a queue of open requests, and the
 * channel's oldest open request evicted past --max-open-calls.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PairingEngine } from './engine.js';
import { TEST_MEANING } from './test-meaning.js';
import type { CallEvent, ChannelSpec } from '../model.js';

const LLM: ChannelSpec = { name: 'llm', ...TEST_MEANING, ordered: false, signatureFields: ['provider', 'model', 'caller'] };

type Op = { req: boolean; id: number };
const opsArb = fc.array(
  fc.record({ req: fc.boolean(), id: fc.nat({ max: 3 }) }).map((o): Op => o),
  { minLength: 1, maxLength: 600 },
);

function play(ops: readonly Op[], maxOpenCalls: number) {
  const got: Array<[number, number]> = [];
  const evicted: number[] = [];
  const engine = new PairingEngine({
    channels: [LLM],
    maxOpenCalls,
    sink: {
      pair: (p) => got.push([p.request.loc.line, p.terminal.loc.line]),
      orphanRequest: (o) => {
        if (o.reason === 'evicted') evicted.push(o.request.loc.line);
      },
      orphanResponse: () => {},
      finding: () => {},
    },
  });
  // The model: open requests in arrival order (line, id).
  const open: Array<[number, number]> = [];
  const want: Array<[number, number]> = [];
  const wantEvicted: number[] = [];
  let line = 0;
  // Padding: requests of other ids that stay open, so the scope's pool is large (it keeps an id index).
  const pad = 40;
  const ev = (role: CallEvent['role'], id: string): CallEvent => ({ role, channel: 'llm', scope: 'S', id, sig: null, time: line, caller: 'main', attrs: {}, loc: { path: 'c.jsonl', line } });
  const request = (id: number | string) => {
    line++;
    engine.push(ev('request', String(id)));
    open.push([line, typeof id === 'number' ? id : -1]);
    if (open.length > maxOpenCalls) wantEvicted.push(open.shift()![0]);
  };
  for (let i = 0; i < pad; i++) request(`pad${i}`);
  for (const o of ops) {
    if (o.req) request(o.id);
    else {
      line++;
      engine.push(ev('terminal', String(o.id)));
      const at = open.findIndex(([, id]) => id === o.id);
      if (at >= 0) want.push([open.splice(at, 1)[0]![0], line]);
    }
  }
  return { got, want, evicted, wantEvicted };
}

describe('requests sharing an id', () => {
  it('pair oldest first, as a per-id queue would, with and without eviction', () => {
    fc.assert(
      fc.property(opsArb, fc.constantFrom(100_000, 45, 60), (ops, cap) => {
        const r = play(ops, cap);
        expect(r.got).toEqual(r.want);
        expect(r.evicted).toEqual(r.wantEvicted);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });
});
