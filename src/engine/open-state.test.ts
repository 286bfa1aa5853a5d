/**
 * What the engine keeps per open request (src/engine/pool.ts, src/engine/state.ts): signature
 * indexes only once a terminal asks a pool by signature, and shadow copies only where something
 * reads them. The pairs are the cascade's either way (docs/pairing.md).
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, ChannelSpec, PairRecord, ShadowPairRecord } from '../model.js';
import { PairingEngine } from './engine.js';
import { TEST_MEANING } from './test-meaning.js';

const LLM: ChannelSpec = { name: 'llm', ...TEST_MEANING, ordered: false, signatureFields: ['provider', 'model'] };
const ARBITRARY: ChannelSpec = { ...LLM, terminalOrder: 'arbitrary' };

function capture(channel: string) {
  let line = 0;
  return (role: CallEvent['role'], id: string | null, sig: (string | null)[] | null): CallEvent => ({
    role,
    channel,
    scope: 'S',
    id,
    sig,
    time: ++line,
    caller: 'main',
    attrs: {},
    loc: { path: 'cap.jsonl', line },
  });
}

const maskLists = (pool: unknown) => (pool as { byMask: Map<string, unknown> }).byMask.size;

describe('what the engine keeps per open request', () => {
  it('requests a terminal takes by id enter no signature index; the first terminal without an id indexes them and takes the oldest agreeing', () => {
    const pairs: PairRecord[] = [];
    const e = new PairingEngine({ channels: [LLM], sink: { finding: () => undefined, pair: (p) => pairs.push(p) } });
    const ev = capture('llm');
    for (let k = 0; k < 1000; k++) e.push(ev('request', `r${k}`, ['p', `m${k % 3}`]));
    const open = e.channels.get('llm')!.scopes.get('S')!.open!;
    expect(open.all.size).toBe(1000);
    expect(maskLists(open.all)).toBe(0);
    for (let k = 0; k < 500; k++) e.push(ev('terminal', `r${k}`, ['p', `m${k % 3}`]));
    expect(pairs.every((p) => p.method === 'id')).toBe(true);
    expect(maskLists(open.all)).toBe(0);
    e.push(ev('terminal', null, [null, 'm2']));
    expect(pairs.at(-1)).toMatchObject({ method: 'signature', request: { id: 'r500' } });
    expect(maskLists(open.all)).toBe(1);
  });

  it('on a channel whose terminal order is arbitrary, requests enter the shadows only when a listener reads them', () => {
    const ev = capture('llm');
    const quiet = new PairingEngine({ channels: [ARBITRARY], sink: { finding: () => undefined } });
    const shadowPairs: ShadowPairRecord[] = [];
    const heard = new PairingEngine({ channels: [ARBITRARY], sink: { finding: () => undefined, shadowPair: (s) => shadowPairs.push(s) } });
    for (let k = 0; k < 100; k++) {
      const r = ev('request', `r${k}`, ['p', 'm']);
      quiet.push(r);
      heard.push(r);
    }
    const q = quiet.channels.get('llm')!.scopes.get('S')!.open!;
    const h = heard.channels.get('llm')!.scopes.get('S')!.open!;
    expect([q.all.size, q.fifo.size, q.sigShadow.size]).toEqual([100, 0, 0]);
    expect([h.all.size, h.fifo.size, h.sigShadow.size]).toEqual([100, 100, 100]);
    const t = ev('terminal', 'r7', ['p', 'm']);
    quiet.push(t);
    heard.push(t);
    expect(shadowPairs.map((s) => [s.shadow, s.request?.id, s.crossed])).toEqual([
      ['fifo', 'r0', true],
      ['signature', 'r0', true],
    ]);
    // No crossed pairs are counted where the terminal order is arbitrary, with or without a listener.
    expect(quiet.channels.get('llm')!.counters).toMatchObject({ pairs: 1, crossedComparable: 0, crossedFifo: 0 });
    expect(heard.channels.get('llm')!.counters).toMatchObject({ pairs: 1, crossedComparable: 0, crossedFifo: 0 });
  });

  it('a run of terminals keeps no closed call alive: pools and the arrival queue shrink with the open calls, not only on the next request', () => {
    const e = new PairingEngine({ channels: [LLM], sink: { finding: () => undefined, shadowPair: () => undefined } });
    const ev = capture('llm');
    for (let k = 0; k < 10_000; k++) e.push(ev('request', k % 2 ? `r${k}` : null, ['p', `m${k % 3}`]));
    // Ids close out of order; the requests without one by signature (indexing the pools).
    for (let k = 9_999; k >= 20; k--) e.push(ev('terminal', k % 2 ? `r${k}` : null, ['p', `m${k % 3}`]));
    const ch = e.channels.get('llm')!;
    const open = ch.scopes.get('S')!.open!;
    expect(open.all.size).toBe(20);
    const held = (x: unknown) => (x as { order?: unknown[]; reqs?: unknown[] }).order?.length ?? (x as { reqs: unknown[] }).reqs.length;
    for (const pool of [open.all, open.noId, open.fifo, open.sigShadow]) expect(held(pool)).toBeLessThan(2 * 20 + 64 + 2);
    expect(held(ch.openQueue)).toBeLessThan(2 * 20 + 64 + 2);
  });
});

