/**
 * With many stale open calls, pairing stays amortised O(1) per event
 * (src/engine/pool.ts; docs/design.md §8). Before, the signature shadow scanned every stale call on
 * every terminal: 100 000 stale + 100 000 id-paired calls took 190 s (1.6 s without the stale ones).
 * At the 50 000 used here a quadratic takes a quarter of that (~47 s), a linear pass under 1 s:
 * the 7.5 s budgets are generous for a loaded 2-core machine.
 */
import { describe, expect, it } from 'vitest';
import type { CallEvent, ChannelSpec } from '../model.js';
import { PairingEngine } from './engine.js';
import { TEST_MEANING } from './test-meaning.js';

const CH: ChannelSpec = { name: 'llm', ...TEST_MEANING, ordered: false, signatureFields: ['provider', 'model', 'caller'] };
const N = 50_000;

function engine() {
  let pairs = 0;
  const e = new PairingEngine({ channels: [CH], sink: { finding: () => undefined, pair: () => pairs++, shadowPair: () => undefined } });
  return { e, pairs: () => pairs };
}

let line = 0;
const ev = (role: CallEvent['role'], id: string | null, model: string): CallEvent => ({
  role,
  channel: 'llm',
  scope: 'S',
  id,
  sig: ['p', model, 'agent'],
  time: line,
  caller: 'agent',
  attrs: {},
  loc: { path: 'x', line: ++line },
});

/** CPU ms of this process since `t0` (not wall time: other processes share the machine). */
function cpuMsSince(t0: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(t0);
  return (c.user + c.system) / 1000;
}

describe('stale open calls: pairing stays amortised O(1) per event', () => {
  it('50 000 stale open calls + 50 000 id-paired calls pair in well under 7.5 s', () => {
    const { e, pairs } = engine();
    const t0 = process.cpuUsage();
    for (let k = 0; k < N; k++) e.push(ev('request', `stale-${k}`, `stale-${k % 7}`));
    for (let k = 0; k < N; k++) {
      e.push(ev('request', `r-${k}`, 'm'));
      e.push(ev('terminal', `r-${k}`, 'm'));
    }
    e.finish();
    const ms = cpuMsSince(t0);
    expect(pairs()).toBe(N);
    const c = e.channels.get('llm')!.counters;
    expect(c.orphanRequests).toBe(N);
    // The shadows took the stale calls first: every id pair is crossed for FIFO, none for signature-FIFO.
    expect([c.crossedFifo, c.crossedSignature]).toEqual([N, 0]);
    expect(ms).toBeLessThan(7_500);
  });

  it('50 000 stale calls without ids + 50 000 calls without ids paired by signature in well under 7.5 s', () => {
    const { e, pairs } = engine();
    const t0 = process.cpuUsage();
    for (let k = 0; k < N; k++) e.push(ev('request', null, `stale-${k}`));
    for (let k = 0; k < N; k++) {
      e.push(ev('request', null, 'm'));
      e.push(ev('terminal', null, 'm'));
    }
    e.finish();
    const ms = cpuMsSince(t0);
    expect(pairs()).toBe(N);
    const c = e.channels.get('llm')!.counters;
    expect(c.byMethod.signature).toBe(N);
    expect(ms).toBeLessThan(7_500);
  });

  it('a long-lived oldest call does not let the pools grow with the calls that came and went', () => {
    const { e } = engine();
    e.push(ev('request', 'old', 'x'));
    for (let k = 0; k < 50_000; k++) {
      e.push(ev('request', `r-${k}`, 'm'));
      e.push(ev('terminal', `r-${k}`, 'm'));
    }
    const open = e.channels.get('llm')!.scopes.get('S')!.open!;
    expect(open.all.size).toBe(1);
    // Internal arrays are compacted: what stays is bounded by the live calls, not by the history.
    const internal = (p: unknown) => (p as { order: unknown[] }).order.length;
    expect(internal(open.all)).toBeLessThan(2048);
    expect(internal(open.sigShadow)).toBeLessThan(2048);
  });
});
