import { describe, expect, it } from 'vitest';
import { NUMBER_RANGES } from './event.js';
import { parseTime, parseTimeRegex } from './time.js';

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
      samples.push(`${String(rnd(10000)).padStart(4, '0')}-${p2(rnd(14))}-${p2(rnd(33))}T${p2(rnd(26))}:${p2(rnd(61))}:${p2(rnd(62))}${fr}${['Z', '+25:00', '-23:59', '+0060'][rnd(4)]!}`);
    }
    for (const s of samples) expect([s, parseTime(s)]).toEqual([s, parseTimeRegex(s)]);
    // The regex path is the reference: a sample it reads gives the number its fields make.
    expect(parseTimeRegex('2026-08-05T15:23:15,5+01:30')).toBe(Date.UTC(2026, 7, 5, 13, 53, 15, 500));
  });
  it('rejects anything else', () => {
    expect(parseTime('yesterday')).toBeNull();
    expect(parseTime('2026-08-05')).toBeNull();
    expect(parseTime(null)).toBeNull();
    expect(parseTime({})).toBeNull();
    expect(parseTime('2026-08-05T15:23:15.1234567890Z')).toBeNull();
  });
  it('reads the years 0000–0099 as themselves, never as 1900–1999 (docs/design.md §2)', () => {
    expect(parseTime('0000-01-01T00:00:00Z')).toBe(NUMBER_RANGES.time.min);
    expect(parseTime('9999-12-31T23:59:59.999Z')).toBe(Math.floor(NUMBER_RANGES.time.max));
    expect(new Date(parseTime('0050-03-01T12:00:00Z')!).toISOString()).toBe('0050-03-01T12:00:00.000Z');
    expect(new Date(parseTime('0099-12-31T23:59:59+00:00')!).getUTCFullYear()).toBe(99);
    expect(parseTimeRegex('0050-03-01T12:00:00Z')).toBe(parseTime('0050-03-01T12:00:00Z'));
  });
  it('rejects a calendar-invalid time on both paths (an unreadable time, never normalised)', () => {
    for (const s of [
      '2026-02-30T00:00:00Z', '2025-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-13-01T00:00:00Z', '2026-00-10T00:00:00Z',
      '2026-01-00T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T23:60:00Z', '2026-01-01T23:59:61Z', '2026-01-01T00:00:00+25:00',
      '2026-01-01T00:00:00-00:60', '2026-01-01T00:00:00+2400', '1900-02-29T00:00:00Z',
    ]) {
      expect([s, parseTime(s)]).toEqual([s, null]);
      expect([s, parseTimeRegex(s)]).toEqual([s, null]);
    }
    // Valid edges: leap days, a leap second, the widest offsets.
    expect(parseTime('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
    expect(parseTime('2000-02-29T00:00:00Z')).toBe(Date.UTC(2000, 1, 29));
    expect(parseTime('0000-02-29T00:00:00Z')).not.toBeNull();
    expect(parseTime('2016-12-31T23:59:60Z')).toBe(Date.UTC(2017, 0, 1));
    expect(parseTime('2026-01-01T00:00:00+23:59')).toBe(Date.UTC(2026, 0, 1) - (23 * 60 + 59) * 60_000);
  });
});

describe('the last microseconds of year 9999', () => {
  it('stay in year 9999 (a double holds 1/32 ms there): the top of the time range, not OUT_OF_RANGE', async () => {
    const { LAST_TIME_MS } = await import('./time.js');
    const { NUMBER_RANGES } = await import('./event.js');
    for (const v of ['9999-12-31T23:59:59.999999Z', '9999-12-31T23:59:59.999999999Z', '9999-12-31 23:59:59,9999999Z', '9999-12-31T22:59:59.9999999-01:00']) {
      expect(parseTime(v)).toBe(LAST_TIME_MS);
      expect(parseTimeRegex(v)).toBe(LAST_TIME_MS);
    }
    expect(parseTime('9999-12-31T23:59:59.5Z')).toBe(Date.UTC(9999, 11, 31, 23, 59, 59) + 500);
    expect(parseTime('9999-12-31T23:59:59.5Z')! <= NUMBER_RANGES.time.max).toBe(true);
    expect(LAST_TIME_MS).toBe(NUMBER_RANGES.time.max);
    // Past the end by an offset: year 10000 in UTC, out of range as before.
    expect(parseTime('9999-12-31T23:59:59.5-01:00')! > NUMBER_RANGES.time.max).toBe(true);
  });
});
