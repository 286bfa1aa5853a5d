import { describe, expect, it } from 'vitest';
import type { CallEvent, ChannelSpec } from '../model.js';
import type { Finding } from '../report/findings.js';
import { PairingEngine } from './engine.js';
// What the test channel means does not matter to the engine (it pairs; reports read the meaning).
import { TEST_MEANING } from './test-meaning.js';

function setup(spec: Partial<ChannelSpec> = {}) {
  const findings: Finding[] = [];
  const engine = new PairingEngine({
    channels: [{ name: 'c', ...TEST_MEANING, ordered: true, signatureFields: ['tool'], ...spec }],
    sink: { finding: (f) => findings.push(f) },
  });
  let line = 0;
  const ev = (role: CallEvent['role'], tool: string | null, extra: Partial<CallEvent> = {}): CallEvent => ({
    role,
    channel: 'c',
    scope: 's',
    id: null,
    sig: [tool],
    time: null,
    caller: 'x',
    attrs: { tool },
    loc: { path: 'p', line: ++line },
    ...extra,
  });
  return { engine, findings, ev };
}

describe('ChannelSpec.signatureRequired', () => {
  it('without it, a terminal sharing no signature takes the oldest request by FIFO', () => {
    const { engine, ev } = setup();
    engine.push(ev('request', 'a'));
    const p = engine.push(ev('terminal', 'b'));
    expect(p?.method).toBe('fifo');
  });

  it('with it, such a terminal is an orphan response and the request stays open', () => {
    const { engine, findings, ev } = setup({ signatureRequired: true });
    engine.push(ev('request', 'a'));
    expect(engine.push(ev('terminal', 'b'))).toBeNull();
    const p = engine.push(ev('terminal', 'a'));
    expect(p?.method).toBe('signature');
    expect(p?.confidence).toBe('unambiguous');
    const st = engine.channels.get('c')!.counters;
    expect(st.orphanResponses).toBe(1);
    expect(st.pairs).toBe(1);
    expect(findings.map((f) => f.code)).toEqual(['ORPHAN_RESPONSE']);
  });

  it('an id joining a conflicting signature is SIGNATURE_CONFLICT and an orphan response, never a pair', () => {
    const { engine, findings, ev } = setup({ signatureRequired: true });
    engine.push(ev('request', 'read_file', { id: 'k1' }));
    expect(engine.push(ev('terminal', 'delete_repo', { id: 'k1' }))).toBeNull();
    const st = engine.channels.get('c')!.counters;
    expect(st.pairs).toBe(0);
    expect(st.orphanResponses).toBe(1);
    expect(findings.map((f) => [f.code, f.severity])).toEqual([
      ['SIGNATURE_CONFLICT', 'error'],
      ['ORPHAN_RESPONSE', 'warning'],
    ]);
    expect(findings[0]!.data).toEqual({ id: 'k1', caller: 'x', field: 'tool', request: 'read_file', terminal: 'delete_repo' });
    expect(findings[0]!.locations.map((l) => l.line)).toEqual([2, 1]);
    // The request stays open: its own terminal still pairs by id.
    expect(engine.push(ev('terminal', 'read_file', { id: 'k1' }))?.method).toBe('id');
  });

  it('under a reused id, the oldest request whose signature agrees is taken; an unknown field conflicts with nothing', () => {
    const { engine, findings, ev } = setup({ signatureRequired: true });
    engine.push(ev('request', 'a', { id: 'k1' }));
    engine.push(ev('request', 'b', { id: 'k1' }));
    const p = engine.push(ev('terminal', 'b', { id: 'k1' }));
    expect([p?.method, p?.request.loc.line]).toEqual(['id', 2]);
    expect(engine.push(ev('terminal', null, { id: 'k1' }))?.request.loc.line).toBe(1);
    expect(findings.map((f) => f.code).filter((c) => c !== 'CROSSED_PAIR')).toEqual(['DUPLICATE_ID']);
  });

  it('without it, an id pairs whatever the signature (a response may name the model more precisely)', () => {
    const { engine, ev } = setup();
    engine.push(ev('request', 'a', { id: 'k1' }));
    expect(engine.push(ev('terminal', 'b', { id: 'k1' }))?.method).toBe('id');
  });
});

describe('ChannelSpec.distinctTerminals', () => {
  it('without it, a terminal reusing a closed id is a DUPLICATE_TERMINAL note', () => {
    const { engine, findings, ev } = setup();
    engine.push(ev('request', 'a', { id: 'k1' }));
    engine.push(ev('terminal', 'a', { id: 'k1' }));
    expect(engine.push(ev('terminal', 'a', { id: 'k1' }))).toBeNull();
    expect(findings.map((f) => f.code)).toEqual(['DUPLICATE_TERMINAL']);
  });

  it('with it, a terminal reusing a closed id is an orphan response (id-already-closed), never absorbed', () => {
    const orphans: string[] = [];
    const { engine, findings, ev } = setup({ distinctTerminals: true });
    (engine as unknown as { sink: { orphanResponse: (o: { reason: string }) => void } }).sink.orphanResponse = (o) => orphans.push(o.reason);
    engine.push(ev('request', 'a', { id: 'k1' }));
    engine.push(ev('terminal', 'a', { id: 'k1' }));
    expect(engine.push(ev('terminal', 'a', { id: 'k1' }))).toBeNull();
    expect(findings.map((f) => f.code)).toEqual(['ORPHAN_RESPONSE']);
    expect(orphans).toEqual(['id-already-closed']);
    const st = engine.channels.get('c')!.counters;
    expect([st.duplicateTerminals, st.orphanResponses]).toEqual([0, 1]);
  });
});

describe('CallEvent.orphanNote', () => {
  it('is carried into the ORPHAN_REQUEST finding of a request never closed', () => {
    const { engine, findings, ev } = setup();
    engine.push(ev('request', 'a', { orphanNote: 'allowed, not observed upstream' }));
    engine.push(ev('request', 'b'));
    engine.finish();
    const data = findings.filter((f) => f.code === 'ORPHAN_REQUEST').map((f) => f.data as { note?: string });
    expect(data[0]!.note).toBe('allowed, not observed upstream');
    expect(data[1]!.note).toBeUndefined();
    expect('note' in data[1]!).toBe(false);
  });
});
