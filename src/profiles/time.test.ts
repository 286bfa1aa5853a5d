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
  it('rejects anything else', () => {
    expect(parseTime('yesterday')).toBeNull();
    expect(parseTime('2026-08-05')).toBeNull();
    expect(parseTime(null)).toBeNull();
    expect(parseTime({})).toBeNull();
    expect(parseTime('2026-08-05T15:23:15.1234567890Z')).toBeNull();
  });
});
