/**
 * Amplifier LLM call events (docs/design.md §3.1).
 *
 * Envelopes: the logging hook's line (`ts`, `lvl`, `schema`, `event`, lifted keys at top level,
 * the rest under `data`) and the flat `{event, timestamp, data}` shape. Every field is read
 * top-level first, then under `data`.
 */
import { Generations } from '../engine/recent.js';
import { RecentLines } from './recent.js';
import type { CallAttrs, ChannelSpec, Loc, Role, Usage } from '../model.js';
import type { Source } from '../input/sources.js';
import { type BuiltEvent, makeEvent } from './event.js';
import { applyKeep, type KeepSpec } from './keep.js';
import { guessEpochUnit, parseEpoch, parseRfc3339 } from './lang/time.js';
import { parseTime } from './time.js';
import type { NoteCode } from '../report/notes.js';
import type { Profile, ProfileContext, RecordHandler, RecordOutcome } from './types.js';
import { asObject, asString, field } from './types.js';

export const LLM_CHANNEL: ChannelSpec = {
  name: 'llm',
  rowLabel: 'caller',
  attribution: 'caller',
  groupLabels: ['provider', 'model'],
  // `ok` (and a `success` some hooks write) are the only good outcomes; error, cancelled, timeout… fail.
  failure: { kind: 'status-not-in', statuses: ['ok', 'success'] },
  idKind: 'correlation',
  ordered: false,
  signatureFields: ['provider', 'model', 'caller'],
};

const ROLES = new Map<string, Role>([
  ['llm:request', 'request'],
  ['llm:response', 'terminal'],
  ['provider:error', 'terminal'],
  ['provider:retry', 'interim'],
  ['provider:throttle', 'interim'],
]);

/** How many recent family lines of a file are compared for exact duplicates. */
const DUP_WINDOW = 64;

/** Top-level keys the profile reads (docs/design.md §3.1), and the keys it reads under `data`. */
const TOP_KEYS = ['event', 'ts', 'timestamp', 'session_id', 'request_id', 'provider', 'model', 'status', 'error', 'usage', 'duration_ms'];
const DATA_KEYS = ['timestamp', 'caller', 'purpose', 'session_id', 'request_id', 'provider', 'model', 'status', 'error', 'usage', 'duration_ms'];

/** `Profile.keep`: what `record` reads of a value; everything else (e.g. `data.raw`) is dropped. */
const DATA_TREE = Object.fromEntries(DATA_KEYS.map((k) => [k, true]));
export const AMPLIFIER_KEEP: KeepSpec = {
  // `data.data`: the azure-openai provider's captures before late 2025 nest the payload once more.
  tree: Object.fromEntries([...TOP_KEYS.map((k) => [k, true]), ['data', { ...DATA_TREE, data: DATA_TREE }]]),
};

export function amplifierKeep(value: unknown): unknown {
  return applyKeep(AMPLIFIER_KEEP, value);
}

interface LastFamily {
  event: string;
  status: string | null;
  provider: string | null;
}

/** Scopes whose last family event is remembered (per generation). */
const LAST_WINDOW = 50_000;

/**
 * Times this run read other than as Amplifier writes them (ISO 8601 text with a zone): counted, and
 * said in the report's notes (records.amplifier; docs/profiles.md, "Amplifier times").
 */
interface TimeTally {
  /** JSON numbers: epoch s / µs / ns when their magnitude says so, else milliseconds. */
  numericTimes: number;
  /** ISO 8601 without a zone, read as UTC. */
  naiveTimes: number;
  /** Events whose stated times were all unreadable (a date the calendar lacks, text that is no time): no time. */
  unreadableTimes: number;
}

export function amplifierProfile(): Profile {
  return amplifierProfileWithWindow(LAST_WINDOW);
}

/** The profile with another window of last events (tests make it small). */
export function amplifierProfileWithWindow(lastWindow: number): Profile {
  const times: TimeTally = { numericTimes: 0, naiveTimes: 0, unreadableTimes: 0 };
  /**
   * Unstamped provider:error events of a session the window of last events did not hold, once it had
   * forgotten some (a new session or a forgotten one: the window cannot tell): whether each re-reports
   * a closed failure could not be told (records.amplifier.unknownPrevious when some were, a note).
   */
  let unknownPrevious = 0;
  // Per scope: the previous family event (for the redundant provider:error rule). Scopes are
  // session ids, so this is bounded: two generations of at most LAST_WINDOW scopes each (a scope
  // silent for that many others forgets its last event; docs/design.md §8).
  const last = new Generations<LastFamily>(lastWindow);
  return {
    name: 'amplifier',
    channels: [LLM_CHANNEL],
    // The event names of the family, with their quotes: `"llm:request:debug"`, `"llm:stream_…"`
    // lines are never parsed. Needles of 7 bytes or more are searched with Boyer-Moore-Horspool.
    needles: ['"llm:request"', '"llm:response"', '"provider:'],
    classify: { capture: { key: 'event', values: [...ROLES.keys()], other: 'ignored', absent: 'unclaimed' } },
    keep: AMPLIFIER_KEEP,
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role !== 'capture') return null;
      const recent = new RecentLines(DUP_WINDOW);
      return {
        record(value: unknown, loc: Loc, raw: Buffer | null): RecordOutcome {
          const top = asObject(value);
          if (!top) return 'unclaimed';
          const name = top.event;
          if (typeof name !== 'string') return 'unclaimed';
          const role = ROLES.get(name);
          if (!role) return 'ignored';
          if (raw && recent.seen(raw)) return 'duplicate';
          const ev = toEvent(top, name, role, loc, ctx, times);
          // The redundant provider:error rule: an unstamped provider:error right after an error
          // llm:response of the same provider in its scope re-reports a closed failure.
          const prev = last.get(ev.scope);
          if (name === 'provider:error' && ev.id === null && prev && prev.event === 'llm:response' && prev.status === 'error') {
            const p = ev.attrs.provider ?? null;
            if (p === null || prev.provider === null || p === prev.provider) ev.redundant = true;
          } else if (name === 'provider:error' && ev.id === null && !prev && last.dropped) {
            // Read as a new outcome; a larger window might have found it a re-report (a note says so).
            unknownPrevious++;
          }
          // The scope's entry is updated in place when it has one (only this map holds it; `set` still
          // moves it to the current generation), so no object is made per event.
          const status = ev.attrs.status ?? null;
          const provider = ev.attrs.provider ?? null;
          if (prev) {
            prev.event = name;
            prev.status = status;
            prev.provider = provider;
            last.set(ev.scope, prev);
          } else last.set(ev.scope, { event: name, status, provider });
          ctx.emit(ev);
          return 'used';
        },
      };
    },
    summary: () => (times.numericTimes + times.naiveTimes + times.unreadableTimes + unknownPrevious > 0 ? { ...times, ...(unknownPrevious > 0 ? { unknownPrevious } : {}) } : undefined),
    notes() {
      const out: NoteCode[] = [];
      if (times.numericTimes > 0) out.push('amplifier-numeric-times');
      if (times.naiveTimes > 0) out.push('amplifier-naive-times');
      if (times.unreadableTimes > 0) out.push('amplifier-unreadable-times');
      if (unknownPrevious > 0) out.push('amplifier-unknown-previous');
      return out;
    },
  };
}

