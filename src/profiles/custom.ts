/**
 * A custom profile: a JSON file in the profile language (docs/profiles.md; parsed and validated by
 * lang/spec.ts, records read by lang/classify.ts) turned into one channel, whose events go through
 * the one event constructor (event.ts).
 *
 * - records: each JSON value (a line, or a document's top-level value or array element), or the
 *   values at the `records` path inside it (`records[].record`, `log.entries[]`);
 * - role: the first rule of `roles` whose condition holds (a field's value, its presence, the input
 *   file's name); a record no rule takes is ignored;
 * - a `call` record holds a whole call (start and end time, outcome): it becomes a request and its
 *   terminal, paired by a key of the record's own;
 * - ids: correlation ids (the safe-shape rule) or typed protocol ids (`"idKind": "protocol"`),
 *   namespaced by `direction` when the profile names one;
 * - needles are derived from the roles (lang/needles.ts), never written by hand.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CallAttrs, ChannelSpec, Loc, Role } from '../model.js';
import type { Source } from '../input/sources.js';
import { derivedKey, type IdKey, makeEvent } from './event.js';
import { type KeepSpec, type KeepTree, unionKeep } from './keep.js';
import { classify, recordsOf, type ReadRecord } from './lang/classify.js';
import { deriveNeedles } from './lang/needles.js';
import type { Path } from './lang/path.js';
import { parseProfileSpec, ProfileSpecError, specMarkers, type Cond, type ProfileSpec } from './lang/spec.js';
import { displayArg } from '../formatters/safe.js';
import { finding } from '../report/findings.js';
import type { NoteCode } from '../report/notes.js';
import type { Profile, ProfileContext, RecordHandler, RecordOutcome } from './types.js';

export type CustomProfileSpec = ProfileSpec;
/** A profile file that cannot be used (a usage error: one line, exit 2). */
export const CustomProfileError = ProfileSpecError;
export type CustomProfileError = ProfileSpecError;

/** Validates a parsed profile file. */
export function parseCustomSpec(raw: unknown): CustomProfileSpec {
  return parseProfileSpec(raw);
}

