import { describe, expect, it } from 'vitest';
import { parseTime } from './time.js';

describe('parseTime', () => {
  it('reads 0–9 fraction digits, Z and offsets', () => {
    const base = Date.UTC(2026, 7, 5, 15, 23, 15);
    expect(parseTime('2026-08-05T15:23:15Z')).toBe(base);
    expect(parseTime('2026-08-05T15:23:15.6Z')).toBeCloseTo(base + 600, 6);
    expect(parseTime('2026-08-05T15:23:15.602291+00:00')).toBeCloseTo(base + 602.291, 3);
    expect(parseTime('2026-08-05T15:23:15.602291443+00:00')).toBeCloseTo(base + 602.291443, 3);
    expect(parseTime('2026-08-05T17:23:15+02:00')).toBe(base);
    expect(parseTime('2026-08-05T10:23:15-0500')).toBe(base);
  });
  it('gives the regex path\'s exact number on its fast path', () => {
    const samples = [
      '2026-08-05T15:23:15Z', '2026-08-05t15:23:15z', '2026-08-05 15:23:15.1Z', '2026-08-05T15:23:15,5+01:30', '2026-08-05T15:23:15.602291443-0930',
      '1999-12-31T23:59:59.999999+00:00', '2026-02-30T25:61:61Z', '2026-08-05T15:23:15.Z', '2026-08-05T15:23:15+1:00', '2026-08-05T15:23:15+01:00x',
      '2026-08-05T15:23:15.0000000001Z', '０２026-08-05T15:23:15Z', '2026-08-05T15:23:15.123456789012Z',
      '0050-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999Z', '2026-08-05T15:23:99.3Z', '2026-08-05T15:23:16.000000001Z',
    ];
    // Random ones too, several in the same minute (the fast path caches the minute).
    let seed = 7;
    const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % k);
    const p2 = (x: number) => String(x).padStart(2, '0');
    for (let k = 0; k < 3000; k++) {
      const fr = rnd(3) === 0 ? '' : `.${String(rnd(1e9)).padStart(9, '0').slice(0, 1 + rnd(9))}`;
      const zone = ['Z', '+00:00', '-05:30', '+0200'][rnd(4)]!;
      samples.push(`${1970 + rnd(80)}-${p2(1 + rnd(12))}-${p2(1 + rnd(28))}T${p2(rnd(24))}:${p2(rnd(3))}:${p2(rnd(60))}${fr}${zone}`);
    }
    const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?([Zz]|[+-]\d{2}:?\d{2})$/;
    for (const s of samples) {
      const m = RFC3339.exec(s);
      let want: number | null = null;
      if (m) {
        const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
        const frac = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
        const z = m[8]!;
        let off = 0;
        if (z !== 'Z' && z !== 'z') {
          const digits = z.slice(1).replace(':', '');
          off = (z[0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
        }
        want = ms + frac - off;
      }
      expect([s, parseTime(s)]).toEqual([s, want]);
    }
  });
  it('rejects anything else', () => {
    expect(parseTime('yesterday')).toBeNull();
    expect(parseTime('2026-08-05')).toBeNull();
    expect(parseTime(null)).toBeNull();
    expect(parseTime({})).toBeNull();
    expect(parseTime('2026-08-05T15:23:15.1234567890Z')).toBeNull();
  });
});
