/**
 * The one event constructor. Every profile (custom ones included) builds its events here: strings
 * are clipped (clip.ts), the id goes through the rule of the channel's id kind (correlation ids: the
 * safe-shape rule of ids.ts; protocol ids: typed, a string or a number) and an invalid id is recorded
 * as an INVALID_ID finding, never kept. `ProfileContext.emit` accepts only a `BuiltEvent`, which only
 * this module makes, so a profile cannot skip it.
 */
import { UNSTATED_CALLER, type CallAttrs, type CallEvent, type ChannelSpec, type Confidence, type Loc, type Role, type Usage } from '../model.js';
import type { Finding, InvalidIdInfo } from '../report/findings.js';
import { finding } from '../report/findings.js';
import { crypto } from '../builtins.js';
import { clipOrNull, clipText, MAX_KEPT_TEXT } from './clip.js';
import { checkCorrelationId, isSafeId, MAX_ID_LENGTH, sha256Prefix } from './ids.js';
import { LAST_TIME_MS } from './time.js';

/** The caller of a request whose record states none: the main agent. */
export const DEFAULT_CALLER = 'main';

declare const built: unique symbol;
/** A CallEvent made by `makeEvent` (the only kind `ProfileContext.emit` takes). */
export type BuiltEvent = CallEvent & { readonly [built]: true };

declare const keyed: unique symbol;
/** An engine id key that went through `checkId` (a valid correlation id or a typed protocol id). */
export type IdKey = string & { readonly [keyed]: true };

export type IdResult = { kind: 'none' } | { kind: 'valid'; key: IdKey; label?: string } | { kind: 'invalid'; info: InvalidIdInfo };

/**
 * Protocol ids: a string of 1–128 characters or a number that is a safe integer; the key keeps the
 * type (`9` ≠ `"9"`). A number beyond ±(2^53 − 1), a fraction or `-0` is INVALID_ID
 * (`not-a-safe-integer`): JSON parsing makes 9007199254740993 equal to 9007199254740992 and `-0`
 * equal to `0`, so such ids cannot be told apart and would pair as exact (docs/profiles.md, "jsonrpc").
 */
function checkProtocolId(field: string, v: unknown): IdResult {
  // One rule for both id kinds: absent, null and "" are no id (docs/pairing.md, "How ids are shown").
  if (v === undefined || v === null || v === '') return { kind: 'none' };
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) && !Object.is(v, -0)) return { kind: 'valid', key: `n:${v}` as IdKey, label: String(v) };
    const text = Number.isFinite(v) ? String(v) : 'null';
    return { kind: 'invalid', info: { field, reason: 'not-a-safe-integer', length: text.length, sha256: sha256Prefix(text) } };
  }
  if (typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_LENGTH) {
    const c = checkCorrelationId(field, v);
    // A safe string is shown as is; any other string is keyed by its whole SHA-256 (a 12-digit
    // prefix could be made to collide) and never shown.
    if (c.kind === 'valid') return { kind: 'valid', key: `s:${v}` as IdKey, label: JSON.stringify(v) };
    return { kind: 'valid', key: `h:${crypto().createHash('sha256').update(v).digest('hex')}` as IdKey };
  }
  const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? typeof v);
  const reason: InvalidIdInfo['reason'] = typeof v === 'string' ? 'too-long' : 'not-a-string-or-number';
  return { kind: 'invalid', info: { field, reason, length: text.length, sha256: sha256Prefix(text) } };
}

/** The id rule of an id kind. */
export function checkId(kind: ChannelSpec['idKind'], field: string, v: unknown): IdResult {
  if (kind === 'protocol') return checkProtocolId(field, v);
  const c = checkCorrelationId(field, v);
  return c.kind === 'valid' ? { kind: 'valid', key: c.id as IdKey } : c;
}

/** A key a profile derives itself from a protocol value it typed (e.g. a JSON-RPC id it hashes). */
export function derivedKey(key: string): IdKey {
  return key as IdKey;
}

