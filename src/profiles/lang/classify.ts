/**
 * Reading records with a custom profile (lang/spec.ts): which records a JSON value holds, each
 * record's role, and the fields the pairing engine needs. No events are built here.
 */
import type { InvalidIdInfo } from '../../report/findings.js';
import { checkId } from '../event.js';
import { eachAt, getPath, type Path } from './path.js';
import type { Cond, ProfileSpec, TimeSpec } from './spec.js';
import { parseEpoch, parseTimeAs } from './time.js';

export type IdResult = { kind: 'none' } | { kind: 'valid'; key: string; label: string } | { kind: 'invalid'; info: InvalidIdInfo };

export interface ReadRecord {
  role: 'request' | 'terminal' | 'interim' | 'call';
  id: IdResult;
  scope: string;
  caller: string | null;
  sig: (string | null)[] | null;
  /** The record's time (request/terminal/interim), or a call's start. */
  time: number | null;
  /** A call's end. */
  end: number | null;
  /** A time was read from RFC 3339 without a zone (as UTC). */
  naive: boolean;
  /** A time field was present but could not be read with the profile's format. */
  unreadableTime: boolean;
  /** Terminals and calls: the status and error text as the record states them. */
  status: string | null;
  error: string | null;
  group: [string | null, string | null];
}

/** The records a JSON value holds: itself, or those at the profile's `records` path. */
export function recordsOf(spec: ProfileSpec, value: unknown): Iterable<unknown> {
  return spec.records === null ? [value] : eachAt(value, spec.records);
}

/** A string, number or boolean as text (not clipped here: the event constructor clips). */
export function scalar(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  return null;
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** Whether a condition holds for a record read from file `fileName` (its base name). */
export function holds(c: Cond, rec: unknown, fileName: string): boolean {
  switch (c.kind) {
    case 'equals': {
      const v = getPath(rec, c.path);
      return c.values.some((x) => x === v);
    }
    case 'has':
      return present(getPath(rec, c.path));
    case 'present':
      return getPath(rec, c.path) !== undefined;
    case 'missing':
      return !present(getPath(rec, c.path));
    case 'file':
      return c.re.test(fileName);
    case 'all':
      return c.conds.every((x) => holds(x, rec, fileName));
    case 'any':
      return c.conds.some((x) => holds(x, rec, fileName));
  }
}

/** An error text: a string, or an object's message/msg/type/code; null, false and absent are none. */
export function errorValue(v: unknown): string | null {
  if (v === undefined || v === null || v === false) return null;
  const s = scalar(v);
  if (s !== null) return s;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return scalar(getPath(o, [{ key: 'message' }])) ?? scalar(getPath(o, [{ key: 'msg' }])) ?? scalar(getPath(o, [{ key: 'type' }])) ?? scalar(getPath(o, [{ key: 'code' }])) ?? 'error';
  }
  return null;
}

function readTime(t: TimeSpec | null, rec: unknown, out: { naive: boolean; unreadable: boolean }): number | null {
  if (!t) return null;
  const v = getPath(rec, t.path);
  if (v === undefined || v === null) return null;
  const p = parseTimeAs(v, t.format);
  if (!p) {
    out.unreadable = true;
    return null;
  }
  if (p.naive) out.naive = true;
  return p.ms;
}

function pathName(p: Path): string {
  return p.map((s) => ('key' in s ? s.key : 'index' in s ? `[${s.index}]` : '[]')).join('.');
}

/** The role and fields of one record; `unclaimed` when no role rule matches, `ignored` for an `ignore` rule. */
export function classify(spec: ProfileSpec, rec: unknown, fileName: string): ReadRecord | 'ignored' | 'unclaimed' {
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return 'unclaimed';
  let role: ReadRecord['role'] | 'ignore' | null = null;
  for (const r of spec.roles) {
    if (r.when === null || holds(r.when, rec, fileName)) {
      role = r.role;
      break;
    }
  }
  // No rule: not this profile's record (other profiles may take it); an `ignore` rule: this
  // profile's, deliberately not a call.
  if (role === null) return 'unclaimed';
  if (role === 'ignore') return 'ignored';

  let id: IdResult = { kind: 'none' };
  if (spec.id) {
    const c = checkId(spec.idKind, pathName(spec.id), getPath(rec, spec.id));
    id = c.kind === 'valid' ? { kind: 'valid', key: c.key, label: c.label ?? c.key } : c;
  }
  if (id.kind === 'valid' && spec.direction) {
    const d = getPath(rec, spec.direction.path);
    const side = typeof d === 'string' ? (spec.direction.out.includes(d) ? 'out' : spec.direction.in.includes(d) ? 'in' : null) : null;
    if (side !== null) {
      // Ids are namespaced by the side that sent the request: a terminal answers the other side.
      const ns = role === 'terminal' || role === 'interim' ? (side === 'out' ? 'in' : 'out') : side;
      id = { kind: 'valid', key: `${ns}/${id.key}`, label: `${id.label} (${ns})` };
    }
  }

  const t = { naive: false, unreadable: false };
  let time: number | null;
  let end: number | null = null;
  if (role === 'call') {
    time = readTime(spec.start ?? spec.time, rec, t);
    end = readTime(spec.end, rec, t);
    if (end === null && spec.duration && time !== null) {
      const d = parseEpoch(getPath(rec, spec.duration.path), spec.duration.unit);
      if (d !== null) end = time + d;
    }
  } else time = readTime(spec.time, rec, t);

  const isOutcome = role === 'terminal' || role === 'call';
  const status = isOutcome && spec.status ? scalar(getPath(rec, spec.status)) : null;
  const error = isOutcome && spec.error ? errorValue(getPath(rec, spec.error)) : null;
  return {
    role,
    id,
    scope: spec.scope ? (scalar(getPath(rec, spec.scope)) ?? '') : '',
    caller: spec.caller ? scalar(getPath(rec, spec.caller)) : null,
    sig: spec.signature.length ? spec.signature.map((s) => scalar(getPath(rec, s.path))) : null,
    time,
    end,
    naive: t.naive,
    unreadableTime: t.unreadable,
    status,
    error,
    group: [spec.group[0] ? scalar(getPath(rec, spec.group[0])) : null, spec.group[1] ? scalar(getPath(rec, spec.group[1])) : null],
  };
}
