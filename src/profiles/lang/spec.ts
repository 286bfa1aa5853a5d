/**
 * The custom profile language (docs/profiles.md): a JSON file that says how to read any
 * request/response log. This module validates a profile file into a `ProfileSpec`; `classify.ts`
 * reads records with it. An invalid profile is one line naming the field and what was expected.
 *
 * ```json
 * {
 *   "name": "mcp-interceptor",
 *   "channel": "mcp",
 *   "records": "records[].record",
 *   "roles": [
 *     { "role": "request",  "when": { "path": "type", "equals": ["request"] } },
 *     { "role": "terminal", "when": { "path": "type", "equals": ["response"] } }
 *   ],
 *   "id": "count",
 *   "idKind": "protocol",
 *   "time": "timestamp",
 *   "error": "error",
 *   "failed": { "error": true },
 *   "group": ["method"]
 * }
 * ```
 */
import type { FailureRule, IdKind } from '../../model.js';
import { EPOCH_UNITS, type EpochUnit, type TimeFormat } from './time.js';
import { lastKey, parsePath, PathError, type Path } from './path.js';
import { append } from '../../arrays.js';

/**
 * `event`: a record that expects no outcome (a notification, a lifecycle entry): counted in
 * `records.<name>.events`, never a request, never an orphan. `half`: one half of a call whose two
 * halves may come in either order (the first seen opens the call, the other closes it). `relay`:
 * a record that closes the open call with its id and opens the next under the same id (a DevTools
 * redirect: the response of one hop and the request of the next).
 */
export type SpecRole = 'request' | 'terminal' | 'interim' | 'call' | 'ignore' | 'event' | 'half' | 'relay';
const ROLES: readonly SpecRole[] = ['request', 'terminal', 'interim', 'call', 'ignore', 'event', 'half', 'relay'];

/** A condition on a record (and the file it came from). */
export type Cond =
  | { kind: 'equals'; path: Path; values: ReadonlyArray<string | number | boolean> }
  /** `has`: present and not null; `present`: the key exists, whatever its value (null too). */
  | { kind: 'has'; path: Path }
  | { kind: 'present'; path: Path }
  | { kind: 'missing'; path: Path }
  | { kind: 'file'; glob: string; re: RegExp }
  | { kind: 'all'; conds: readonly Cond[] }
  | { kind: 'any'; conds: readonly Cond[] };

/** Fields a role may read from paths of its own (docs/profiles.md, "Paths per role"). */
export interface RolePaths {
  id?: IdSpec | null;
  scope?: ScopeSpec | null;
  time?: TimeRule | null;
  signature?: ReadonlyArray<Path | null>;
}

export interface RoleRule extends RolePaths {
  role: SpecRole;
  when: Cond | null;
  /** `half` rules: a half of this rule that is never answered is a one-sided call, not an orphan. */
  alone?: 'call';
}

/** One time field read one way. */
export interface TimeSpec {
  path: Path;
  format: TimeFormat;
}

/**
 * A time as a profile field gives it: alternatives tried in order (`{"any": [..]}`), each the sum
 * of one or more parts (`{"sum": [..]}`: Helicone's `seconds` + `milliseconds`). `field` names the
 * profile field in notes and findings (`time`, `start`, `roles[1].time`).
 */
export interface TimeRule {
  field: string;
  alts: ReadonlyArray<readonly TimeSpec[]>;
}

export interface DurationSpec {
  path: Path;
  /** Numbers in this unit; `text`: strings with their unit (`"208ms"`, `"1.5s"`). */
  unit: EpochUnit | 'text';
}

/** An id: one path, or the parts of a composite key (`{"parts": ["direction", "id"]}`; the last is the id). */
export interface IdSpec {
  parts: readonly Path[];
}

/** A scope: a path's value, the input file's name, or both (`{"from": "file", "path": P}`). */
export interface ScopeSpec {
  path: Path | null;
  file: boolean;
}

