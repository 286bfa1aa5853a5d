import { describe, expect, it } from 'vitest';
import type { CallEvent, ChannelSpec, OrphanRequestRecord, OrphanResponseRecord, PairRecord } from '../model.js';
import type { Finding } from '../report/findings.js';
import { PairingEngine, sigMatch } from './engine.js';
// What the test channel means does not matter to the engine (it pairs; reports read the meaning).
import { TEST_MEANING } from './test-meaning.js';

const LLM: ChannelSpec = { name: 'llm', ...TEST_MEANING, ordered: false, signatureFields: ['provider', 'model', 'caller'] };
const ORDERED: ChannelSpec = { name: 'decision', ...TEST_MEANING, ordered: true, signatureFields: ['tool'] };

type Ev = (role: CallEvent['role'], opts?: Partial<CallEvent> & { sig?: (string | null)[] | null }) => CallEvent;

/** A fresh capture per test: events numbered from line 1, ten ms apart. */
function capture(): Ev {
  let line = 0;
  return (role, opts = {}) => {
    line++;
    return {
      role,
      channel: 'llm',
      scope: 'S',
      id: null,
      sig: null,
      time: line * 10,
      caller: 'main',
      attrs: {},
      loc: { path: 'cap.jsonl', line },
      ...opts,
    };
  };
}

function run(events: CallEvent[], channels: ChannelSpec[] = [LLM], options: { closedWindow?: number; maxOpenCalls?: number } = {}) {
  const pairs: PairRecord[] = [];
  const orphanReqs: OrphanRequestRecord[] = [];
  const orphanResps: OrphanResponseRecord[] = [];
  const findings: Finding[] = [];
  const engine = new PairingEngine({
    channels,
    ...options,
    sink: {
      pair: (p) => pairs.push(p),
      orphanRequest: (o) => orphanReqs.push(o),
      orphanResponse: (o) => orphanResps.push(o),
      finding: (f) => findings.push(f),
    },
  });
  for (const e of events) engine.push(e);
  engine.finish();
  const c = engine.channels.get(channels[0]!.name)!.counters;
  return { pairs, orphanReqs, orphanResps, findings, c, engine };
}

