/**
 * Reading records with a custom profile (lang/spec.ts): which records a JSON value holds, each
 * record's role, and the fields the pairing engine needs. No events are built here.
 */
import type { InvalidIdInfo } from '../../report/findings.js';
import { checkId } from '../event.js';
import { eachAt, eachLocated, getPath, type Located, type Path } from './path.js';
import type { Cond, IdSpec, ProfileSpec, RoleRule, ScopeSpec, TimeRule } from './spec.js';
import { parseDurationText, parseEpoch, parseTimeAs } from './time.js';

export type IdResult = { kind: 'none' } | { kind: 'valid'; key: string; label?: string } | { kind: 'invalid'; info: InvalidIdInfo };

export interface ReadRecord {
  role: 'request' | 'terminal' | 'interim' | 'call' | 'event' | 'half' | 'relay';
  /** The rule that gave the role (`half` rules: whether an unanswered half is a call of its own). */
  rule: RoleRule;
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
  /** The profile fields (`time`, `start`, `roles[1].time`…) whose time was present but unreadable. */
  unreadableFields: string[];
  /** A call's stated duration (ms), when the profile names one and the record holds it. */
  durationMs: number | null;
  /** The key space of a composite id or a direction (the FIFO shadow runs per key space). */
  keySpace: string | null;
  /** Terminals and calls: the status and error text as the record states them. */
  status: string | null;
  error: string | null;
  group: [string | null, string | null];
}

/** The records a JSON value holds: itself, or those at the profile's `records` path (with their JSON pointers). */
export function recordsOf(spec: ProfileSpec, value: unknown): Iterable<Located> {
  return spec.records === null ? [{ value, pointer: '' }] : eachLocated(value, spec.records);
}

/** Every value at a path, read from the record (`$.` paths from the value it was found in). */
export { eachAt };

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

