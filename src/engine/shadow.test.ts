import { describe, expect, it } from 'vitest';
import { PairingEngine } from './engine.js';
import type { CallEvent, ChannelSpec, PairRecord, ShadowPairRecord } from '../model.js';
// What the test channel means does not matter to the engine (it pairs; reports read the meaning).
import { TEST_MEANING } from './test-meaning.js';

const CH: ChannelSpec = { name: 'llm', ...TEST_MEANING, ordered: false, signatureFields: ['provider', 'model', 'caller'] };
/** A fresh capture per test: events numbered from line 1. */
function capture() {
  let line = 0;
  return (role: CallEvent['role'], id: string | null, caller: string, time: number): CallEvent => ({
    role,
    channel: 'llm',
    scope: 'S',
    id,
    sig: ['p', null, caller],
    time,
    caller,
    attrs: {},
    loc: { path: 'x', line: ++line },
  });
}

function run(events: CallEvent[]) {
  const shadows: ShadowPairRecord[] = [];
  const pairs: PairRecord[] = [];
  const e = new PairingEngine({ channels: [CH], sink: { finding: () => undefined, pair: (p) => pairs.push(p), shadowPair: (s) => shadows.push(s) } });
  for (const x of events) e.push(x);
  e.finish();
  return { shadows, pairs, counters: e.channels.get('llm')!.counters };
}

describe('engine shadowPair sink', () => {
  it('reports the whole FIFO and signature-FIFO pairing, with crossed against the id truth', () => {
    const ev = capture();
    const { shadows, pairs, counters } = run([
      ev('request', 'A', 'agent', 0),
      ev('request', 'B', 'naming', 1),
      ev('request', 'C', 'summarizer', 2),
      ev('terminal', 'C', 'summarizer', 3),
      ev('terminal', 'B', 'naming', 4),
      ev('terminal', 'A', 'agent', 5),
    ]);
    const fifo = shadows.filter((s) => s.shadow === 'fifo');
    const sig = shadows.filter((s) => s.shadow === 'signature');
    expect(fifo.map((s) => [s.terminal.loc.line, s.request?.loc.line, s.crossed, s.inFlight])).toEqual([
      [4, 1, true, 3],
      [5, 2, false, 2],
      [6, 3, true, 1],
    ]);
    // Signature-FIFO matches on the stated caller: never crosses here.
    expect(sig.map((s) => [s.terminal.loc.line, s.request?.loc.line, s.crossed])).toEqual([
      [4, 3, false],
      [5, 2, false],
      [6, 1, false],
    ]);
    expect(fifo.filter((s) => s.crossed).length).toBe(counters.crossedFifo);
    expect(sig.filter((s) => s.crossed).length).toBe(counters.crossedSignature);
    expect(pairs.map((p) => p.inFlight)).toEqual([3, 2, 1]);
    // The shadow's request side carries the request's caller and attrs (for attribution).
    expect(fifo[0]!.request!.caller).toBe('agent');
  });

  it('covers terminals without ground truth and terminals nothing could take', () => {
    const ev = capture();
    const { shadows } = run([ev('request', null, 'a', 0), ev('terminal', null, 'a', 1), ev('terminal', null, 'b', 2)]);
    expect(shadows.map((s) => [s.shadow, s.request?.loc.line ?? null, s.crossed, s.inFlight])).toEqual([
      ['fifo', 1, null, 1],
      ['signature', 1, null, 1],
      ['fifo', null, null, 0],
      ['signature', null, null, 0],
    ]);
  });

  it('skips redundant terminals', () => {
    const ev = capture();
    const t = ev('terminal', null, 'a', 1);
    t.redundant = true;
    const { shadows } = run([ev('request', null, 'a', 0), t]);
    expect(shadows).toEqual([]);
  });
});
