import { describe, expect, it } from 'vitest';
import { guessEpochUnit, parseEpoch, parseRfc3339, parseTimeAs, parseTimeLoose } from './time.js';

const BASE = Date.UTC(2025, 9, 23, 22, 20, 24); // 2025-10-23T22:20:24Z

describe('time parsing', () => {
  it('reads RFC 3339 with a zone, and without one as UTC flagged naive', () => {
    expect(parseRfc3339('2025-10-23T22:20:24Z')).toEqual({ ms: BASE, naive: false });
    expect(parseRfc3339('2025-10-24T00:20:24+02:00')).toEqual({ ms: BASE, naive: false });
    const naive = parseRfc3339('2025-10-23T22:20:24.203201');
    expect(naive?.naive).toBe(true);
    expect(naive?.ms).toBeCloseTo(BASE + 203.201, 6);
    expect(parseRfc3339('2025-10-23 22:20:24')).toEqual({ ms: BASE, naive: true });
    expect(parseRfc3339('2025-13-23T22:20:24Z')).toBeNull();
    // Calendar-invalid times are unreadable, never normalised; years 0000–0099 are themselves.
    for (const bad of ['2026-02-30T00:00:00Z', '2026-01-01T24:00:00', '2026-01-01T00:00:00+25:00', '2026-04-31T12:00:00.5']) expect([bad, parseRfc3339(bad)]).toEqual([bad, null]);
    expect(new Date(parseRfc3339('0042-06-01T00:00:00Z')!.ms).getUTCFullYear()).toBe(42);
    expect(parseRfc3339('2025-10-23')).toBeNull();
    expect(parseRfc3339(1761258024)).toBeNull();
  });

  it('reads epoch s/ms/µs/ns as numbers or numeric strings, in the stated unit', () => {
    expect(parseEpoch(1761258024, 's')).toBe(BASE);
    expect(parseEpoch('1761258024.5', 's')).toBe(BASE + 500);
    expect(parseEpoch(1761258024203, 'ms')).toBe(BASE + 203);
    expect(parseEpoch('1761258024203201', 'us')).toBeCloseTo(BASE + 203.201, 6);
    expect(parseEpoch('1761258024203201000', 'ns')).toBeCloseTo(BASE + 203.201, 6);
    expect(parseEpoch('12abc', 'ms')).toBeNull();
    expect(parseEpoch(Number.NaN, 'ms')).toBeNull();
    expect(parseEpoch(null, 's')).toBeNull();
  });

  it('keeps microsecond differences of OTel nanosecond strings', () => {
    const a = parseEpoch('1761258024203201000', 'ns')!;
    const b = parseEpoch('1761258026043201500', 'ns')!;
    expect(b - a).toBeCloseTo(1840.0005, 3);
  });

  it('gives the same latency for every encoding of the same two instants', () => {
    const encodings: Array<[unknown, unknown, Parameters<typeof parseTimeAs>[1]]> = [
      [1761258024.203, 1761258026.043, { kind: 'epoch', unit: 's' }],
      [1761258024203, 1761258026043, { kind: 'epoch', unit: 'ms' }],
      ['1761258024203000000', '1761258026043000000', { kind: 'epoch', unit: 'ns' }],
      ['2025-10-23T22:20:24.203', '2025-10-23T22:20:26.043', { kind: 'rfc3339' }],
      ['2025-10-23T22:20:24.203Z', '2025-10-23T22:20:26.043+00:00', { kind: 'rfc3339' }],
    ];
    for (const [a, b, f] of encodings) {
      const d = parseTimeAs(b, f)!.ms - parseTimeAs(a, f)!.ms;
      expect(Math.round(d * 1000) / 1000).toBe(1840);
    }
  });

  it('guesses an epoch unit by magnitude only for built-in wrapper times', () => {
    expect(guessEpochUnit(1761258024)).toBe('s');
    expect(guessEpochUnit(1761258024203)).toBe('ms');
    expect(guessEpochUnit(1761258024203201)).toBe('us');
    expect(guessEpochUnit(1761258024203201000)).toBe('ns');
    expect(guessEpochUnit(42)).toBeNull();
    expect(parseTimeLoose('1761258024203')?.ms).toBe(BASE + 203);
    expect(parseTimeLoose('2025-10-23T22:20:24')).toEqual({ ms: BASE, naive: true });
    expect(parseTimeLoose(true)).toBeNull();
  });
});