export interface ProfileSpec {
  name: string;
  channel: string;
  ordered: boolean;
  /** Where the records sit inside each JSON value (line or document); null: the value is the record. */
  records: Path | null;
  roles: readonly RoleRule[];
  id: IdSpec | null;
  /** `correlation`: the safe-shape rule; `protocol`: typed ids, a string or a number (9 ≠ "9"). */
  idKind: IdKind;
  /** Namespaces ids by the side that sent the request (values of `path` for each side). */
  direction: { path: Path; out: ReadonlyArray<string>; in: ReadonlyArray<string> } | null;
  time: TimeRule | null;
  /** For `call` records: start and end time, or a start and a duration (or a duration alone). */
  start: TimeRule | null;
  end: TimeRule | null;
  duration: DurationSpec | null;
  scope: ScopeSpec | null;
  caller: Path | null;
  signature: ReadonlyArray<{ name: string; path: Path }>;
  status: Path | null;
  /** Path of an error text or object (terminals and calls). */
  error: Path | null;
  /** When a terminal (or a call) is a failed outcome. */
  failure: FailureRule;
  /** Up to two paths that name the latency group. */
  group: readonly Path[];
  /** The group paths as written (default group labels). */
  groupNames: readonly string[];
  attribution: 'caller' | 'group';
  rowLabel: string;
  groupLabels: string[];
}

/** A profile file that cannot be used (a usage error: exit 2). */
export class ProfileSpecError extends Error {
  override name = 'ProfileSpecError';
}

const KNOWN_KEYS = new Set([
  '$schema', 'name', 'description', 'channel', 'ordered', 'records', 'role', 'roles', 'id', 'direction', 'time', 'start', 'end',
  'duration', 'scope', 'caller', 'signature', 'status', 'failed', 'error', 'group', 'needles', 'idKind', 'attribution', 'rowLabel',
  'groupLabels',
]);

const ROLE_KEYS = ['role', 'when', 'id', 'scope', 'time', 'signature', 'alone'];

const DEFAULT_FAILURE: FailureRule = { kind: 'status-not-in', statuses: ['ok', 'success'] };

/**
 * Bounds on the profile file's recursive and list-valued constructs (docs/profiles.md, "Limits"):
 * a profile is a small hand-written file; anything beyond these is a usage error naming the field,
 * never a stack overflow or a report that echoes megabytes of rule.
 */
export const MAX_NESTING = 8;
/** Leaf rules of a `failed` rule (nested arrays are flattened into one "any of these"). */
export const MAX_FAILURE_RULES = 16;
/** Statuses listed in one `status`/`statusNot` rule, and `equals` values in one condition. */
export const MAX_LIST = 64;
/** Conditions in one profile file (all roles together). */
export const MAX_CONDITIONS = 256;
/** Length of one status or `equals` string. */
export const MAX_VALUE_CHARS = 200;

/** `failed`: {"status": [..]}, {"statusNot": [..]}, {"statusAtLeast": N}, {"error": true}, or an array (any holds). */
function failureRule(v: unknown, field = 'failed'): FailureRule {
  if (v === undefined || v === null) return DEFAULT_FAILURE;
  const leaves: FailureRule[] = [];
  failureLeaves(v, field, 1, leaves);
  // Nested arrays mean "any of these" at every level: the rule is the flat list of its leaves.
  return Array.isArray(v) ? { kind: 'any', rules: leaves } : leaves[0]!;
}

function failureLeaves(v: unknown, field: string, depth: number, out: FailureRule[]): void {
  const expected = '{"status": [..]}, {"statusNot": [..]}, {"statusAtLeast": N} or {"error": true}, or an array of these';
  if (Array.isArray(v)) {
    if (depth > MAX_NESTING) fail(field, `rules nested at most ${MAX_NESTING} arrays deep`);
    if (v.length === 0) fail(field, `a non-empty array of rules: ${expected}`, v);
    v.forEach((x, i) => failureLeaves(x, `${field}[${i}]`, depth + 1, out));
    return;
  }
  if (out.length >= MAX_FAILURE_RULES) fail(field, `at most ${MAX_FAILURE_RULES} rules in "failed"`);
  const o = v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  const keys = o ? Object.keys(o) : [];
  if (!o || keys.length !== 1) fail(field, expected, v);
  const k = keys[0]!;
  if (k === 'status') out.push({ kind: 'status-in', statuses: statusList(o.status, `${field}.status`, out) });
  else if (k === 'statusNot') out.push({ kind: 'status-not-in', statuses: statusList(o.statusNot, `${field}.statusNot`, out) });
  else if (k === 'statusAtLeast' && typeof o.statusAtLeast === 'number' && Number.isFinite(o.statusAtLeast)) out.push({ kind: 'status-at-least', min: o.statusAtLeast });
  else if (k === 'error' && o.error === true) out.push({ kind: 'error-present' });
  else fail(field, expected, v);
}

