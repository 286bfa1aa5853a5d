/**
 * Times as captures write them (docs/profiles.md, "Times"):
 * - RFC 3339 with a zone (`2026-08-05T15:23:15.602Z`, `…+02:00`), 0–9 fraction digits; a
 *   calendar-invalid one (2026-02-30, 24:00, +25:00) is unreadable, years 0000–0099 are themselves;
 * - the same without a zone (Python's naive `isoformat()`: `2025-10-23T22:20:24.203201`), read as
 *   UTC and flagged `naive` so the report can say so once;
 * - epoch seconds, milliseconds, microseconds or nanoseconds, as JSON numbers or numeric strings
 *   (OTel writes `"1700000000123456789"`), with the unit stated, never guessed — except by
 *   `guessEpochUnit`, which built-in profiles use for wrapper times of known magnitude.
 *
 * Results are fractional milliseconds since the Unix epoch. Nanosecond strings are split into
 * whole milliseconds and a remainder, so differences of nanosecond times keep microsecond
 * precision (a double holds ~15.9 significant digits; 1.7e18 ns does not fit exactly).
 */

import { civilUtcMs, offsetMs } from '../time.js';

export type EpochUnit = 's' | 'ms' | 'us' | 'ns';
export const EPOCH_UNITS: readonly EpochUnit[] = ['s', 'ms', 'us', 'ns'];

/** How a time field is read: `rfc3339` (zone optional), or epoch numbers in one unit. */
export type TimeFormat = { kind: 'rfc3339' } | { kind: 'epoch'; unit: EpochUnit };

export interface ParsedTime {
  /** Milliseconds since the epoch (fractional). */
  ms: number;
  /** An RFC 3339 time without a zone, read as UTC. */
  naive: boolean;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?([Zz]|[+-]\d{2}:?\d{2})?$/;

/** RFC 3339 / ISO 8601 date-time, zone optional. */
export function parseRfc3339(v: unknown): ParsedTime | null {
  if (typeof v !== 'string' || v.length > 40) return null;
  const m = RFC3339.exec(v);
  if (!m) return null;
  // The one calendar rule (../time.ts): years 0000–9999 as themselves, nothing normalised.
  const ms = civilUtcMs(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (ms === null) return null;
  const frac = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
  const z = m[8];
  let off: number | null = 0;
  if (z !== undefined && z !== 'Z' && z !== 'z') {
    const digits = z.slice(1).replace(':', '');
    off = offsetMs(z[0] === '-' ? -1 : 1, Number(digits.slice(0, 2)), Number(digits.slice(2, 4)));
  }
  if (off === null) return null;
  return { ms: ms + frac - off, naive: z === undefined };
}

const NUMERIC = /^-?\d{1,25}(?:\.\d{1,12})?$/;
const FACTOR: Record<EpochUnit, number> = { s: 1000, ms: 1, us: 1e-3, ns: 1e-6 };

/** Epoch time in `unit`, from a finite number or a numeric string; null otherwise. */
export function parseEpoch(v: unknown, unit: EpochUnit): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v * FACTOR[unit] : null;
  if (typeof v !== 'string' || !NUMERIC.test(v)) return null;
  const neg = v.startsWith('-');
  const body = neg ? v.slice(1) : v;
  const dot = body.indexOf('.');
  const int = dot === -1 ? body : body.slice(0, dot);
  const frac = dot === -1 ? '' : body.slice(dot);
  let ms: number;
  if ((unit === 'ns' || unit === 'us') && int.length > 9) {
    // Whole milliseconds from the leading digits, the rest as a fraction: exact to the sub-µs.
    const cut = unit === 'ns' ? 6 : 3;
    const head = int.slice(0, int.length - cut);
    const tail = int.slice(int.length - cut) + frac;
    ms = Number(head) + Number(tail) / (unit === 'ns' ? 1e6 : 1e3);
  } else {
    ms = Number(body) * FACTOR[unit];
  }
  if (!Number.isFinite(ms)) return null;
  return neg ? -ms : ms;
}

export function parseTimeAs(v: unknown, format: TimeFormat): ParsedTime | null {
  if (format.kind === 'rfc3339') return parseRfc3339(v);
  const ms = parseEpoch(v, format.unit);
  return ms === null ? null : { ms, naive: false };
}

/**
 * The unit of an epoch number by its magnitude (times after 2001 and before 2286): for wrapper
 * times written by tools whose unit is not declared. Null when the value fits no unit.
 */
export function guessEpochUnit(v: number): EpochUnit | null {
  const a = Math.abs(v);
  if (a >= 1e9 && a < 1e10) return 's';
  if (a >= 1e12 && a < 1e13) return 'ms';
  if (a >= 1e15 && a < 1e16) return 'us';
  if (a >= 1e18 && a < 1e19) return 'ns';
  return null;
}

/** RFC 3339 (zone optional), or an epoch number/numeric string whose unit its magnitude gives. */
export function parseTimeLoose(v: unknown): ParsedTime | null {
  const r = parseRfc3339(v);
  if (r) return r;
  const n = typeof v === 'number' ? v : typeof v === 'string' && NUMERIC.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n)) return null;
  const unit = guessEpochUnit(n);
  if (!unit) return null;
  const ms = parseEpoch(v, unit);
  return ms === null ? null : { ms, naive: false };
}

const DURATION_TEXT = /^\s*(\d{1,15}(?:\.\d{1,9})?)\s*(ns|us|µs|μs|ms|s|m|min|h)\s*$/;
const DURATION_FACTOR: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/**
 * A duration written with its unit (`"208ms"`, `"1.5s"`, `"3 min"`; docs/profiles.md, "Times"):
 * one number and one unit of ns, us (µs), ms, s, m (min) or h. Anything else (`"1h30m"`, a bare
 * number, a negative) is null: unreadable, never guessed.
 */
export function parseDurationText(v: unknown): number | null {
  if (typeof v !== 'string' || v.length > 40) return null;
  const m = DURATION_TEXT.exec(v);
  return m ? Number(m[1]) * DURATION_FACTOR[m[2]!]! : null;
}
