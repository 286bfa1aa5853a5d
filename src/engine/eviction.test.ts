/**
 * --max-open-calls: open requests beyond the bound are evicted oldest-first over the whole
 * channel, reported as orphans with reason `evicted`, never silently dropped; the shadows never hold
 * more than the open requests, so memory stays bounded by the limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallEvent, ChannelSpec, OrphanRequestRecord, Role } from '../model.js';
import type { Finding } from '../report/findings.js';
import { PairingEngine } from './engine.js';
// What the test channel means does not matter to the engine (it pairs; reports read the meaning).
import { TEST_MEANING } from './test-meaning.js';

const SPEC: ChannelSpec = { name: 'llm', ...TEST_MEANING, ordered: false, signatureFields: ['provider'] };
/** A fresh capture per test: events numbered from line 1. */
function capture() {
  let line = 0;
  return (role: Role, scope: string, id: string | null, provider: string | null = 'p'): CallEvent => ({
    role,
    channel: 'llm',
    scope,
    id,
    sig: [provider],
    time: null,
    caller: 'c',
    attrs: {},
    loc: { path: 'x', line: ++line },
  });
}

function engine(max: number) {
  const orphans: OrphanRequestRecord[] = [];
  const findings: Finding[] = [];
  const e = new PairingEngine({ channels: [SPEC], sink: { finding: (f) => findings.push(f), orphanRequest: (o) => orphans.push(o) }, maxOpenCalls: max });
  return { e, orphans, findings };
}

describe('--max-open-calls eviction', () => {
  it('evicts the channel-wide oldest open request, across scopes, as an orphan with reason evicted', () => {
    const ev = capture();
    const { e, orphans, findings } = engine(3);
    for (let k = 1; k <= 5; k++) e.push(ev('request', `S${k}`, `r${k}`));
    expect(orphans.map((o) => [o.scope, o.reason])).toEqual([
      ['S1', 'evicted'],
      ['S2', 'evicted'],
    ]);
    expect(findings.filter((f) => f.code === 'ORPHAN_REQUEST' && f.data.reason === 'evicted')).toHaveLength(2);
    const ch = e.channels.get('llm')!;
    expect(ch.openTotal).toBe(3);
    expect(ch.counters.evicted).toBe(2);
    // The evicted scope holds no open state any more.
    expect(ch.scopes.get('S1')!.open).toBeNull();
    e.finish();
    expect(orphans.map((o) => o.reason)).toEqual(['evicted', 'evicted', 'end-of-input', 'end-of-input', 'end-of-input']);
    expect(ch.counters.requests).toBe(ch.counters.pairs + ch.counters.orphanRequests);
  });

  it('a terminal for an evicted request is an orphan response, not a pair with a stranger', () => {
    const ev = capture();
    const { e } = engine(1);
    e.push(ev('request', 'S', 'a'));
    e.push(ev('request', 'S', 'b'));
    e.push(ev('terminal', 'S', 'a'));
    const ch = e.channels.get('llm')!;
    expect(ch.counters.orphanResponses).toBe(1);
    expect(ch.counters.pairs).toBe(0);
  });

  it('says why: a terminal for an evicted request is id-evicted, one for an id never opened id-not-open', () => {
    const ev = capture();
    const { e, findings } = engine(1);
    e.push(ev('request', 'S', 'a'));
    e.push(ev('request', 'S', 'b')); // evicts a
    e.push(ev('terminal', 'S', 'a'));
    e.push(ev('terminal', 'T', 'a')); // another scope: a was never open there
    e.push(ev('terminal', 'S', 'z'));
    expect(findings.filter((f) => f.code === 'ORPHAN_RESPONSE').map((f) => [f.scope, f.data.id, f.data.reason])).toEqual([
      ['S', 'a', 'id-evicted'],
      ['T', 'a', 'id-not-open'],
      ['S', 'z', 'id-not-open'],
    ]);
    // Nothing forgotten yet: no orphan is unsure.
    expect(e.snapshot().channels[0]!.unsureOrphans).toBeUndefined();
  });

  it('an id opened twice, one evicted: its second terminal is id-evicted, not a duplicate terminal', () => {
    const ev = capture();
    const { e, findings } = engine(2);
    e.push(ev('request', 'S', '1'));
    e.push(ev('request', 'S', '1'));
    e.push(ev('request', 'S', '2')); // evicts the older 1
    e.push(ev('terminal', 'S', '1')); // pairs the other 1 (closed now)
    e.push(ev('terminal', 'S', '1')); // may answer the evicted one
    expect(findings.filter((f) => f.code !== 'DUPLICATE_ID' && f.code !== 'ORPHAN_REQUEST').map((f) => [f.code, (f.data as { reason?: string }).reason ?? null])).toEqual([
      ['ORPHAN_RESPONSE', 'id-evicted'],
    ]);
    expect(e.channels.get('llm')!.counters.duplicateTerminals).toBe(0);
  });

  it('an id-not-open orphan read after the closed-id window forgot an id is counted unsure', () => {
    const ev = capture();
    const findings: Finding[] = [];
    const e = new PairingEngine({ channels: [SPEC], sink: { finding: (f) => findings.push(f) }, closedWindow: 2 });
    for (const id of ['a', 'b', 'c']) {
      e.push(ev('request', 'S', id));
      e.push(ev('terminal', 'S', id));
    }
    e.push(ev('terminal', 'S', 'c')); // remembered: DUPLICATE_TERMINAL
    expect(e.snapshot().channels[0]!.unsureOrphans).toBeUndefined();
    e.push(ev('terminal', 'S', 'a')); // a was forgotten: an orphan, maybe a late repeat
    expect(findings.map((f) => [f.code, (f.data as { id?: string }).id, (f.data as { reason?: string }).reason ?? null])).toEqual([
      ['DUPLICATE_TERMINAL', 'c', null],
      ['ORPHAN_RESPONSE', 'a', 'id-not-open'],
    ]);
    expect(e.snapshot().channels[0]!.unsureOrphans).toBe(1);
  });

  it('trims a shadow whose copy of the evicted request was already taken', () => {
    const ev = capture();
    const { e } = engine(2);
    e.push(ev('request', 'S', 'a'));
    e.push(ev('request', 'S', 'b'));
    e.push(ev('terminal', 'S', 'b')); // id pairs b; FIFO shadow takes a
    e.push(ev('request', 'S', 'c'));
    e.push(ev('request', 'S', 'd')); // 3 open > 2: evicts a
    const open = e.channels.get('llm')!.scopes.get('S')!.open!;
    expect(open.all.size).toBe(2);
    expect(open.fifo.size).toBeLessThanOrEqual(2);
    expect(open.sigShadow.size).toBeLessThanOrEqual(2);
  });

  it('property: open calls and shadows never exceed the bound, and the ledger balances', { timeout: 600_000 }, () => {
    const ev = capture();
    const event = fc.record({
      role: fc.constantFrom<Role>('request', 'request', 'terminal', 'interim'),
      scope: fc.constantFrom('A', 'B', 'C'),
      id: fc.option(fc.constantFrom('1', '2', '3', '4'), { nil: null }),
      provider: fc.option(fc.constantFrom('p', 'q'), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), fc.integer({ min: 1, max: 6 }), (evs, max) => {
        const { e } = engine(max);
        const ch = e.channels.get('llm') ?? null;
        for (const x of evs) {
          e.push(ev(x.role, x.scope, x.id, x.provider));
          const st = e.channels.get('llm')!;
          expect(st.openTotal).toBeLessThanOrEqual(max);
          // Counted after the eviction: no scope is said to hold more than the bound.
          expect(st.counters.maxInFlight).toBeLessThanOrEqual(max);
          expect(st.openQueue.length).toBeGreaterThanOrEqual(st.openTotal);
          expect(st.openQueue.length).toBeLessThanOrEqual(2 * st.openTotal + 1024);
          for (const sc of st.scopes.values()) {
            if (!sc.open) continue;
            expect(sc.open.fifo.size).toBeLessThanOrEqual(sc.open.all.size);
            expect(sc.open.sigShadow.size).toBeLessThanOrEqual(sc.open.all.size);
          }
        }
        e.finish();
        const c = (ch ?? e.channels.get('llm')!).counters;
        expect(c.requests).toBe(c.pairs + c.orphanRequests);
        expect(c.terminals).toBe(c.pairs + c.orphanResponses + c.duplicateTerminals + c.redundant);

      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200), ...(process.env.FUZZ_RUNS ? {} : { seed: 7 }) },
    );
  });
});