/** What a profile states about one record; `makeEvent` turns it into an engine event. */
export interface EventDraft {
  role: Role;
  /** A string (clipped) or a number; anything else is the empty scope. */
  scope: unknown;
  /** The raw id and the field it came from, or a key already checked (`checkId`), or null. */
  id: { field: string; value: unknown } | IdKey | null;
  sig: readonly (string | null)[] | null;
  time: number | null;
  /** The stated caller; null when the record states none (a request then counts as `main`, a terminal as `(unstated)`). */
  caller: string | null;
  attrs: CallAttrs;
  loc: Loc;
  redundant?: boolean;
  maxConfidence?: Confidence;
  orphanNote?: string;
  repeatOf?: Loc;
  unanswered?: boolean;
  pastWindow?: boolean;
}

export interface FindingSink {
  finding(f: Finding): void;
}

/** A string over the kept-text limit (clipText would change it). */
function isLong(v: unknown): v is string {
  return typeof v === 'string' && v.length > MAX_KEPT_TEXT;
}

/** The free-text attributes an event keeps clipped. */
const CLIPPED_ATTRS = ['provider', 'model', 'status', 'error', 'tool', 'kind'] as const;

/**
 * The attributes with each free-text one clipped: the draft's own object when nothing is over the
 * limit (most events), else a copy; the draft is never changed (a profile may hold its attrs).
 */
function clipAttrs(a: CallAttrs): CallAttrs {
  // Most events: no value over the limit. Named loads (the loop below reads by a variable key).
  if (!isLong(a.provider) && !isLong(a.model) && !isLong(a.status) && !isLong(a.error) && !isLong(a.tool) && !isLong(a.kind)) return a;
  let out = a;
  for (let i = 0; i < CLIPPED_ATTRS.length; i++) {
    const k = CLIPPED_ATTRS[i]!;
    const v = a[k];
    // Only a string over the limit changes (clipText returns a shorter one as is).
    if (isLong(v)) {
      if (out === a) out = { ...a };
      (out as Record<string, unknown>)[k] = clipText(v);
    }
  }
  return out;
}

/**
 * The signature with each value clipped: the draft's own array when nothing is over the limit (most
 * events; profiles build it as a literal or by `map`, never by pushing into `[]`, which grows an
 * array to 17 slots, about 150 bytes an open request would keep), else a copy of the exact length.
 * Nothing writes an event's signature after it is made.
 */
function clipSig(sig: readonly (string | null)[]): (string | null)[] {
  let i = 0;
  while (i < sig.length && !isLong(sig[i])) i++;
  if (i === sig.length) return sig as (string | null)[];
  const out = sig.slice();
  for (; i < out.length; i++) out[i] = clipOrNull(out[i]);
  return out;
}

/**
 * The range a capture number must lie in before it reaches arithmetic (docs/design.md §2): a time
 * is milliseconds of the years 0000–9999 (what RFC 3339 can say), a stated duration at most that
 * span, a token count an integer-safe count. Sums of in-range values stay finite.
 */
export const NUMBER_RANGES = {
  time: { min: -62_167_219_200_000, max: LAST_TIME_MS },
  duration: { min: -315_569_520_000_000, max: 315_569_520_000_000 },
  count: { min: 0, max: Number.MAX_SAFE_INTEGER },
} as const;

type RangeName = keyof typeof NUMBER_RANGES;

/** A finite number within `range` (what inRange keeps as it is). */
function within(v: unknown, range: RangeName): v is number {
  const { min, max } = NUMBER_RANGES[range];
  return typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
}

/** A number in its range, else null and an OUT_OF_RANGE finding (the value shown as a number's text). */
function inRange(v: number | null | undefined, range: RangeName, field: string, channel: string, scope: string, loc: Loc, sink: FindingSink): number | null {
  if (v === null || v === undefined) return null;
  if (within(v, range)) return v;
  const { min, max } = NUMBER_RANGES[range];
  sink.finding(
    finding('OUT_OF_RANGE', { channel, scope, locations: [loc] }, { field, value: typeof v === 'number' && Number.isFinite(v) ? String(v) : null, min, max }),
  );
  return null;
}

const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;
/** Their names in an OUT_OF_RANGE finding (made once, not per event). */
const USAGE_FIELD_NAMES = USAGE_FIELDS.map((k) => `usage.${k}`);

/** A count inRange keeps as it is: null, or a number within NUMBER_RANGES.count. */
function keptCount(v: unknown): boolean {
  return v === null || within(v, 'count');
}