/**
 * The payload: `data`, or, when `data` nests it once more (`data.data`, the azure-openai provider's
 * captures before late 2025), the two levels merged, the outer one first.
 */
function payload(top: Record<string, unknown>): Record<string, unknown> | null {
  const data = asObject(top.data);
  const inner = asObject(data?.data);
  if (!data || !inner) return data;
  const out: Record<string, unknown> = {};
  for (const k of DATA_KEYS) {
    const v = data[k] !== undefined ? data[k] : inner[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function toEvent(top: Record<string, unknown>, name: string, role: Role, loc: Loc, ctx: ProfileContext, times: TimeTally): BuiltEvent {
  const data = payload(top);
  const time = eventTime(data?.timestamp, top.ts, top.timestamp, times);
  const statedCaller = asString(data?.caller) ?? asString(data?.purpose);
  const provider = asString(field(top, data, 'provider'));
  const model = asString(field(top, data, 'model'));

  // One literal per role (a terminal's attrs made whole, not grown key by key), keys in this order.
  const attrs: CallAttrs =
    role === 'terminal'
      ? {
          kind: name,
          provider,
          model,
          // An llm:response that states no status has none (null, never a made-up `ok`); it is not a failure.
          status: name === 'provider:error' ? 'error' : asString(field(top, data, 'status')),
          error: errorText(field(top, data, 'error')),
          usage: readUsage(field(top, data, 'usage')),
          durationMs: rawNumber(field(top, data, 'duration_ms')),
        }
      : { kind: name, provider, model };
  return makeEvent(
    LLM_CHANNEL,
    {
      role,
      scope: field(top, data, 'session_id'),
      id: { field: 'request_id', value: field(top, data, 'request_id') },
      sig: [provider, model, statedCaller],
      time,
      caller: statedCaller ?? null,
      attrs,
      loc,
    },
    ctx,
  );
}

function errorText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  const o = asObject(v);
  if (o) return asString(o.msg) ?? asString(o.message) ?? asString(o.type);
  return null;
}

function rawNumber(v: unknown): number | null {
  return typeof v === 'number' ? v : null;
}

/**
 * The event's time: the first of `data.timestamp`, `ts`, `timestamp` that reads. ISO 8601 with a
 * zone (what Amplifier writes); without one, read as UTC; a JSON number by its magnitude (epoch s,
 * µs, ns), else as milliseconds — a number goes to makeEvent as it is, so out of range (1e306) it
 * is an OUT_OF_RANGE finding there. Each way other than the first is counted in `times`.
 */
function eventTime(a: unknown, b: unknown, c: unknown, times: TimeTally): number | null {
  let stated = false;
  for (let i = 0; i < 3; i++) {
    const v = i === 0 ? a : i === 1 ? b : c;
    if (v === undefined || v === null) continue;
    stated = true;
    if (typeof v === 'string') {
      const ms = parseTime(v);
      if (ms !== null) return ms;
      const p = parseRfc3339(v);
      if (p !== null) {
        if (p.naive) times.naiveTimes++;
        return p.ms;
      }
    } else if (typeof v === 'number') {
      times.numericTimes++;
      const unit = guessEpochUnit(v);
      return unit === null || unit === 'ms' ? v : parseEpoch(v, unit);
    }
  }
  if (stated) times.unreadableTimes++;
  return null;
}

function num(o: Record<string, unknown>, a: string, b: string): number | null {
  return rawNumber(o[a]) ?? rawNumber(o[b]);
}

/** Usage in both eras: `input_tokens`… and the older `input`/`output`/`cache_read`/`cache_write`. */
export function readUsage(v: unknown): Usage | null {
  const o = asObject(v);
  if (!o) return null;
  return {
    inputTokens: num(o, 'input_tokens', 'input'),
    outputTokens: num(o, 'output_tokens', 'output'),
    cacheReadTokens: num(o, 'cache_read_tokens', 'cache_read'),
    cacheWriteTokens: num(o, 'cache_write_tokens', 'cache_write'),
  };
}
