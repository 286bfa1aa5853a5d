import { describe, expect, it } from 'vitest';
import type { CallEvent, ChannelSpec } from '../model.js';
import { PairingEngine } from './engine.js';

import { TEST_MEANING } from './test-meaning.js';
const LLM: ChannelSpec = { name: 'llm', ...TEST_MEANING, ordered: false, signatureFields: ['provider', 'model'] };

function capture() {
  let line = 0;
  return (role: CallEvent['role'], scope: string, id: string | null, time: number, attrs: CallEvent['attrs'] = {}): CallEvent => ({
    role,
    channel: 'llm',
    scope,
    id,
    sig: [attrs.provider ?? null, attrs.model ?? null],
    time,
    caller: 'main',
    attrs,
    loc: { path: 'cap.jsonl', line: ++line },
  });
}

function engine() {
  return new PairingEngine({ channels: [LLM], sink: { finding: () => undefined } });
}

describe('engine snapshot', () => {
  it('is plain data: counters, scopes in first-seen order, latency groups with stats', () => {
    const ev = capture();
    const e = engine();
    const m = { provider: 'anthropic', model: 'haiku' };
    for (const x of [ev('request', 'B', 'b', 0, m), ev('request', 'A', 'a', 5, m), ev('terminal', 'A', 'a', 25, m), ev('terminal', 'B', 'b', 40, m)]) e.push(x);
    e.finish();
    const snap = e.snapshot({ distributions: true });
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
    const ch = snap.channels[0]!;
    expect(ch.spec.name).toBe('llm');
    expect(ch.counters).toMatchObject({ requests: 2, terminals: 2, pairs: 2, byMethod: { id: 2, signature: 0, fifo: 0 } });
    expect(ch.counters.latency).toMatchObject({ count: 2, min: 20, max: 40 });
    expect(ch.scopes.map((s) => [s.scope, s.counters.pairs])).toEqual([
      ['B', 1],
      ['A', 1],
    ]);
    expect(ch.latencyGroups.map((g) => [g.group, g.subgroup, g.stats.count, g.distribution!.reduce((n, b) => n + b[1], 0)])).toEqual([['anthropic', 'haiku', 2, 2]]);
    expect(e.snapshot().channels[0]!.latencyGroups[0]!.distribution).toBeUndefined();
  });

  it('is a copy: later events do not change a snapshot already taken', () => {
    const ev = capture();
    const e = engine();
    e.push(ev('request', 'S', 'a', 0));
    const before = e.snapshot();
    e.push(ev('terminal', 'S', 'a', 10));
    expect(before.channels[0]!.counters.pairs).toBe(0);
    expect(before.channels[0]!.counters.byMethod.id).toBe(0);
    expect(e.snapshot().channels[0]!.counters.byMethod.id).toBe(1);
  });

  it('two engines pair the same input the same way, whatever engine ran before (the sequence is per engine)', () => {
    const run = () => {
      const ev = capture();
      const seen: string[] = [];
      const e = new PairingEngine({ channels: [LLM], sink: { finding: () => undefined, pair: (p) => seen.push(`${p.request.loc.line}>${p.terminal.loc.line}`) } });
      for (const x of [ev('request', 'S', null, 0), ev('request', 'S', null, 1), ev('terminal', 'S', null, 2), ev('terminal', 'S', null, 3)]) {
        e.push(x);
      }
      return seen;
    };
    expect(run()).toEqual(['1>3', '2>4']);
    expect(run()).toEqual(['1>3', '2>4']);
  });
});

describe('counters snapshot', () => {
  it('holds the counts of zeroCounts(), their one list, in its order, and shares no object with the live counters', async () => {
    const { countersSnapshot, newCounters } = await import('./state.js');
    const { zeroCounts } = await import('../model/snapshot.js');
    const c = newCounters();
    c.requests = 3;
    c.byMethod.id = 2;
    const s = countersSnapshot(c);
    expect(Object.keys(s)).toEqual([...Object.keys(zeroCounts()), 'latency']);
    expect(s).toMatchObject({ requests: 3, byMethod: { id: 2 } });
    c.byMethod.id = 5;
    c.byConfidence.exact = 1;
    expect(s.byMethod.id).toBe(2);
    expect(s.byConfidence.exact).toBe(0);
  });
});
