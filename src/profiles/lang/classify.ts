/**
 * Reading records with a custom profile (lang/spec.ts): which records a JSON value holds, each
 * record's role, and the fields the pairing engine needs. No events are built here.
 */
import { createHash } from 'node:crypto';
import type { InvalidIdInfo } from '../../report/findings.js';
import { clipText } from '../clip.js';
import { checkCorrelationId, isSafeId, sha256Prefix } from '../ids.js';
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
  status: string | null;
  failed: boolean;
  error: string | null;
  group: [string | null, string | null];
}

/** The records a JSON value holds: itself, or those at the profile's `records` path. */
export function recordsOf(spec: ProfileSpec, value: unknown): Iterable<unknown> {
  return spec.records === null ? [value] : eachAt(value, spec.records);
}

export function scalar(v: unknown): string | null {
  if (typeof v === 'string') return clipText(v);
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

/** A typed protocol id: strings and numbers only, 9 ≠ "9". */
export function typedId(field: string, v: unknown): IdResult {
  if (v === undefined || v === null) return { kind: 'none' };
  if (typeof v === 'number' && Number.isFinite(v)) return { kind: 'valid', key: `typed:n:${v}`, label: String(v) };
  if (typeof v === 'string') {
    if (v === '') return { kind: 'none' };
    const key = isSafeId(v) ? `typed:s:${v}` : `typed:h:${createHash('sha256').update(v).digest('hex')}`;
    return { kind: 'valid', key, label: JSON.stringify(clipText(v, 128)) };
  }
  let text: string;
  try {
    text = JSON.stringify(v) ?? typeof v;
  } catch {
    text = `[unserialisable ${typeof v}]`;
  }
  return { kind: 'invalid', info: { field, reason: 'not-a-string-or-number', length: text.length, sha256: sha256Prefix(text) } };
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

/** The role and fields of one record; `ignored` when no role rule matches. */
export function classify(spec: ProfileSpec, rec: unknown, fileName: string): ReadRecord | 'ignored' | 'unclaimed' {
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return 'unclaimed';
  let role: ReadRecord['role'] | 'ignore' | null = null;
  for (const r of spec.roles) {
    if (r.when === null || holds(r.when, rec, fileName)) {
      role = r.role;
      break;
    }
  }
  if (role === null || role === 'ignore') return 'ignored';

  let id: IdResult = { kind: 'none' };
  if (spec.id) {
    const raw = getPath(rec, spec.id.path);
    if (spec.id.kind === 'typed') id = typedId(pathName(spec.id.path), raw);
    else {
      const c = checkCorrelationId(pathName(spec.id.path), raw);
      id = c.kind === 'valid' ? { kind: 'valid', key: c.id, label: c.id } : c;
    }
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

  const statusText = spec.status ? scalar(getPath(rec, spec.status)) : null;
  const isOutcome = role === 'terminal' || role === 'call';
  const failed = isOutcome && spec.failed !== null && holds(spec.failed, rec, fileName);
  let status: string | null = null;
  let error: string | null = null;
  if (isOutcome) {
    status = spec.failed === null ? statusText : failed ? 'error' : 'ok';
    if (failed) error = (spec.error ? scalar(getPath(rec, spec.error)) : null) ?? statusText;
  }
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
    failed,
    error,
    group: [spec.group[0] ? scalar(getPath(rec, spec.group[0])) : null, spec.group[1] ? scalar(getPath(rec, spec.group[1])) : null],
  };
}
