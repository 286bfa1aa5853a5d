/**
 * RFC 3339 timestamps with 0–9 fraction digits and `Z` or a ±hh:mm offset, to fractional
 * milliseconds since the epoch. Nanoseconds beyond the double's precision are rounded;
 * input order breaks ties. Returns null for anything else.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?([Zz]|[+-]\d{2}:?\d{2})$/;

/** Two ASCII digits at `i` as a number, or -1. */
function d2(v: string, i: number): number {
  const a = v.charCodeAt(i) - 48;
  const b = v.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** 10^n, n ≤ 9: exact doubles. */
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/** The last minute seen and its Date.UTC value: consecutive lines share it. */
let lastKey = -1;
let lastMinute = 0;

/**
 * The common shape without a regex, substrings or a Date.UTC per call, giving exactly the number
 * the regex path gives: Date.UTC is linear in its seconds (integer milliseconds, exact below 2^53),
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
  let off = 0;
  const z = v.charCodeAt(i);
  if (z === 90 || z === 122) {
    if (i + 1 !== n) return undefined;
  } else if (z === 43 || z === 45) {
    const oh = d2(v, i + 1);
    const colon = v.charCodeAt(i + 3) === 58 ? 1 : 0;
    const om = d2(v, i + 3 + colon);
    if (oh < 0 || om < 0 || i + 5 + colon !== n) return undefined;
    off = (z === 45 ? -1 : 1) * (oh * 60 + om) * 60_000;
  } else return undefined;
  // Year, month, day, hour, minute as one key (each field < 100).
  const key = ((((y1 * 100 + y2) * 100 + mo) * 100 + d) * 100 + h) * 100 + mi;
  if (key !== lastKey) {
    lastMinute = Date.UTC(y1 * 100 + y2, mo - 1, d, h, mi, 0);
    lastKey = key;
  }
  if (Number.isNaN(lastMinute)) return null;
  return lastMinute + se * 1000 + frac - off;
}

export function parseTime(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || v.length > 40) return null;
  const f = fast(v);
  if (f !== undefined) return f;
  const m = RFC3339.exec(v);
  if (!m) return null;
  const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (Number.isNaN(ms)) return null;
  const frac = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
  let off = 0;
  const z = m[8]!;
  if (z !== 'Z' && z !== 'z') {
    const sign = z[0] === '-' ? -1 : 1;
    const digits = z.slice(1).replace(':', '');
    off = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  return ms + frac - off;
}
