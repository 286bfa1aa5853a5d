/**
 * `pairs` prints times with microseconds (src/compare/pairs.ts isoTime): the microsecond nearest the
 * double's exact value, for every year 0000–9999 (microseconds since the epoch pass 2^53 after 2255).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from './pairs.js';

/** The double's exact value in microseconds, rounded half up, with BigInt arithmetic. */
function exactMicros(ms: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, ms);
  const bits = view.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  if (e !== 0) m |= 1n << 52n;
  const exp = (e === 0 ? 1 : e) - 1075;
  let num = (bits >> 63n ? -m : m) * 1000n;
  let den = 1n;
  if (exp >= 0) num <<= BigInt(exp);
  else den <<= BigInt(-exp);
  let q = num / den;
  let r = num % den;
  if (r < 0n) {
    q -= 1n;
    r += den;
  }
  return 2n * r >= den ? q + 1n : q;
}

function reference(ms: number): string {
  const us = exactMicros(ms);
  const floorMs = us >= 0n ? us / 1000n : -((-us + 999n) / 1000n);
  const frac = ((us % 1_000_000n) + 1_000_000n) % 1_000_000n;
  return `${new Date(Number(floorMs)).toISOString().slice(0, 19)}.${String(frac).padStart(6, '0')}Z`;
}

describe('isoTime', () => {
  it('prints the microsecond nearest the exact time, in any year 0000–9999', () => {
    const ms = fc.double({ min: -62_167_219_200_000, max: 253_402_300_799_999, noNaN: true });
    fc.assert(
      fc.property(ms, (t) => {
        expect(isoTime(t)).toBe(reference(t));
      }),
      { numRuns: 5000 },
    );
  });

  it('after 2255 and with nanosecond fractions today', () => {
    expect(isoTime(Date.UTC(2300, 0, 1) + 123.5)).toBe('2300-01-01T00:00:00.123500Z');
    expect(isoTime(Date.UTC(9999, 11, 31, 23, 59, 59) + 999.5)).toBe('9999-12-31T23:59:59.999500Z');
    expect(isoTime(Date.UTC(2026, 9, 1, 8) + 0.9996)).toBe('2026-10-01T08:00:00.001000Z');
    expect(isoTime(Date.UTC(2026, 9, 1, 8) + 0.0004)).toBe('2026-10-01T08:00:00.000000Z');
    expect(isoTime(null)).toBeNull();
  });
});
