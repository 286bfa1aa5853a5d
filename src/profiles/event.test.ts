import { describe, expect, it } from 'vitest';
import type { ChannelSpec } from '../model.js';
import type { Finding } from '../report/findings.js';
import { clipText } from './clip.js';
import { checkId, makeEvent } from './event.js';

const base = { rowLabel: 'method', attribution: 'caller', groupLabels: ['method'], failure: { kind: 'error-present' } } as const;
const CORR: ChannelSpec = { name: 'c', ...base, idKind: 'correlation', ordered: false, signatureFields: ['a'] };
const PROTO: ChannelSpec = { name: 'p', ...base, idKind: 'protocol', ordered: false, signatureFields: [] };
const loc = { path: 'x', line: 1 };

function make(spec: ChannelSpec, over: Record<string, unknown> = {}) {
  const findings: Finding[] = [];
  const ev = makeEvent(spec, { role: 'request', scope: 's', id: null, sig: null, time: null, caller: 'c', attrs: {}, loc, ...over }, { finding: (f) => findings.push(f) });
  return { ev, findings };
}

describe('makeEvent', () => {
  it('clips every kept string with the one clip rule', () => {
    const long = 'x'.repeat(5000);
    const { ev } = make(CORR, { scope: long, caller: long, sig: [long], attrs: { provider: long, model: long, status: long, error: long, tool: long } });
    const c = clipText(long);
    expect(c.length).toBeLessThan(1100);
    expect([ev.scope, ev.caller, ev.sig![0], ev.attrs.provider, ev.attrs.model, ev.attrs.status, ev.attrs.error, ev.attrs.tool]).toEqual(Array(8).fill(c));
    expect(make(CORR, { scope: 42 }).ev.scope).toBe('42');
    expect(make(CORR, { scope: { a: 1 } }).ev.scope).toBe('');
  });

  it('clipping is idempotent (a clipped string is kept as is)', () => {
    const c = clipText('y'.repeat(3000));
    expect(clipText(c)).toBe(c);
    expect(make(CORR, { scope: c }).ev.scope).toBe(c);
  });

  it('applies the safe-shape rule to correlation ids and records INVALID_ID', () => {
    expect(make(CORR, { id: { field: 'rid', value: 'abc-1' } }).ev.id).toBe('abc-1');
    const bad = make(CORR, { id: { field: 'rid', value: 'a b\u001b' } });
    expect(bad.ev.id).toBeNull();
    expect(bad.findings).toMatchObject([{ code: 'INVALID_ID', channel: 'c', data: { field: 'rid', reason: 'bad-characters' } }]);
    expect(make(CORR, { id: { field: 'rid', value: 9 } }).findings[0]).toMatchObject({ data: { reason: 'not-a-string' } });
  });

  it('types protocol ids: 9 and "9" are different keys, both valid', () => {
    const n = make(PROTO, { id: { field: 'id', value: 9 } }).ev;
    const s = make(PROTO, { id: { field: 'id', value: '9' } }).ev;
    expect(n.id).not.toBeNull();
    expect(s.id).not.toBeNull();
    expect(n.id).not.toBe(s.id);
    expect(n.idLabel).toBe('9');
    expect(s.idLabel).toBe('"9"');
    expect(checkId('protocol', 'id', 'a b').kind).toBe('valid');
    expect(checkId('protocol', 'id', null).kind).toBe('none');
    const bad = make(PROTO, { id: { field: 'id', value: { x: 1 } } });
    expect(bad.ev.id).toBeNull();
    expect(bad.findings).toMatchObject([{ code: 'INVALID_ID', channel: 'p' }]);
  });
});

describe('protocol ids are shown by their label everywhere', () => {
  it('"" is no id under both id kinds', () => {
    expect(checkId('protocol', 'id', '').kind).toBe('none');
    expect(checkId('correlation', 'id', '').kind).toBe('none');
  });
});
