/**
 * The one event constructor. Every profile (custom ones included) builds its events here: strings
 * are clipped (clip.ts), the id goes through the rule of the channel's id kind (correlation ids: the
 * safe-shape rule of ids.ts; protocol ids: typed, a string or a number) and an invalid id is recorded
 * as an INVALID_ID finding, never kept. `ProfileContext.emit` accepts only a `BuiltEvent`, which only
 * this module makes, so a profile cannot skip it.
 */
import type { CallAttrs, CallEvent, ChannelSpec, Confidence, Loc, Role } from '../model.js';
import type { Finding, InvalidIdInfo } from '../report/findings.js';
import { finding } from '../report/findings.js';
import { clipOrNull, clipText } from './clip.js';
import { checkCorrelationId, MAX_ID_LENGTH, sha256Prefix } from './ids.js';

declare const built: unique symbol;
/** A CallEvent made by `makeEvent` (the only kind `ProfileContext.emit` takes). */
export type BuiltEvent = CallEvent & { readonly [built]: true };

declare const keyed: unique symbol;
/** An engine id key that went through `checkId` (a valid correlation id or a typed protocol id). */
export type IdKey = string & { readonly [keyed]: true };

export type IdResult = { kind: 'none' } | { kind: 'valid'; key: IdKey; label?: string } | { kind: 'invalid'; info: InvalidIdInfo };

/** Protocol ids: a string of 1–128 characters or a finite number; the key keeps the type (`9` ≠ `"9"`). */
function checkProtocolId(field: string, v: unknown): IdResult {
  if (v === undefined || v === null) return { kind: 'none' };
  if (typeof v === 'number' && Number.isFinite(v)) return { kind: 'valid', key: `n:${v}` as IdKey, label: String(v) };
  if (typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_LENGTH) {
    const c = checkCorrelationId(field, v);
    // A safe string is shown as is; any other string is keyed by its hash and never shown.
    if (c.kind === 'valid') return { kind: 'valid', key: `s:${v}` as IdKey, label: JSON.stringify(v) };
    return { kind: 'valid', key: `h:${sha256Prefix(v)}` as IdKey };
  }
  const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? typeof v);
  const reason: InvalidIdInfo['reason'] = typeof v === 'string' ? (v.length === 0 ? 'bad-characters' : 'too-long') : 'not-a-string-or-number';
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
  caller: string;
  attrs: CallAttrs;
  loc: Loc;
  redundant?: boolean;
  maxConfidence?: Confidence;
  orphanNote?: string;
}

export interface FindingSink {
  finding(f: Finding): void;
}

function clipAttrs(a: CallAttrs): CallAttrs {
  const out: CallAttrs = { ...a };
  for (const k of ['provider', 'model', 'status', 'error', 'tool', 'kind'] as const) {
    const v = out[k];
    if (typeof v === 'string') (out as Record<string, unknown>)[k] = clipText(v);
  }
  return out;
}

/** Builds the event of one record on `spec`: clips, applies the id rule, records INVALID_ID. */
export function makeEvent(spec: ChannelSpec, d: EventDraft, sink: FindingSink): BuiltEvent {
  const scope = typeof d.scope === 'string' ? clipText(d.scope) : typeof d.scope === 'number' ? String(d.scope) : '';
  let id: string | null = null;
  let idLabel: string | undefined;
  if (typeof d.id === 'string') id = d.id;
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
    sig: d.sig === null ? null : d.sig.map((v) => clipOrNull(v)),
    time: d.time,
    caller: clipText(d.caller),
    attrs: clipAttrs(d.attrs),
    loc: d.loc,
  };
  if (idLabel !== undefined && spec.idKind === 'protocol') ev.idLabel = idLabel;
  if (d.redundant) ev.redundant = true;
  if (d.maxConfidence) ev.maxConfidence = d.maxConfidence;
  if (d.orphanNote !== undefined) ev.orphanNote = d.orphanNote;
  return ev as BuiltEvent;
}
