import { describe, expect, it } from 'vitest';
import { checkCorrelationId, isSafeId } from './ids.js';

describe('the safe-shape rule', () => {
  it('accepts uuids, hex and base64url up to 128 chars', () => {
    expect(isSafeId('620c068b-044d-4b18-a100-332479278b82')).toBe(true);
    expect(isSafeId('a'.repeat(128))).toBe(true);
    expect(isSafeId('AbC_-09')).toBe(true);
  });
  it('null, absent and "" mean no id', () => {
    expect(checkCorrelationId('request_id', null).kind).toBe('none');
    expect(checkCorrelationId('request_id', undefined).kind).toBe('none');
    expect(checkCorrelationId('request_id', '').kind).toBe('none');
  });
  it('anything else is invalid, with reason, length and a hash prefix, never the value', () => {
    const cases: Array<[unknown, string]> = [
      [42, 'not-a-string'],
      [{ a: 1 }, 'not-a-string'],
      ['a'.repeat(129), 'too-long'],
      ['has space', 'bad-characters'],
      ['\u001b[31mred', 'bad-characters'],
      ['id\u202e', 'bad-characters'],
    ];
    for (const [v, reason] of cases) {
      const r = checkCorrelationId('request_id', v);
      expect(r.kind).toBe('invalid');
      if (r.kind !== 'invalid') continue;
      expect(r.info.reason).toBe(reason);
      expect(r.info.sha256).toMatch(/^[0-9a-f]{12}$/);
      expect(JSON.stringify(r.info)).not.toContain(typeof v === 'string' ? v : JSON.stringify(v));
    }
  });
});
