import { describe, expect, it } from 'vitest';
import { isFailed } from '../../model.js';
import { classify, type ReadRecord } from './classify.js';
import { parseProfileSpec, ProfileSpecError } from './spec.js';
import { parseDurationText } from './time.js';

const base = { roles: [{ role: 'request', when: { has: 'q' } }, { role: 'terminal', when: { has: 'a' } }] };

describe('paths per role', () => {
  it('each role reads its own id, time, scope and signature paths; the others read the profile\'s', () => {
    const spec = parseProfileSpec({
      roles: [
        { role: 'request', when: { has: 'q' }, id: 'id', signature: ['name'] },
        { role: 'terminal', when: { has: 'a' }, id: 'cause', time: { path: 't', unit: 's' }, scope: 'conv', signature: [null] },
      ],
      signature: ['tool'],
      time: 'ts',
      scope: 'session',
    });
    const req = classify(spec, { q: 1, id: 'x1', name: 'read', tool: 'other', ts: '2026-01-01T00:00:00Z', session: 's' }, 'f') as ReadRecord;
    const res = classify(spec, { a: 1, cause: 'x1', tool: 'read', t: 1767225601, conv: 's' }, 'f') as ReadRecord;
    expect([req.id, req.sig, req.scope, req.time]).toEqual([{ kind: 'valid', key: 'x1', label: 'x1' }, ['read'], 's', Date.UTC(2026, 0, 1)]);
    expect([res.id, res.sig, res.scope, res.time]).toEqual([{ kind: 'valid', key: 'x1', label: 'x1' }, [null], 's', Date.UTC(2026, 0, 1) + 1000]);
  });

  it('a role signature names one path per profile signature field', () => {
    expect(() => parseProfileSpec({ ...base, signature: ['a', 'b'], roles: [{ role: 'request', when: { has: 'q' }, signature: ['x'] }, base.roles[1]] })).toThrow(
      'profile: roles[0].signature: expected one path (or null) per field of the profile\'s "signature", in its order',
    );
    expect(() => parseProfileSpec({ ...base, roles: [{ role: 'request', when: { has: 'q' }, ids: 'x' }, base.roles[1]] })).toThrow(ProfileSpecError);
  });

  it('$. paths read the value the records sit in; composite ids key by their leading parts', () => {
    const spec = parseProfileSpec({ ...base, records: 'calls[]', scope: '$.session', id: { parts: ['conn', 'id'] } });
    const r = classify(spec, { q: 1, conn: 'c7', id: '9' }, 'f', { session: 'S', calls: [] }) as ReadRecord;
    expect(r.id).toEqual({ kind: 'valid', key: '"c7"/9', label: '9 (c7)' });
    expect(r.scope).toBe('S c7');
    expect(() => parseProfileSpec({ ...base, records: '$.calls[]' })).toThrow('profile: records: expected a path inside each value (not "$")');
  });
});

describe('times and statuses', () => {
  it('sums of parts, alternatives tried in order, and the field named when none reads', () => {
    const spec = parseProfileSpec({ ...base, time: { any: [{ sum: [{ path: 't.s', unit: 's' }, { path: 't.ms', unit: 'ms' }] }, { path: 'ts', unit: 's' }, 'ts'] } });
    const at = (rec: object) => classify(spec, { q: 1, ...rec }, 'f') as ReadRecord;
    expect(at({ t: { s: 1625686222, ms: 500 } }).time).toBe(1625686222500);
    expect(at({ ts: 1625686222 }).time).toBe(1625686222000);
    expect(at({ ts: '2021-07-07T19:30:22.5Z' }).time).toBe(1625686222500);
    expect(at({ ts: 'yesterday' })).toMatchObject({ time: null, unreadableFields: ['time'] });
    // A sum missing a later part is no time (never a guess).
    expect(at({ t: { s: 1625686222 } })).toMatchObject({ time: null, unreadableFields: ['time'] });
    expect(at({})).toMatchObject({ time: null, unreadableFields: [] });
  });

  it('a unit makes an ISO string unreadable unless an alternative reads it', () => {
    const spec = parseProfileSpec({ ...base, time: { path: 'ts', unit: 'ms' } });
    expect(classify(spec, { q: 1, ts: '2021-07-07T19:30:22Z' }, 'f')).toMatchObject({ time: null, unreadableFields: ['time'] });
  });

  it('text durations carry their unit; a time of day or a compound is not one', () => {
    expect([parseDurationText('208ms'), parseDurationText('1.5s'), parseDurationText('3 min'), parseDurationText('40us')]).toEqual([208, 1500, 180_000, 0.04]);
    expect([parseDurationText('1h30m'), parseDurationText('208'), parseDurationText('12:30:00'), parseDurationText(208)]).toEqual([null, null, null, null]);
  });

  it('failed.status takes booleans and numbers, compared with the status as the record writes it', () => {
    const spec = parseProfileSpec({ ...base, status: 'ok', failed: { status: [false, 0] } });
    const meaning = { failure: spec.failure };
    const status = (ok: unknown) => (classify(spec, { a: 1, ok }, 'f') as ReadRecord).status;
    expect(isFailed(meaning, { status: status(false) })).toBe(true);
    expect(isFailed(meaning, { status: status(0) })).toBe(true);
    expect(isFailed(meaning, { status: status(true) })).toBe(false);
    expect(() => parseProfileSpec({ ...base, failed: { status: [{}] } })).toThrow('profile: failed.status: expected an array of strings, numbers or booleans');
  });
});