describe('latency groups under hostile names', () => {
  it('past MAX_LATENCY_GROUPS distinct (provider, model) pairs share one overflow group', async () => {
    const ev = capture();
    const { MAX_LATENCY_GROUPS } = await import('./engine.js');
    const { e } = engine(1_000_000);
    const n = MAX_LATENCY_GROUPS + 50;
    for (let k = 0; k < n; k++) {
      const req = ev('request', 'S', `r${k}`);
      req.time = 0;
      req.attrs = { provider: 'p', model: `m${k}` };
      const term = ev('terminal', 'S', `r${k}`);
      term.time = 5;
      term.attrs = { provider: 'p', model: `m${k}` };
      e.push(req);
      e.push(term);
    }
    const ch = e.channels.get('llm')!;
    expect(ch.groups.size).toBe(MAX_LATENCY_GROUPS + 1);
    let total = 0;
    for (const g of ch.groups.values()) total += g.hist.count;
    expect(total).toBe(n);
  });

  it('each pair lands in its own group whether or not the pair before shared it, past the cap too', async () => {
    const ev = capture();
    const { MAX_LATENCY_GROUPS } = await import('./engine.js');
    const { e } = engine(1_000_000);
    let k = 0;
    const call = (model: string, ms: number) => {
      const req = ev('request', 'S', `r${++k}`);
      req.time = 0;
      req.attrs = { provider: 'p', model };
      const term = ev('terminal', 'S', `r${k}`);
      term.time = ms;
      term.attrs = { provider: 'p', model };
      e.push(req);
      e.push(term);
    };
    for (const m of ['a', 'a', 'b', 'a', 'b', 'b']) call(m, m === 'a' ? 1 : 2);
    for (let j = 0; j < MAX_LATENCY_GROUPS; j++) call(`fill${j}`, 3);
    for (const m of ['late', 'late', 'a', 'late', 'b']) call(m, m === 'late' ? 4 : m === 'a' ? 1 : 2);
    const groups = [...e.channels.get('llm')!.groups.values()];
    const count = (label: string | null) => groups.find((g) => g.label[1] === label || g.label[0] === label)!.hist;
    expect([count('a').count, count('a').max]).toEqual([4, 1]);
    expect([count('b').count, count('b').max]).toEqual([4, 2]);
    expect([count('(other groups)').count, count('(other groups)').min]).toEqual([2 + 3, 3]); // the last two fills and the three late ones
  });
});
