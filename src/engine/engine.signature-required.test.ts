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

  it('still pairs by id whatever the signature', () => {
    const { engine, ev } = setup({ signatureRequired: true });
    engine.push(ev('request', 'a', { id: 'k1' }));
    expect(engine.push(ev('terminal', 'b', { id: 'k1' }))?.method).toBe('id');
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