const own = Object.prototype.hasOwnProperty;

/**
 * Whether makeEvent's loop would leave the usage as it is (every field its own and kept by inRange,
 * so no copy and no finding): named loads for the common case, the loop for the rest.
 */
function usageKept(u: Usage): boolean {
  return (
    keptCount(u.inputTokens) && keptCount(u.outputTokens) && keptCount(u.cacheReadTokens) && keptCount(u.cacheWriteTokens) &&
    own.call(u, 'inputTokens') && own.call(u, 'outputTokens') && own.call(u, 'cacheReadTokens') && own.call(u, 'cacheWriteTokens')
  );
}

/** Builds the event of one record on `spec`: clips, applies the id rule, records INVALID_ID and OUT_OF_RANGE. */
export function makeEvent(spec: ChannelSpec, d: EventDraft, sink: FindingSink): BuiltEvent {
  const scope = typeof d.scope === 'string' ? clipText(d.scope) : typeof d.scope === 'number' ? String(d.scope) : '';
  let attrs = clipAttrs(d.attrs);
  // Out-of-range numbers become unknown here, so none reaches a sum, a difference or a histogram.
  // The event shares the draft's usage (and attrs) unless a value changes: then it has copies.
  const usage = attrs.usage;
  let u = usage;
  if (usage && !usageKept(usage)) {
    for (let i = 0; i < USAGE_FIELDS.length; i++) {
      const k = USAGE_FIELDS[i]!;
      const v = inRange(usage[k], 'count', USAGE_FIELD_NAMES[i]!, spec.name, scope, d.loc, sink);
      if (v !== usage[k] || !Object.prototype.hasOwnProperty.call(usage, k)) {
        if (u === usage) u = { ...usage };
        u![k] = v;
      }
    }
  }
  const ms = attrs.durationMs !== undefined ? inRange(attrs.durationMs, 'duration', 'durationMs', spec.name, scope, d.loc, sink) : undefined;
  if (u !== usage || ms !== attrs.durationMs) {
    if (attrs === d.attrs) attrs = { ...attrs };
    if (u !== usage) attrs.usage = u;
    if (ms !== attrs.durationMs) attrs.durationMs = ms;
  }
  let id: string | null = null;
  let idLabel: string | undefined;
  if (typeof d.id === 'string') id = d.id;
  // A safe correlation id is its own key (checkCorrelationId's valid case, without its result objects).
  else if (d.id !== null && spec.idKind === 'correlation' && isSafeId(d.id.value)) id = d.id.value;
  else if (d.id !== null) {
    const c = checkId(spec.idKind, d.id.field, d.id.value);
    if (c.kind === 'valid') {
      id = c.key;
      idLabel = c.label;
    } else if (c.kind === 'invalid') sink.finding(finding('INVALID_ID', { channel: spec.name, scope, locations: [d.loc] }, c.info));
  }
  const ev: CallEvent = {
    role: d.role,
    channel: spec.name,
    scope,
    id,
    sig: d.sig === null ? null : clipSig(d.sig),
    time: inRange(d.time, 'time', 'time', spec.name, scope, d.loc, sink),
    caller: d.caller !== null ? clipText(d.caller) : d.role === 'terminal' ? UNSTATED_CALLER : DEFAULT_CALLER,
    attrs,
    // Its own Loc object: the records of one line (a JSON-RPC batch) share a path:line, and trace
    // tells their events apart by identity (src/trace/trace.ts).
    loc: d.loc.pointer === undefined ? { path: d.loc.path, line: d.loc.line } : { path: d.loc.path, line: d.loc.line, pointer: d.loc.pointer },
  };
  if (idLabel !== undefined && spec.idKind === 'protocol') ev.idLabel = idLabel;
  if (d.caller === null) ev.callerUnstated = true;
  if (d.redundant) ev.redundant = true;
  if (d.maxConfidence) ev.maxConfidence = d.maxConfidence;
  if (d.orphanNote !== undefined) ev.orphanNote = d.orphanNote;
  if (d.repeatOf !== undefined) ev.repeatOf = d.repeatOf;
  if (d.unanswered) ev.unanswered = true;
  if (d.pastWindow) ev.pastWindow = true;
  return ev as BuiltEvent;
}