export function loadCustomSpec(file: string): CustomProfileSpec {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CustomProfileError(`cannot read profile ${displayArg(file)}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CustomProfileError(`profile ${displayArg(file)} is not valid JSON: ${(e as Error).message}`);
  }
  return parseCustomSpec(raw);
}

/** Reads a path of own keys; anything missing is undefined. */
export function at(v: unknown, keys: readonly string[]): unknown {
  let cur: unknown = v;
  for (const k of keys) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, k)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** The channel a custom profile file declares. */
export function customChannel(spec: CustomProfileSpec): ChannelSpec {
  return {
    name: spec.channel,
    rowLabel: spec.rowLabel,
    attribution: spec.attribution === 'group' ? 'provider' : 'caller',
    groupLabels: spec.groupLabels.length >= 2 ? [spec.groupLabels[0]!, spec.groupLabels[1]!] : [spec.groupLabels[0] ?? 'group'],
    failure: spec.failure,
    idKind: spec.idKind,
    ordered: spec.ordered,
    signatureFields: spec.signature.map((s) => s.name),
    ...(spec.id === null ? { ids: 'undeclared' as const } : {}),
  };
}

/** The keys of a path up to its first array step; what lies beyond is kept whole. */
function pathTree(p: Path): KeepTree {
  const keys: string[] = [];
  for (const s of p) {
    if (!('key' in s)) break;
    keys.push(s.key);
  }
  if (keys.length === 0) return {};
  let t: true | KeepTree = true;
  for (let i = keys.length - 1; i >= 0; i--) t = { [keys[i]!]: t } as KeepTree;
  return t as KeepTree;
}

function condPaths(c: Cond | null, out: Path[]): void {
  if (!c) return;
  if (c.kind === 'equals' || c.kind === 'has' || c.kind === 'present' || c.kind === 'missing') out.push(c.path);
  else if (c.kind === 'all' || c.kind === 'any') for (const x of c.conds) condPaths(x, out);
}

/** Every path the profile file names: what `record` reads (with a `records` path: all of it). */
export function customKeep(spec: CustomProfileSpec): KeepSpec {
  if (spec.records !== null) return { tree: pathTree(spec.records.slice(0, 1)) };
  const paths: Path[] = [...spec.signature.map((s) => s.path), ...spec.group];
  for (const r of spec.roles) condPaths(r.when, paths);
  for (const p of [spec.scope, spec.id, spec.time?.path, spec.start?.path, spec.end?.path, spec.duration?.path, spec.caller, spec.status, spec.error, spec.direction?.path])
    if (p) paths.push(p);
  return unionKeep(paths.map((p) => ({ tree: pathTree(p) })));
}

export interface CustomSummary {
  records: number;
  calls: number;
  /** Times read from RFC 3339 without a zone (as UTC). */
  naiveTimes: number;
  /** Time fields present that the profile's format could not read (a number without a unit…). */
  unreadableTimes: number;
}

export function customProfile(spec: CustomProfileSpec): Profile {
  const channel = customChannel(spec);
  const sum: CustomSummary = { records: 0, calls: 0, naiveTimes: 0, unreadableTimes: 0 };

  function emit(r: ReadRecord, role: Role, time: number | null, id: IdKey | null, loc: Loc, ctx: ProfileContext, label?: string, own = false): void {
    const attrs: CallAttrs = { kind: r.role === 'call' ? 'record' : role };
    if (spec.group[0]) attrs.provider = r.group[0];
    if (spec.group[1]) attrs.model = r.group[1];
    if (role === 'terminal') {
      attrs.status = r.status;
      attrs.error = r.error;
      attrs.durationMs = null;
    }
    const ev = makeEvent(channel, { role, scope: r.scope, id, sig: r.sig, time, caller: r.caller ?? null, attrs, loc }, ctx);
    // How the id is shown when its key is not (a protocol id, a direction-namespaced id).
    if (label !== undefined && label !== id) ev.idLabel = label;
    if (r.role === 'call') ev.wholeRecord = true;
    if (own) ev.ownKey = true;
    ctx.emit(ev);
  }

  return {
    name: spec.name,
    channels: [channel],
    needles: deriveNeedles(specMarkers(spec)),
    keep: customKeep(spec),
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role !== 'capture') return null;
      // A name that is not UTF-8 is matched by its displayed form (bytes escaped as \xNN).
      const fileName = source.file === null ? '-' : path.basename(typeof source.file === 'string' ? source.file : source.path);
      let callSeq = 0;
      return {
        record(value: unknown, loc: Loc): RecordOutcome {
          // A record no rule takes is left to the other profiles in use (`auto,FILE.json`).
          let outcome: RecordOutcome = 'unclaimed';
          for (const rec of recordsOf(spec, value)) {
            const r = classify(spec, rec, fileName);
            if (r === 'unclaimed') continue;
            if (r === 'ignored') {
              if (outcome === 'unclaimed') outcome = 'ignored';
              continue;
            }
            outcome = 'used';
            sum.records++;
            if (r.naive) sum.naiveTimes++;
            if (r.unreadableTime) sum.unreadableTimes++;
            if (r.id.kind === 'invalid') ctx.finding(finding('INVALID_ID', { channel: channel.name, scope: r.scope, locations: [loc] }, r.id.info));
            const id = r.id.kind === 'valid' ? derivedKey(r.id.key) : null;
            const label = r.id.kind === 'valid' ? r.id.label : undefined;
            if (r.role === 'call') {
              // A whole call in one record: its own request and terminal, paired by a key of this
              // record (the record's id when it has one, else its place in the input).
              sum.calls++;
              const key = id ?? derivedKey(`record:${loc.path}:${loc.line}:${++callSeq}`);
              emit(r, 'request', r.time, key, loc, ctx, label, id === null);
              emit(r, 'terminal', r.end, key, loc, ctx, label, id === null);
            } else emit(r, r.role, r.time, id, loc, ctx, label);
          }
          return outcome;
        },
      };
    },
    summary: () => (sum.records > 0 ? { ...sum } : undefined),
    notes() {
      const out: NoteCode[] = [];
      if (sum.naiveTimes > 0) out.push('custom-naive-times');
      if (sum.unreadableTimes > 0) out.push('custom-unreadable-times');
      return out;
    },
  };
}
