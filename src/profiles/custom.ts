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
import { recordLines } from '../input/documents.js';
import { deriveNeedles } from './lang/needles.js';
import type { Path } from './lang/path.js';
import { parseProfileSpec, ProfileSpecError, specMarkers, type Cond, type ProfileSpec, type TimeRule } from './lang/spec.js';
import { displayArg } from '../formatters/safe.js';
import { finding, type FindingDataMap } from '../report/findings.js';
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
    // Ids are declared by the profile's `id` or by any role's own `id` (paths per role).
    ...(spec.id === null && !spec.roles.some((r) => r.id != null) ? { ids: 'undeclared' as const } : {}),
  };
}

/** The keys of a path up to its first array step; what lies beyond is kept whole (a `$.` path: from the top). */
function pathTree(p: Path): KeepTree {
  const keys: string[] = [];
  for (const s of p[0] && 'root' in p[0] ? p.slice(1) : p) {
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

const timePaths = (t: TimeRule | null | undefined): Path[] => (t ? t.alts.flatMap((a) => a.map((x) => x.path)) : []);

/** Every path the profile file names: what `record` reads (with a `records` path: all of it, and the `$.` paths). */
export function customKeep(spec: CustomProfileSpec): KeepSpec {
  const paths = specPaths(spec);
  if (spec.records !== null) {
    // Inside the records everything is kept; beside them only what `$.` paths name.
    const rootPaths = paths.filter(isRootPath);
    return unionKeep([{ tree: pathTree(spec.records.slice(0, 1)) }, ...rootPaths.map((p) => ({ tree: pathTree(p) }))]);
  }
  return unionKeep(paths.map((p) => ({ tree: pathTree(p) })));
}

const isRootPath = (p: Path) => p[0] !== undefined && 'root' in p[0];

/** Every path the profile file names. */
function specPaths(spec: CustomProfileSpec): Path[] {
  const paths: Path[] = [...spec.signature.map((s) => s.path), ...spec.group];
  for (const r of spec.roles) {
    condPaths(r.when, paths);
    paths.push(...(r.id?.parts ?? []), ...timePaths(r.time), ...(r.signature ?? []).filter((x): x is Path => x !== null));
    if (r.scope?.path) paths.push(r.scope.path);
  }
  for (const p of [spec.scope?.path, ...(spec.id?.parts ?? []), ...timePaths(spec.time), ...timePaths(spec.start), ...timePaths(spec.end), spec.duration?.path, spec.caller, spec.status, spec.error, spec.direction?.path])
    if (p) paths.push(p);
  return paths;
}

export interface CustomSummary {
  records: number;
  calls: number;
  /** Times read from RFC 3339 without a zone (as UTC). */
  naiveTimes: number;
  /** Time fields present that the profile's format could not read (a number without a unit…). */
  unreadableTimes: number;
  /** Records of `event` rules: they expect no outcome (counted, never requests or orphans). */
  events?: number;
  /** `half` rules: calls whose halves were both seen, and halves never answered that stand alone (`alone`). */
  halves?: number;
  oneSided?: number;
  /** `relay` records: each closed one call and opened the next. */
  relays?: number;
  /** Profiles that declare retries (`interim` rules): logical calls (requests) and attempts (requests + retries) apart. */
  logicalCalls?: number;
  attempts?: number;
}

export function customProfile(spec: CustomProfileSpec): Profile {
  const channel = customChannel(spec);
  const sum: CustomSummary = { records: 0, calls: 0, naiveTimes: 0, unreadableTimes: 0 };
  if (spec.roles.some((r) => r.role === 'interim')) {
    sum.logicalCalls = 0;
    sum.attempts = 0;
  }

  // Halves open now, by scope and id key: the first half seen opens the call, the other closes it.
  // An entry goes when its call closes, so this holds only open calls (never a queue).
  const openHalves = new Map<string, { r: ReadRecord; loc: Loc; id: IdKey; label: string | undefined }>();

  // Whether the declared id ever paired (IDS_NEVER_MATCH): events with and without an id per side,
  // the profile fields their ids come from, and the first location of each kind.
  const declaresId = spec.id !== null || spec.roles.some((r) => r.id != null);
  const sides = { request: newSide(), terminal: newSide() };
  /** Terminals whose id matched a request's: paired by id, or orphaned because that request was evicted. */
  let idPairs = 0;

  function emit(r: ReadRecord, role: Role, time: number | null, id: IdKey | null, loc: Loc, ctx: ProfileContext, label?: string, whole = false, own = false): void {
    const attrs: CallAttrs = { kind: r.role === 'call' ? 'record' : role };
    if (r.durationMs !== null && role === 'terminal') attrs.durationMs = r.durationMs;
    if (spec.group[0]) attrs.provider = r.group[0];
    if (spec.group[1]) attrs.model = r.group[1];
    if (role === 'terminal') {
      attrs.status = r.status;
      attrs.error = r.error;
      attrs.durationMs ??= null;
    }
    if (sum.attempts !== undefined && (role === 'request' || role === 'interim')) {
      sum.attempts++;
      if (role === 'request') sum.logicalCalls!++;
    }
    const ev = makeEvent(channel, { role, scope: r.scope, id, sig: r.sig, time, caller: r.caller ?? null, attrs, loc }, ctx);
    // How the id is shown when its key is not (a protocol id, a direction-namespaced id).
    if (label !== undefined && label !== id) ev.idLabel = label;
    if (r.role === 'call' || (r.role === 'half' && whole)) ev.wholeRecord = true;
    if (own) ev.ownKey = true;
    const pair = ctx.emit(ev);
    // A rule whose id is null (or a profile without one) says its records carry none: not counted.
    const declared = r.rule.id !== undefined ? r.rule.id !== null : spec.id !== null;
    if (declaresId && declared && r.role !== 'call' && !whole && (role === 'request' || role === 'terminal')) {
      const s = sides[role];
      const field = r.rule.id !== undefined ? `roles[${spec.roles.indexOf(r.rule)}].id` : 'id';
      if (!s.fields.includes(field)) s.fields.push(field);
      if (id === null) s.withoutLoc ??= loc;
      else {
        s.withId++;
        s.withLoc ??= loc;
      }
      s.total++;
      if (pair?.method === 'id') idPairs++;
    }
  }

  return {
    name: spec.name,
    channels: [channel],
    needles: deriveNeedles(specMarkers(spec)),
    keep: customKeep(spec),
    splits: splitsOf(spec),
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role !== 'capture') return null;
      // A name that is not UTF-8 is matched by its displayed form (bytes escaped as \xNN).
      const fileName = source.file === null ? '-' : path.basename(typeof source.file === 'string' ? source.file : source.path);
      let callSeq = 0;
      return {
        record(value: unknown, lineLoc: Loc, _raw: Buffer | null, doc?: Buffer): RecordOutcome {
          // A record no rule takes is left to the other profiles in use (`auto,FILE.json`).
          let outcome: RecordOutcome = 'unclaimed';
          // Records inside a JSON document: each at the line where it starts, with its JSON pointer.
          const lines = spec.records !== null && doc ? recordLines(doc, spec.records) : null;
          // An element of a document read element by element (`splits`): the record itself, located already.
          const one = spec.records !== null && lineLoc.pointer !== undefined;
          let k = -1;
          for (const { value: rec, pointer } of one ? [{ value, pointer: lineLoc.pointer! }] : recordsOf(spec, value)) {
            k++;
            const loc: Loc = spec.records === null ? lineLoc : { path: lineLoc.path, line: lineLoc.line + (lines?.[k] ?? 0), pointer };
            const r = classify(spec, rec, fileName, value, source.path);
            if (r === 'unclaimed') continue;
            if (r === 'ignored') {
              if (outcome === 'unclaimed') outcome = 'ignored';
              continue;
            }
            // An `event` expects no outcome: counted, but no call event, so a log of events alone has
            // nothing to audit (NO_CALL_EVENTS, docs/profiles.md "Nothing matched never passes quietly").
            if (r.role !== 'event') outcome = 'used';
            else if (outcome === 'unclaimed') outcome = 'ignored';
            sum.records++;
            if (r.naive) sum.naiveTimes++;
            if (r.unreadableTime) sum.unreadableTimes++;
            for (const field of r.unreadableFields) ctx.finding(finding('UNREADABLE_TIME', { channel: channel.name, scope: r.scope, locations: [loc] }, { field }));
            if (r.id.kind === 'invalid') ctx.finding(finding('INVALID_ID', { channel: channel.name, scope: r.scope, locations: [loc] }, r.id.info));
            const id = r.id.kind === 'valid' ? derivedKey(r.id.key) : null;
            const label = r.id.kind === 'valid' ? r.id.label : undefined;
            if (r.role === 'call') {
              // A whole call in one record: its own request and terminal, paired by a key of this
              // record (the record's id when it has one, else its place in the input).
              sum.calls++;
              const key = id ?? derivedKey(`record:${loc.path}:${loc.line}:${++callSeq}`);
              emit(r, 'request', r.time, key, loc, ctx, label, false, id === null);
              emit(r, 'terminal', r.end, key, loc, ctx, label, false, id === null);
            } else if (r.role === 'event') {
              // Expects no outcome: counted as what it is, never a request (so never an orphan).
              sum.events = (sum.events ?? 0) + 1;
            } else if (r.role === 'relay') {
              // Closes the open call under its id, then opens the next under the same id.
              sum.relays = (sum.relays ?? 0) + 1;
              emit(r, 'terminal', r.time, id, loc, ctx, label);
              emit(r, 'request', r.time, id, loc, ctx, label);
            } else if (r.role === 'half') {
              const hk = id === null ? null : `${r.scope}\u0000${id}`;
              const first = hk === null ? undefined : openHalves.get(hk);
              if (first) {
                openHalves.delete(hk!);
                sum.halves = (sum.halves ?? 0) + 1;
                emit(r, 'terminal', r.time, id, loc, ctx, label);
              } else {
                // A half that may stand alone opens a whole call: if it is never answered, `finish`
                // closes it by itself (method `record`), never an orphan.
                const alone = r.rule.alone === 'call';
                if (hk !== null) openHalves.set(hk, { r, loc, id: id!, label });
                emit(r, 'request', r.time, id, loc, ctx, label, alone);
              }
            } else emit(r, r.role, r.time, id, loc, ctx, label);
          }
          return outcome;
        },
      };
    },
    finish(ctx: ProfileContext) {
      // Halves never answered: those of an `alone` rule are one-sided calls, closed by themselves.
      for (const { r, loc, id, label } of openHalves.values()) {
        if (r.rule.alone !== 'call') continue;
        sum.oneSided = (sum.oneSided ?? 0) + 1;
        emit(r, 'terminal', r.end, id, loc, ctx, label, true);
      }
      openHalves.clear();
      const f = idsNeverMatch(sides, idPairs);
      if (f) ctx.finding(finding('IDS_NEVER_MATCH', { channel: channel.name, locations: f.loc ? [f.loc] : [] }, f.data));
    },
    // A terminal whose request was evicted carries an id that matched one: the ids do match.
    orphanResponse(o) {
      if (o.reason === 'id-evicted') idPairs++;
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

interface IdSide {
  total: number;
  withId: number;
  fields: string[];
  withLoc: Loc | null;
  withoutLoc: Loc | null;
}

const newSide = (): IdSide => ({ total: 0, withId: 0, fields: [], withLoc: null, withoutLoc: null });

/**
 * IDS_NEVER_MATCH when both sides have events, a declared id paired none of them, and either both
 * sides carry ids (which never matched: at the first terminal with an id) or a side never carries
 * one (at its first event).
 */
function idsNeverMatch(sides: { request: IdSide; terminal: IdSide }, idPairs: number): { loc: Loc | null; data: FindingDataMap['IDS_NEVER_MATCH'] } | null {
  const { request: q, terminal: t } = sides;
  if (q.total === 0 || t.total === 0 || idPairs > 0) return null;
  const counts = { requestsWithId: q.withId, terminalsWithId: t.withId };
  if (q.withId > 0 && t.withId > 0) {
    const fields = [...q.fields, ...t.fields.filter((x) => !q.fields.includes(x))];
    return { loc: t.withLoc, data: { reason: 'never-match', side: 'both', field: fields.join(', '), ...counts } };
  }
  if (q.withId === 0 && t.withId === 0) return { loc: q.withoutLoc, data: { reason: 'missing', side: 'both', field: [...q.fields, ...t.fields.filter((x) => !q.fields.includes(x))].join(', '), ...counts } };
  const side = q.withId === 0 ? 'requests' : 'terminals';
  const s = q.withId === 0 ? q : t;
  return { loc: s.withoutLoc, data: { reason: 'missing', side, field: s.fields.join(', '), ...counts } };
}

/**
 * A `records` path of keys ending in `[]` (`log.entries[]`, `calls[]`) whose profile names no `$.`
 * path: a document over --max-line-bytes may be read element by element (docs/inputs.md, "Large
 * documents"). With `$.` paths the records need the document around them: never split.
 */
function splitsOf(spec: CustomProfileSpec): string[][] {
  const r = spec.records;
  if (r === null || r.length < 2 || !('each' in r[r.length - 1]!)) return [];
  const keys: string[] = [];
  for (const s of r.slice(0, -1)) {
    if (!('key' in s)) return [];
    keys.push(s.key);
  }
  return specPaths(spec).some(isRootPath) ? [] : [keys];
}