describe('the pairing cascade', () => {
  it('pairs by id with confidence exact', () => {
    const ev = capture();
    const { pairs, c } = run([ev('request', { id: 'a' }), ev('request', { id: 'b' }), ev('terminal', { id: 'b' }), ev('terminal', { id: 'a' })]);
    expect(pairs.map((p) => [p.request.id, p.terminal.id, p.method, p.confidence])).toEqual([
      ['b', 'b', 'id', 'exact'],
      ['a', 'a', 'id', 'exact'],
    ]);
    expect(c.crossedComparable).toBe(2);
    expect(c.crossedFifo).toBe(2);
    expect(c.maxInFlight).toBe(2);
  });

  it('signature, unambiguous: one candidate shares the signature', () => {
    const ev = capture();
    const { pairs, findings } = run([
      ev('request', { sig: ['anthropic', 'sonnet', null], caller: 'agent' }),
      ev('request', { sig: ['anthropic', 'haiku', null], caller: 'summarizer' }),
      ev('terminal', { sig: ['anthropic', 'haiku', null] }),
      ev('terminal', { sig: ['anthropic', 'sonnet', null] }),
    ]);
    expect(pairs[0]).toMatchObject({ method: 'signature', confidence: 'unambiguous', candidates: 1 });
    expect(pairs[0]!.request.caller).toBe('summarizer');
    expect(pairs[1]).toMatchObject({ method: 'signature', confidence: 'unambiguous' });
    expect(findings.filter((f) => f.code === 'AMBIGUOUS_PAIR')).toHaveLength(0);
  });

  it('signature, ambiguous: two candidates share it, the oldest is taken', () => {
    const ev = capture();
    const { pairs, findings } = run([
      ev('request', { sig: ['anthropic', 'haiku', null], caller: 'one' }),
      ev('request', { sig: ['anthropic', 'haiku', null], caller: 'two' }),
      ev('terminal', { sig: ['anthropic', 'haiku', null] }),
      ev('terminal', { sig: ['anthropic', 'haiku', null] }),
    ]);
    expect(pairs[0]).toMatchObject({ method: 'signature', confidence: 'ambiguous', candidates: 2 });
    expect(pairs[0]!.request.caller).toBe('one');
    expect(pairs[1]).toMatchObject({ method: 'signature', confidence: 'unambiguous' });
    expect(findings.filter((f) => f.code === 'AMBIGUOUS_PAIR')).toHaveLength(1);
  });

  it('a missing field is a wildcard; a provider:error without model still matches on provider', () => {
    expect(sigMatch(['anthropic', null, null], ['anthropic', 'haiku', 'x'])).toBe(true);
    expect(sigMatch(['openai', null, null], ['anthropic', 'haiku', null])).toBe(false);
    expect(sigMatch([null, null, null], ['anthropic', 'haiku', null])).toBe(false);
  });

  it('fifo: no signature shared, the oldest open request is taken', () => {
    const ev = capture();
    const { pairs } = run([
      ev('request', { sig: ['anthropic', 'a', null] }),
      ev('request', { sig: ['anthropic', 'b', null] }),
      ev('terminal', { sig: ['openai', 'c', null] }),
      ev('terminal'),
    ]);
    expect(pairs[0]).toMatchObject({ method: 'fifo', confidence: 'ambiguous', candidates: 2 });
    expect(pairs[0]!.request.loc.line).toBe(1); // the oldest open request, not the newer one on line 2
    expect(pairs[1]).toMatchObject({ method: 'fifo', confidence: 'unambiguous', candidates: 1 });
  });

  it('orphan response: a terminal with nothing open', () => {
    const ev = capture();
    const { c, orphanResps, findings } = run([ev('terminal'), ev('request', { id: 'x' }), ev('terminal', { id: 'x' }), ev('terminal', { id: 'zz' })]);
    expect(c.orphanResponses).toBe(2);
    expect(orphanResps.map((o) => o.reason)).toEqual(['no-open-request', 'id-not-open']);
    expect(findings.filter((f) => f.code === 'ORPHAN_RESPONSE')).toHaveLength(2);
  });

  it('duplicate terminal: a second terminal for a closed id', () => {
    const ev = capture();
    const { c, findings, pairs } = run([ev('request', { id: 'x' }), ev('terminal', { id: 'x' }), ev('terminal', { id: 'x' })]);
    expect(pairs).toHaveLength(1);
    expect(c.duplicateTerminals).toBe(1);
    expect(c.orphanResponses).toBe(0);
    expect(findings.map((f) => f.code)).toContain('DUPLICATE_TERMINAL');
  });

  it('a closed id that fell out of the window is an orphan response', () => {
    const ev = capture();
    const { c } = run([ev('request', { id: 'x' }), ev('terminal', { id: 'x' }), ev('request', { id: 'y' }), ev('terminal', { id: 'y' }), ev('terminal', { id: 'x' })], [LLM], {
      closedWindow: 1,
    });
    expect(c.duplicateTerminals).toBe(0);
    expect(c.orphanResponses).toBe(1);
  });

  it('mixed stream: an id terminal with no id match takes only requests without an id', () => {
    const ev = capture();
    const { pairs, c } = run([
      ev('request', { id: 'a', caller: 'new' }),
      ev('request', { caller: 'old' }),
      ev('terminal', { id: 'b' }), // its id matches nothing → fallback among id-less requests only
      ev('terminal', { id: 'a' }),
    ]);
    expect(pairs[0]).toMatchObject({ method: 'fifo', confidence: 'unambiguous' });
    expect(pairs[0]!.request.caller).toBe('old');
    expect(pairs[1]).toMatchObject({ method: 'id', confidence: 'exact' });
    expect(c.pairs).toBe(2);
    expect(c.crossedComparable).toBe(1);
  });

  it('an id-less terminal may take a request that has an id (all open requests are candidates)', () => {
    const ev = capture();
    const { pairs } = run([ev('request', { id: 'a' }), ev('terminal')]);
    expect(pairs[0]).toMatchObject({ method: 'fifo', confidence: 'unambiguous' });
  });

  it('interims attach by id, or to the only open request; else unattributed', () => {
    const ev = capture();
    const { pairs, c } = run([
      ev('request', { id: 'a' }),
      ev('interim', { id: 'a' }),
      ev('interim'), // exactly one open → attached
      ev('request', { id: 'b' }),
      ev('interim'), // two open → unattributed
      ev('interim', { id: 'zz' }), // unknown id → unattributed
      ev('terminal', { id: 'a' }),
      ev('terminal', { id: 'b' }),
    ]);
    expect(pairs[0]!.interims).toBe(2);
    expect(pairs[1]!.interims).toBe(0);
    expect(c.interims).toBe(4);
    expect(c.unattributedInterims).toBe(2);
  });

  it('redundant terminals are counted and never take a request', () => {
    const ev = capture();
    const { c, pairs } = run([ev('request'), ev('terminal', { redundant: true }), ev('terminal')]);
    expect(c.redundant).toBe(1);
    expect(pairs).toHaveLength(1);
    expect(c.terminals).toBe(2);
  });

  it('DUPLICATE_ID: both stay open, the oldest is taken first', () => {
    const ev = capture();
    const { pairs, findings, c } = run([ev('request', { id: 'a', caller: 'first' }), ev('request', { id: 'a', caller: 'second' }), ev('terminal', { id: 'a' }), ev('terminal', { id: 'a' })]);
    expect(findings.filter((f) => f.code === 'DUPLICATE_ID')).toHaveLength(1);
    expect(pairs.map((p) => p.request.caller)).toEqual(['first', 'second']);
    expect(c.duplicateIds).toBe(1);
  });

  it('orphan requests at end of input carry their age against the scope’s last event', () => {
    const ev = capture();
    const { orphanReqs, c } = run([ev('request', { time: 100 }), ev('request', { id: 'x', time: 150 }), ev('terminal', { id: 'x', time: 400 })]);
    expect(c.orphanRequests).toBe(1);
    expect(orphanReqs[0]).toMatchObject({ reason: 'end-of-input', ageMs: 300 });
  });

  it('scopes pair independently', () => {
    const ev = capture();
    const { pairs, engine } = run([ev('request', { scope: 'A' }), ev('request', { scope: 'B' }), ev('terminal', { scope: 'B' }), ev('terminal', { scope: 'A' })]);
    expect(pairs.map((p) => p.scope)).toEqual(['B', 'A']);
    expect(pairs.every((p) => p.confidence === 'unambiguous')).toBe(true);
    expect(engine.channels.get('llm')!.scopes.get('A')!.counters.maxInFlight).toBe(1);
  });

  it('ordered channels: the oldest request with an agreeing signature is unambiguous', () => {
    const ev = capture();
    const d = (role: CallEvent['role'], tool: string) => ev(role, { channel: 'decision', sig: [tool] });
    const { pairs } = run([d('request', 'read'), d('request', 'write'), d('terminal', 'read'), d('terminal', 'write')], [ORDERED]);
    expect(pairs.map((p) => [p.method, p.confidence])).toEqual([
      ['signature', 'unambiguous'],
      ['signature', 'unambiguous'],
    ]);
  });

  it('an inherited id is no surer than the pairing it came from', () => {
    const ev = capture();
    const { pairs } = run([ev('request', { id: 'j1', maxConfidence: 'unambiguous' }), ev('terminal', { id: 'j1' })]);
    expect(pairs[0]).toMatchObject({ method: 'id', confidence: 'unambiguous' });
  });

  it('evicts the oldest open request beyond maxOpenCalls as an orphan with reason evicted', () => {
    const ev = capture();
    const { c, orphanReqs } = run([ev('request'), ev('request'), ev('request'), ev('terminal')], [LLM], { maxOpenCalls: 2 });
    expect(c.evicted).toBe(1);
    expect(orphanReqs[0]!.reason).toBe('evicted');
    expect(c.requests).toBe(c.pairs + c.orphanRequests);
  });

  it('crossed: signature-FIFO that respects callers is not crossed where FIFO is', () => {
    const ev = capture();
    const { c } = run([
      ev('request', { id: 'a', sig: ['p', 'm', 'agent'] }),
      ev('request', { id: 'b', sig: ['p', 'm', 'summarizer'] }),
      ev('terminal', { id: 'b', sig: ['p', 'm', 'summarizer'] }),
      ev('terminal', { id: 'a', sig: ['p', 'm', 'agent'] }),
    ]);
    expect(c.crossedFifo).toBe(2);
    expect(c.crossedSignature).toBe(0);
  });

  it('latency is recorded per pair', () => {
    const ev = capture();
    const { pairs, c } = run([ev('request', { time: 1000 }), ev('terminal', { time: 1250 })]);
    expect(pairs[0]!.latencyMs).toBe(250);
    expect(c.latency.stats()).toMatchObject({ count: 1, min: 250, max: 250, p50: 250 });
  });
});
