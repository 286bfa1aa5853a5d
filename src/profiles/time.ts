/**
 * RFC 3339 timestamps with 0–9 fraction digits and `Z` or a ±hh:mm offset, to fractional
 * milliseconds since the epoch. Nanoseconds beyond the double's precision are rounded;
 * input order breaks ties. Returns null for anything else, a calendar-invalid time included
 * (2026-02-30, month 13, 24:00, offset +25:00): an unreadable time (docs/design.md §2).
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?([Zz]|[+-]\d{2}:?\d{2})$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Milliseconds of a UTC civil time whose fields RFC 3339 allows (docs/design.md §2), else null:
 * a year 0000–9999 read as itself (Date.UTC would read 0–99 as 1900–1999; setUTCFullYear does
 * not), a month 1–12, a day that exists in that month (proleptic Gregorian leap years), an hour
 * 0–23, a minute 0–59 and a second 0–60 (60: a leap second, counted as the next minute's :00).
 * Nothing is normalised: 2026-02-30 or 24:00 is an unreadable time, not another day.
 */
export function civilUtcMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number | null {
  if (!(y >= 0 && y <= 9999) || !(mo >= 1 && mo <= 12) || !(d >= 1) || !(h >= 0 && h <= 23) || !(mi >= 0 && mi <= 59) || !(s >= 0 && s <= 60)) return null;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1]!)) return null;
  if (y >= 100) return Date.UTC(y, mo - 1, d, h, mi, s);
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, s, 0);
  return t.getTime();
}

/** A ±hh:mm offset in milliseconds when RFC 3339 allows it (hours 00–23, minutes 00–59), else null. */
export function offsetMs(sign: number, hh: number, mm: number): number | null {
  if (!(hh >= 0 && hh <= 23) || !(mm >= 0 && mm <= 59)) return null;
  return sign * (hh * 60 + mm) * 60_000;
}

/** Two ASCII digits at `i` as a number, or -1. */
function d2(v: string, i: number): number {
  const a = v.charCodeAt(i) - 48;
  const b = v.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * The last time of year 9999 a double holds: 10000-01-01T00:00:00Z less one step (1/32 ms at that
 * size). The top of the time range (docs/design.md §2).
 */
export const LAST_TIME_MS = 253_402_300_800_000 - 2 ** -5;

/**
 * A time of whole milliseconds `whole` plus the fraction `frac` (< 1 ms), in one rounding. Past
 * year 6429 a double holds 1/32 ms, so `.999999` of the last millisecond of year 9999 would round
 * into year 10000: it is the last time a double holds in year 9999 instead.
 */
function plusFraction(whole: number, frac: number): number {
  const t = whole + frac;
  return t > LAST_TIME_MS && whole < LAST_TIME_MS ? LAST_TIME_MS : t;
}

/** 10^n, n ≤ 9: exact doubles. */
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/** The last minute seen and its value (civilUtcMs, null when invalid): consecutive lines share it. */
let lastKey = -1;
let lastMinute: number | null = 0;

/**
 * The common shape without a regex, substrings or a Date.UTC per call, giving exactly the number
 * the regex path gives: civilUtcMs (Date.UTC) is linear in its seconds (integer milliseconds, exact below 2^53),
 * so the minute's value plus seconds × 1000 is the same number; and F / 10^n (both exact, one
 * correctly rounded division) is the same double as parsing "0.F" (correctly rounded). Anything
 * unusual returns undefined and takes the regex.
 */
function fast(v: string): number | null | undefined {
  const n = v.length;
  if (n < 20 || v.charCodeAt(4) !== 45 || v.charCodeAt(7) !== 45 || v.charCodeAt(13) !== 58 || v.charCodeAt(16) !== 58) return undefined;
  const t = v.charCodeAt(10);
  if (t !== 84 && t !== 116 && t !== 32) return undefined;
  const y1 = d2(v, 0);
  const y2 = d2(v, 2);
  const mo = d2(v, 5);
  const d = d2(v, 8);
  const h = d2(v, 11);
  const mi = d2(v, 14);
  const se = d2(v, 17);
  if ((y1 | y2 | mo | d | h | mi | se) < 0) return undefined;
  let i = 19;
  let frac = 0;
  const c = v.charCodeAt(i);
  if (c === 46 || c === 44) {
    let j = i + 1;
    let f = 0;
    while (j < n && j - i <= 9) {
      const x = v.charCodeAt(j) - 48;
      if (x < 0 || x > 9) break;
      f = f * 10 + x;
      j++;
    }
    if (j === i + 1) return undefined;
    frac = (f / POW10[j - i - 1]!) * 1000;
    i = j;
  }
  let off: number | null = 0;
  const z = v.charCodeAt(i);
  if (z === 90 || z === 122) {
    if (i + 1 !== n) return undefined;
  } else if (z === 43 || z === 45) {
    const oh = d2(v, i + 1);
    const colon = v.charCodeAt(i + 3) === 58 ? 1 : 0;
    const om = d2(v, i + 3 + colon);
    if (oh < 0 || om < 0 || i + 5 + colon !== n) return undefined;
    off = offsetMs(z === 45 ? -1 : 1, oh, om);
  } else return undefined;
  if (off === null || se > 60) return null;
  // Year, month, day, hour, minute as one key (each field < 100).
  const key = ((((y1 * 100 + y2) * 100 + mo) * 100 + d) * 100 + h) * 100 + mi;
  if (key !== lastKey) {
    lastMinute = civilUtcMs(y1 * 100 + y2, mo, d, h, mi, 0);
    lastKey = key;
  }
  if (lastMinute === null) return null;
  return plusFraction(lastMinute + se * 1000 - off, frac);
}

export function parseTime(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || v.length > 40) return null;
  const f = fast(v);
  if (f !== undefined) return f;
  return parseTimeRegex(v);
}

/** The reference path (every shape the fast path declines); exported so a test compares the two. */
export function parseTimeRegex(v: string): number | null {
  const m = RFC3339.exec(v);
  if (!m) return null;
  const ms = civilUtcMs(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (ms === null) return null;
  const frac = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
  let off: number | null = 0;
  const z = m[8]!;
  if (z !== 'Z' && z !== 'z') {
    const digits = z.slice(1).replace(':', '');
    off = offsetMs(z[0] === '-' ? -1 : 1, Number(digits.slice(0, 2)), Number(digits.slice(2, 4)));
  }
  return off === null ? null : plusFraction(ms - off, frac);
}