/**
 * Statuses as the capture writes them: strings, numbers or booleans (`[false]`, `[0]`), compared
 * as the text a record's status becomes (`false` → "false", `0` → "0").
 */
function statusList(v: unknown, field: string, out: readonly FailureRule[]): string[] {
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string' || typeof s === 'boolean' || (typeof s === 'number' && Number.isFinite(s))))
    fail(field, 'an array of strings, numbers or booleans', v);
  const xs = (v as Array<string | number | boolean>).map((x) => String(x));
  const before = out.reduce((n, r) => n + ('statuses' in r ? r.statuses.length : 0), 0);
  if (before + xs.length > MAX_LIST) fail(field, `at most ${MAX_LIST} statuses in "failed" (all rules together)`);
  xs.forEach((x, i) => {
    if (x.length > MAX_VALUE_CHARS) fail(`${field}[${i}]`, `a status of at most ${MAX_VALUE_CHARS} characters`, x);
  });
  return xs;
}

function label(v: unknown, field: string, dflt: string): string {
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'string' && /^[A-Za-z0-9_ ./-]{1,40}$/.test(v)) return v;
  fail(field, '1–40 letters, digits, spaces or _ . / -', v);
}

function fail(field: string, expected: string, got?: unknown): never {
  const shown = got === undefined ? '' : `, got ${describe(got)}`;
  throw new ProfileSpecError(`profile: ${field}: expected ${expected}${shown}`);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  const s = JSON.stringify(v) ?? typeof v;
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function path(v: unknown, field: string): Path {
  try {
    return parsePath(v, field);
  } catch (e) {
    if (e instanceof PathError) throw new ProfileSpecError(`profile: ${e.message}`);
    throw e;
  }
}

function optPath(o: Record<string, unknown>, key: string): Path | null {
  return o[key] === undefined || o[key] === null ? null : path(o[key], key);
}

/**
 * The shape of a profile's `name` and `channel` (docs/profiles.md, "Fields"): they reach every
 * report, stderr line and finding, so they are short and plain: 1–64 letters, digits, `_ . -`,
 * starting with a letter or digit.
 */
export const NAME_SHAPE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const NAME_RULE = '1–64 letters, digits, _ . or -, starting with a letter or digit';

function name(v: unknown, field: string, dflt: string): string {
  if (v === undefined) return dflt;
  if (typeof v !== 'string' || !NAME_SHAPE.test(v)) fail(field, NAME_RULE, v);
  return v;
}

/**
 * Most signature fields a profile names: matching visits up to 2^f field masks per terminal and
 * files a request in up to 2^f indexes (src/engine/pool.ts), so f is bounded to keep pairing O(1)
 * per event.
 */
export const MAX_SIGNATURE_FIELDS = 6;

/** Longest signature field name (its path as written): it is a key of every pair's `signature`. */
export const MAX_SIGNATURE_NAME = 64;

function obj(v: unknown, field: string, expected: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(field, expected, v);
  return v as Record<string, unknown>;
}

function globToRegExp(glob: string): RegExp {
  const re = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${re}$`);
}

/** Conditions read so far in the file being parsed (bounded by MAX_CONDITIONS). */
let condCount = 0;

function cond(v: unknown, field: string, depth = 1): Cond {
  if (depth > MAX_NESTING) fail(field, `conditions nested at most ${MAX_NESTING} deep`);
  if (++condCount > MAX_CONDITIONS) fail(field, `at most ${MAX_CONDITIONS} conditions in a profile`);
  if (Array.isArray(v)) {
    if (v.length === 0) fail(field, 'a condition or a non-empty array of conditions (all must hold)', v);
    return { kind: 'all', conds: v.map((c, i) => cond(c, `${field}[${i}]`, depth + 1)) };
  }
  const o = obj(v, field, 'a condition: {"path", "equals"}, {"has"}, {"present"}, {"missing"}, {"file"}, {"all"} or {"any"}');
  const keys = Object.keys(o);
  if (o.has !== undefined) {
    if (keys.length !== 1) fail(field, '{"has": path} alone', v);
    return { kind: 'has', path: path(o.has, `${field}.has`) };
  }
  if (o.present !== undefined) {
    if (keys.length !== 1) fail(field, '{"present": path} alone', v);
    return { kind: 'present', path: path(o.present, `${field}.present`) };
  }
  if (o.missing !== undefined) {
    if (keys.length !== 1) fail(field, '{"missing": path} alone', v);
    return { kind: 'missing', path: path(o.missing, `${field}.missing`) };
  }
  if (o.file !== undefined) {
    if (keys.length !== 1) fail(field, '{"file": glob} alone', v);
    if (typeof o.file !== 'string' || o.file === '' || o.file.includes('/')) fail(`${field}.file`, 'a file-name glob such as "*requests*.jsonl" (no directory)', o.file);
    return { kind: 'file', glob: o.file, re: globToRegExp(o.file) };
  }
  if (o.all !== undefined || o.any !== undefined) {
    const k = o.all !== undefined ? 'all' : 'any';
    const list = o[k];
    if (keys.length !== 1 || !Array.isArray(list) || list.length === 0) fail(`${field}.${k}`, 'a non-empty array of conditions', list);
    return { kind: k, conds: list.map((c, i) => cond(c, `${field}.${k}[${i}]`, depth + 1)) };
  }
  if (o.path !== undefined) {
    const eq = o.equals;
    const values = Array.isArray(eq) ? eq : [eq];
    if (eq === undefined || values.length === 0 || !values.every((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean'))
      fail(`${field}.equals`, 'a string, number or boolean, or a non-empty array of them', eq);
    if (values.length > MAX_LIST || values.some((x) => typeof x === 'string' && x.length > MAX_VALUE_CHARS))
      fail(`${field}.equals`, `at most ${MAX_LIST} values of at most ${MAX_VALUE_CHARS} characters each`);
    const extra = keys.filter((k) => k !== 'path' && k !== 'equals');
    if (extra.length) fail(field, `only "path" and "equals" beside each other (unknown "${extra[0]}")`);
    return { kind: 'equals', path: path(o.path, `${field}.path`), values: values as Array<string | number | boolean> };
  }
  fail(field, 'a condition: {"path", "equals"}, {"has"}, {"present"}, {"missing"}, {"file"}, {"all"} or {"any"}', v);
}

function timeLeaf(v: unknown, field: string): TimeSpec {
  if (typeof v === 'string' || Array.isArray(v)) return { path: path(v, field), format: { kind: 'rfc3339' } };
  const o = obj(v, field, 'a path, or {"path", "format": "rfc3339"|"epoch", "unit": "s"|"ms"|"us"|"ns"}, {"sum": [..]} or {"any": [..]}');
  const p = path(o.path, `${field}.path`);
  const format = o.format ?? (o.unit !== undefined ? 'epoch' : 'rfc3339');
  if (format === 'rfc3339') {
    if (o.unit !== undefined) fail(`${field}.unit`, 'no unit with "format": "rfc3339"', o.unit);
    return { path: p, format: { kind: 'rfc3339' } };
  }
  if (format !== 'epoch') fail(`${field}.format`, '"rfc3339" or "epoch"', format);
  return { path: p, format: { kind: 'epoch', unit: unit(o.unit, `${field}.unit`, 'the epoch unit: one of') } };
}

function timeSum(v: unknown, field: string): TimeSpec[] {
  const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  if (o && o.sum !== undefined) {
    if (Object.keys(o).length !== 1 || !Array.isArray(o.sum) || o.sum.length < 2 || o.sum.length > 4) fail(`${field}.sum`, 'an array of 2–4 time parts, each {"path", "unit"} (the first may be RFC 3339)', o.sum);
    const parts = o.sum.map((x, i) => timeLeaf(x, `${field}.sum[${i}]`));
    if (parts.slice(1).some((x) => x.format.kind !== 'epoch')) fail(`${field}.sum`, 'parts after the first in an epoch unit ({"path", "unit"})');
    return parts;
  }
  return [timeLeaf(v, field)];
}

/** A time field: a path, `{"path", "unit"}`, `{"sum": [..]}`, or `{"any": [..]}` of these. */
function timeSpec(v: unknown, field: string): TimeRule {
  const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  if (o && o.any !== undefined) {
    if (Object.keys(o).length !== 1 || !Array.isArray(o.any) || o.any.length === 0 || o.any.length > 8) fail(`${field}.any`, 'an array of 1–8 time formats, tried in order', o.any);
    return { field, alts: o.any.map((x, i) => timeSum(x, `${field}.any[${i}]`)) };
  }
  return { field, alts: [timeSum(v, field)] };
}

function idSpec(v: unknown, field: string): IdSpec {
  const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  if (o && o.parts !== undefined) {
    if (Object.keys(o).length !== 1 || !Array.isArray(o.parts) || o.parts.length < 2 || o.parts.length > 4) fail(`${field}.parts`, 'an array of 2–4 paths (the key space first, the id last)', o.parts);
    return { parts: o.parts.map((x, i) => path(x, `${field}.parts[${i}]`)) };
  }
  return { parts: [path(v, field)] };
}

function scopeSpec(v: unknown, field: string): ScopeSpec {
  const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  if (o && o.from !== undefined) {
    if (o.from !== 'file') fail(`${field}.from`, '"file" (the input file\'s name)', o.from);
    const extra = Object.keys(o).filter((k) => k !== 'from' && k !== 'path');
    if (extra.length) fail(field, `only "from" and "path" (unknown "${extra[0]}")`);
    return { file: true, path: o.path === undefined ? null : path(o.path, `${field}.path`) };
  }
  return { file: false, path: path(v, field) };
}

/** A time unit: `s`, `ms`, `us` (also `µs`) or `ns`. */
function unit(v: unknown, field: string, expected: string): EpochUnit {
  const u = v === 'µs' || v === 'μs' ? 'us' : v;
  if (!EPOCH_UNITS.includes(u as EpochUnit)) fail(field, `${expected} ${EPOCH_UNITS.map((x) => `"${x}"`).join(', ')}`, v);
  return u as EpochUnit;
}

function strings(v: unknown, field: string): string[] {
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) fail(field, 'an array of strings', v);
  return v as string[];
}

/** The old single-field form `{"path", "request": [...], "terminal": [...], "interim": [...]}`. */
function legacyRole(v: unknown): RoleRule[] {
  const o = obj(v, 'role', 'an object {path, request, terminal, interim}');
  const p = path(o.path, 'role.path');
  const rules: RoleRule[] = [];
  for (const r of ['request', 'terminal', 'interim'] as const) {
    if (o[r] === undefined) continue;
    const values = strings(o[r], `role.${r}`);
    if (values.length) rules.push({ role: r, when: { kind: 'equals', path: p, values } });
  }
  if (!rules.some((r) => r.role === 'request') || !rules.some((r) => r.role === 'terminal'))
    fail('role', 'at least one "request" value and one "terminal" value');
  return rules;
}

export function parseProfileSpec(raw: unknown): ProfileSpec {
  condCount = 0;
  const o = obj(raw, '(the file)', 'a JSON object');
  for (const k of Object.keys(o)) if (!KNOWN_KEYS.has(k)) fail(k, `a known field (${[...KNOWN_KEYS].filter((x) => x !== '$schema' && x !== 'needles').join(', ')})`);
  if (o.needles !== undefined) fail('needles', 'no "needles": they are derived from the roles (remove the field)');
  if (o.ordered !== undefined && typeof o.ordered !== 'boolean') fail('ordered', 'true or false', o.ordered);
  if ((o.role === undefined) === (o.roles === undefined)) fail('roles', 'exactly one of "roles" (a list of rules) or "role" (one field\'s values)');
  let roles: RoleRule[];
  if (o.roles !== undefined) {
    if (!Array.isArray(o.roles) || o.roles.length === 0) fail('roles', 'a non-empty array of {"role", "when"}', o.roles);
    roles = o.roles.map((r, i) => {
      const ro = obj(r, `roles[${i}]`, 'an object {"role", "when"}');
      if (!ROLES.includes(ro.role as SpecRole)) fail(`roles[${i}].role`, ROLES.map((x) => `"${x}"`).join(', '), ro.role);
      const extra = Object.keys(ro).filter((k) => !ROLE_KEYS.includes(k));
      if (extra.length) fail(`roles[${i}]`, `only ${ROLE_KEYS.map((k) => `"${k}"`).join(', ')} (unknown "${extra[0]}")`);
      const rule: RoleRule = { role: ro.role as SpecRole, when: ro.when === undefined ? null : cond(ro.when, `roles[${i}].when`) };
      const f = `roles[${i}]`;
      if (ro.id !== undefined) rule.id = ro.id === null ? null : idSpec(ro.id, `${f}.id`);
      if (ro.scope !== undefined) rule.scope = ro.scope === null ? null : scopeSpec(ro.scope, `${f}.scope`);
      if (ro.time !== undefined) rule.time = ro.time === null ? null : timeSpec(ro.time, `${f}.time`);
      if (ro.signature !== undefined) {
        if (!Array.isArray(ro.signature)) fail(`${f}.signature`, 'an array of paths (or null), one per "signature" field', ro.signature);
        rule.signature = ro.signature.map((p, j) => (p === null ? null : path(p, `${f}.signature[${j}]`)));
      }
      if (ro.alone !== undefined) {
        if (ro.alone !== 'call' || rule.role !== 'half') fail(`${f}.alone`, '"call" on a "half" rule (an unanswered half is a one-sided call)', ro.alone);
        rule.alone = 'call';
      }
      return rule;
    });
    for (const [i, r] of roles.entries())
      if (r.signature && r.signature.length !== (Array.isArray(o.signature) ? o.signature.length : 0))
        fail(`roles[${i}].signature`, 'one path (or null) per field of the profile\'s "signature", in its order');
    const has = (r: SpecRole) => roles.some((x) => x.role === r);
    if (!has('call') && !has('half') && !(has('request') && has('terminal'))) fail('roles', 'a "request" and a "terminal" rule, a "half" rule, or a "call" rule');
  } else roles = legacyRole(o.role);

  const id = o.id === undefined || o.id === null ? null : idSpec(o.id, 'id');
  if (o.idKind !== undefined && o.idKind !== 'correlation' && o.idKind !== 'protocol')
    fail('idKind', '"correlation" (a safe-shaped string) or "protocol" (a typed id: a string or a number, 9 ≠ "9")', o.idKind);
  let direction: ProfileSpec['direction'] = null;
  if (o.direction !== undefined) {
    const d = obj(o.direction, 'direction', 'an object {"path", "out": [values], "in": [values]}');
    const out = strings(d.out, 'direction.out');
    const inn = strings(d.in, 'direction.in');
    if (out.length === 0 || inn.length === 0) fail('direction', 'at least one "out" value and one "in" value');
    if (out.some((x) => inn.includes(x))) fail('direction', 'no value in both "out" and "in"');
    direction = { path: path(d.path, 'direction.path'), out, in: inn };
  }
  let duration: DurationSpec | null = null;
  if (o.duration !== undefined) {
    const d = obj(o.duration, 'duration', 'an object {"path", "unit": "s"|"ms"|"us"|"ns"}');
    if (d.format !== undefined && d.format !== 'text') fail('duration.format', '"text" (strings with their unit: "208ms", "1.5s")', d.format);
    if (d.format === 'text' && d.unit !== undefined) fail('duration.unit', 'no unit with "format": "text" (each string names its own)', d.unit);
    duration = { path: path(d.path, 'duration.path'), unit: d.format === 'text' ? 'text' : unit(d.unit, 'duration.unit', 'one of') };
  }
  const group = o.group === undefined ? [] : Array.isArray(o.group) ? o.group : fail('group', 'an array of at most two paths', o.group);
  if (group.length > 2) fail('group', 'an array of at most two paths', o.group);
  const signature = o.signature === undefined ? [] : Array.isArray(o.signature) ? o.signature : fail('signature', 'an array of paths', o.signature);
  if (signature.length > MAX_SIGNATURE_FIELDS) fail('signature', `an array of at most ${MAX_SIGNATURE_FIELDS} paths (pairing cost grows as 2^fields)`, `${signature.length} paths`);
  const spec: ProfileSpec = {
    name: name(o.name, 'name', 'custom'),
    channel: name(o.channel, 'channel', 'calls'),
    ordered: o.ordered === true,
    records: optPath(o, 'records'),
    roles,
    id,
    idKind: o.idKind === 'protocol' ? 'protocol' : 'correlation',
    direction,
    time: o.time === undefined || o.time === null ? null : timeSpec(o.time, 'time'),
    start: o.start === undefined ? null : timeSpec(o.start, 'start'),
    end: o.end === undefined ? null : timeSpec(o.end, 'end'),
    duration,
    scope: o.scope === undefined || o.scope === null ? null : scopeSpec(o.scope, 'scope'),
    caller: optPath(o, 'caller'),
    signature: signature.map((p, i) => {
      const pp = path(p, `signature[${i}]`);
      const n = typeof p === 'string' ? p : pp.map((s) => ('key' in s ? s.key : '[]')).join('.');
      if (n.length > MAX_SIGNATURE_NAME || /[^\x20-\x7e\u00a0-\u2027\u202f-\u2065\u206a-\uffff]/.test(n))
        fail(`signature[${i}]`, `a path of at most ${MAX_SIGNATURE_NAME} printable characters (it names the signature field in reports)`, n);
      return { name: n, path: pp };
    }),
    status: optPath(o, 'status'),
    error: optPath(o, 'error'),
    failure: failureRule(o.failed),
    group: group.map((p, i) => path(p, `group[${i}]`)),
    groupNames: group.map((p) => (typeof p === 'string' ? p : 'group')),
    attribution: 'caller',
    rowLabel: 'caller',
    groupLabels: [],
  };
  const sigNames = spec.signature.map((x) => x.name);
  const dup = sigNames.find((x, i) => sigNames.indexOf(x) !== i);
  if (dup !== undefined) fail('signature', 'distinct paths', dup);
  if (o.description !== undefined && (typeof o.description !== 'string' || o.description.length > 1000)) fail('description', 'a string of at most 1000 characters', o.description);
  if (o.attribution !== undefined && o.attribution !== 'caller' && o.attribution !== 'group') fail('attribution', '"caller" or "group"', o.attribution);
  if (o.attribution === 'group') {
    if (spec.group.length === 0) fail('attribution', '"group" needs a "group" path');
    spec.attribution = 'group';
  }
  const labels = o.groupLabels === undefined ? [] : strings(o.groupLabels, 'groupLabels');
  spec.groupLabels = spec.groupNames.map((g, i) => label(labels[i], `groupLabels[${i}]`, g.length <= 40 ? g.replace(/[^A-Za-z0-9_ ./-]/g, '_') : 'group'));
  spec.rowLabel = label(o.rowLabel, 'rowLabel', spec.attribution === 'group' ? spec.groupLabels[0]! : 'caller');
  if (roles.some((r) => r.role === 'call') && spec.start === null && spec.time === null && spec.duration === null)
    fail('start', 'a start time for "call" records ("start", or "time"), with "end" or "duration" (or a "duration" alone)');
  if (roles.some((r) => r.role === 'call') && spec.end === null && spec.duration === null && (spec.start !== null || spec.time !== null))
    fail('end', 'an end time ("end") or a "duration" for "call" records');
  if (spec.records !== null && 'root' in spec.records[0]!) fail('records', 'a path inside each value (not "$")');
  return spec;
}

/**
 * The strings (keys or values) every record a rule matches must contain, or null when a rule can
 * match without any (a file rule, a rule with no condition, a `missing` or non-string condition).
 */
function condMarkers(c: Cond | null): string[] | null {
  if (c === null) return null;
  switch (c.kind) {
    case 'equals':
      return c.values.every((v) => typeof v === 'string') ? (c.values as string[]) : lastKey(c.path) !== null ? [lastKey(c.path)!] : null;
    case 'has':
    case 'present': {
      const k = lastKey(c.path);
      return k === null ? null : [k];
    }
    case 'missing':
    case 'file':
      return null;
    case 'all': {
      // Any one condition's markers must all be present: take the first that gives some.
      for (const x of c.conds) {
        const m = condMarkers(x);
        if (m) return m;
      }
      return null;
    }
    case 'any': {
      const out: string[] = [];
      for (const x of c.conds) {
        const m = condMarkers(x);
        if (!m) return null;
        append(out, m);
      }
      return out;
    }
  }
}

/** The markers from which needles are derived (lang/needles.ts); null: every line is parsed. */
export function specMarkers(spec: ProfileSpec): string[] | null {
  if (spec.records !== null) {
    const first = spec.records[0]!;
    if ('key' in first) return [first.key];
  }
  const out: string[] = [];
  for (const r of spec.roles) {
    if (r.role === 'ignore') continue;
    const m = condMarkers(r.when);
    if (m === null) return null;
    append(out, m);
  }
  return [...new Set(out)];
}
