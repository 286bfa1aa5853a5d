/**
 * RFC 3339 timestamps with 0–9 fraction digits and `Z` or a ±hh:mm offset, to fractional
 * milliseconds since the epoch. Nanoseconds beyond the double's precision are rounded;
 * input order breaks ties. Returns null for anything else.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?([Zz]|[+-]\d{2}:?\d{2})$/;

export function parseTime(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || v.length > 40) return null;
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