/** Whether a condition holds for a record read from file `fileName` (its base name); `root`: the value it sits in. */
export function holds(c: Cond, rec: unknown, fileName: string, root: unknown = rec): boolean {
  switch (c.kind) {
    case 'equals': {
      const v = getPath(rec, c.path, root);
      return c.values.some((x) => x === v);
    }
    case 'has':
      return present(getPath(rec, c.path, root));
    case 'present':
      return getPath(rec, c.path, root) !== undefined;
    case 'missing':
      return !present(getPath(rec, c.path, root));
    case 'file':
      return c.re.test(fileName);
    case 'all':
      return c.conds.every((x) => holds(x, rec, fileName, root));
    case 'any':
      return c.conds.some((x) => holds(x, rec, fileName, root));
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

interface TimeOut {
  naive: boolean;
  unreadable: string[];
}

/**
 * A time field: the first alternative whose parts are all present and readable. Present but
 * unreadable (in every alternative that is present): the field is named in `out.unreadable`.
 */
function readTime(t: TimeRule | null, rec: unknown, root: unknown, out: TimeOut): number | null {
  if (!t) return null;
  let seen = false;
  for (const alt of t.alts) {
    let ms = 0;
    let naive = false;
    let ok = true;
    for (let i = 0; i < alt.length; i++) {
      const v = getPath(rec, alt[i]!.path, root);
      if (v === undefined || v === null) {
        if (i > 0) seen = true; // a sum missing a later part is no time: unreadable, never a guess
        ok = false;
        break;
      }
      seen = true;
      const p = parseTimeAs(v, alt[i]!.format);
      if (!p) {
        ok = false;
        break;
      }
      if (p.naive) naive = true;
      ms += p.ms;
    }
    if (ok) {
      if (naive) out.naive = true;
      return ms;
    }
  }
  if (seen) out.unreadable.push(t.field);
  return null;
}

/** The key of an id (one path, or a composite: the parts before the last name its key space). */
function readId(spec: ProfileSpec, ids: IdSpec, rec: unknown, root: unknown): { id: IdResult; space: string | null } {
  const last = ids.parts[ids.parts.length - 1]!;
  const c = checkId(spec.idKind, pathName(last), getPath(rec, last, root));
  // The label is how the id is shown (model.ts shownId); a protocol string id kept only by its hash has none.
  let id: IdResult = c.kind === 'valid' ? { kind: 'valid', key: c.key, ...(c.label !== undefined ? { label: c.label } : spec.idKind === 'correlation' ? { label: c.key } : {}) } : c;
  if (ids.parts.length === 1) return { id, space: null };
  const space = ids.parts
    .slice(0, -1)
    .map((p) => scalar(getPath(rec, p, root)) ?? '')
    .join(' ');
  if (id.kind === 'valid') id = { kind: 'valid', key: `${JSON.stringify(space)}/${id.key}`, ...(id.label !== undefined ? { label: `${id.label} (${space})` } : {}) };
  return { id, space };
}

function readScope(s: ScopeSpec | null, rec: unknown, root: unknown, file: string): string {
  if (!s) return '';
  const v = s.path ? (scalar(getPath(rec, s.path, root)) ?? '') : '';
  if (!s.file) return v;
  return s.path ? `${file} ${v}` : file;
}

/** A duration in ms: a number in the stated unit, or a string with its unit (`"208ms"`). */
function readDuration(spec: ProfileSpec, rec: unknown, root: unknown, out: TimeOut): number | null {
  if (!spec.duration) return null;
  const v = getPath(rec, spec.duration.path, root);
  if (v === undefined || v === null) return null;
  const d = spec.duration.unit === 'text' ? parseDurationText(v) : parseEpoch(v, spec.duration.unit);
  if (d === null) out.unreadable.push('duration');
  return d;
}

function pathName(p: Path): string {
  return p.map((s) => ('key' in s ? s.key : 'index' in s ? `[${s.index}]` : 'root' in s ? '$' : '[]')).join('.');
}

/**
 * The role and fields of one record; `unclaimed` when no role rule matches, `ignored` for an
 * `ignore` rule. `root` is the value the record was found in (`$.` paths), `file` the input's
 * path (a scope `{"from": "file"}`).
 */
export function classify(spec: ProfileSpec, rec: unknown, fileName: string, root: unknown = rec, file: string = fileName): ReadRecord | 'ignored' | 'unclaimed' {
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return 'unclaimed';
  let rule: RoleRule | null = null;
  for (const r of spec.roles) {
    if (r.when === null || holds(r.when, rec, fileName, root)) {
      rule = r;
      break;
    }
  }
  // No rule: not this profile's record (other profiles may take it); an `ignore` rule: this
  // profile's, deliberately not a call.
  if (rule === null) return 'unclaimed';
  if (rule.role === 'ignore') return 'ignored';
  const role = rule.role;

  // A role's own paths (docs/profiles.md, "Paths per role") win over the profile's.
  const idSpec = rule.id !== undefined ? rule.id : spec.id;
  let id: IdResult = { kind: 'none' };
  let keySpace: string | null = null;
  if (idSpec) ({ id, space: keySpace } = readId(spec, idSpec, rec, root));
  if (id.kind === 'valid' && spec.direction) {
    const d = getPath(rec, spec.direction.path, root);
    const side = typeof d === 'string' ? (spec.direction.out.includes(d) ? 'out' : spec.direction.in.includes(d) ? 'in' : null) : null;
    if (side !== null) {
      // Ids are namespaced by the side that sent the request: a terminal answers the other side.
      const ns = role === 'terminal' || role === 'interim' ? (side === 'out' ? 'in' : 'out') : side;
      id = { kind: 'valid', key: `${ns}/${id.key}`, ...(id.label !== undefined ? { label: `${id.label} (${ns})` } : {}) };
      keySpace = keySpace === null ? ns : `${keySpace} ${ns}`;
    }
  }
  // Each key space (a direction, a composite key's leading parts) is a scope of its own, so FIFO
  // and its shadow run per key space, never over both directions.
  const baseScope = readScope(rule.scope !== undefined ? rule.scope : spec.scope, rec, root, file);
  const scope = keySpace === null ? baseScope : baseScope === '' ? keySpace : `${baseScope} ${keySpace}`;

  const t: TimeOut = { naive: false, unreadable: [] };
  let time: number | null;
  let end: number | null = null;
  let durationMs: number | null = null;
  if (role === 'call') {
    time = readTime(spec.start ?? (rule.time !== undefined ? rule.time : spec.time), rec, root, t);
    end = readTime(spec.end, rec, root, t);
    if (end === null && spec.duration) {
      durationMs = readDuration(spec, rec, root, t);
      if (durationMs !== null && time !== null) end = time + durationMs;
    }
  } else {
    time = readTime(rule.time !== undefined ? rule.time : spec.time, rec, root, t);
    // A half that may stand alone is a whole call when never answered: its end, as a call's.
    if (role === 'half' && rule.alone === 'call') {
      end = readTime(spec.end, rec, root, t);
      if (end === null && spec.duration) {
        durationMs = readDuration(spec, rec, root, t);
        if (durationMs !== null && time !== null) end = time + durationMs;
      }
    }
  }

  const isOutcome = role === 'terminal' || role === 'call' || role === 'half' || role === 'relay';
  const status = isOutcome && spec.status ? scalar(getPath(rec, spec.status, root)) : null;
  const error = isOutcome && spec.error ? errorValue(getPath(rec, spec.error, root)) : null;
  const sigPaths = rule.signature ?? spec.signature.map((s) => s.path);
  return {
    role,
    rule,
    id,
    scope,
    caller: spec.caller ? scalar(getPath(rec, spec.caller, root)) : null,
    sig: spec.signature.length ? sigPaths.map((p) => (p === null ? null : scalar(getPath(rec, p, root)))) : null,
    time,
    end,
    naive: t.naive,
    unreadableTime: t.unreadable.length > 0,
    unreadableFields: t.unreadable,
    durationMs,
    keySpace,
    status,
    error,
    group: [spec.group[0] ? scalar(getPath(rec, spec.group[0], root)) : null, spec.group[1] ? scalar(getPath(rec, spec.group[1], root)) : null],
  };
}
