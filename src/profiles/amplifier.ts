/**
 * Amplifier LLM call events (DESIGN §3.1, reference/amplifier.md).
 *
 * Envelopes: the logging hook's line (`ts`, `lvl`, `schema`, `event`, lifted keys at top level,
 * the rest under `data`) and the flat `{event, timestamp, data}` shape. Every field is read
 * top-level first, then under `data`.
 */
import { RecentLines } from './recent.js';
import type { CallAttrs, CallEvent, ChannelSpec, Loc, Role, Usage } from '../model.js';
import { finding } from '../report/findings.js';
import type { Source } from '../input/sources.js';
import { checkCorrelationId } from './ids.js';
import { clipOrNull, clipText } from './clip.js';
import { parseTime } from './time.js';
import type { Profile, ProfileContext, RecordHandler, RecordOutcome } from './types.js';
import { asNumber, asObject, asString, field } from './types.js';

export const LLM_CHANNEL: ChannelSpec = {
  name: 'llm',
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

/** Top-level keys the profile reads (DESIGN §3.1), and the keys it reads under `data`. */
const TOP_KEYS = ['event', 'ts', 'timestamp', 'session_id', 'request_id', 'provider', 'model', 'status', 'error', 'usage', 'duration_ms'];
const DATA_KEYS = ['timestamp', 'caller', 'purpose', 'session_id', 'request_id', 'provider', 'model', 'status', 'error', 'usage', 'duration_ms'];

function pick(o: Record<string, unknown>, keys: readonly string[], out: Record<string, unknown>): Record<string, unknown> {
  for (const k of keys) if (Object.prototype.hasOwnProperty.call(o, k)) out[k] = o[k];
  return out;
}

/** `Profile.keep`: what `record` reads of a value; everything else (e.g. `data.raw`) is dropped. */
export function amplifierKeep(value: unknown): unknown {
  const top = asObject(value);
  if (!top) return value;
  const name = top.event;
  if (typeof name !== 'string' || !ROLES.has(name)) return pick(top, ['event'], {});
  const out = pick(top, TOP_KEYS, {});
  const data = asObject(top.data);
  if (data) out.data = pick(data, DATA_KEYS, {});
  return out;
}

interface LastFamily {
  event: string;
  status: string | null;
  provider: string | null;
}

export function amplifierProfile(): Profile {
  // Per scope: the previous family event (for the redundant provider:error rule). Scopes are
  // session ids; this is one small record per scope.
  const last = new Map<string, LastFamily>();
  return {
    name: 'amplifier',
    channels: [LLM_CHANNEL],
    // The event names of the family, with their quotes: `"llm:request:debug"`, `"llm:stream_…"`
    // lines are never parsed. Needles of 7 bytes or more are searched with Boyer-Moore-Horspool.
    needles: ['"llm:request"', '"llm:response"', '"provider:'],
    classify: { capture: { key: 'event', values: [...ROLES.keys()], other: 'ignored', absent: 'unclaimed' } },
    keep: amplifierKeep,
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role !== 'capture') return null;
      const recent = new RecentLines(DUP_WINDOW);
      return {
        record(value: unknown, loc: Loc, raw: Buffer | null, digest?: string): RecordOutcome {
          const top = asObject(value);
          if (!top) return 'unclaimed';
          const name = top.event;
          if (typeof name !== 'string') return 'unclaimed';
          const role = ROLES.get(name);
          if (!role) return 'ignored';
          if ((raw || digest !== undefined) && recent.seen(raw, digest)) return 'duplicate';
          const ev = toEvent(top, name, role, loc, ctx);
          // The redundant provider:error rule: an unstamped provider:error right after an error
          // llm:response of the same provider in its scope re-reports a closed failure.
          const prev = last.get(ev.scope);
          if (name === 'provider:error' && ev.id === null && prev && prev.event === 'llm:response' && prev.status === 'error') {
            const p = ev.attrs.provider ?? null;
            if (p === null || prev.provider === null || p === prev.provider) ev.redundant = true;
          }
          last.set(ev.scope, { event: name, status: ev.attrs.status ?? null, provider: ev.attrs.provider ?? null });
          ctx.emit(ev);
          return 'used';
        },
      };
    },
  };
}

function toEvent(top: Record<string, unknown>, name: string, role: Role, loc: Loc, ctx: ProfileContext): CallEvent {
  const data = asObject(top.data);
  const sid = field(top, data, 'session_id');
  const scope = typeof sid === 'string' ? clipText(sid) : typeof sid === 'number' ? String(sid) : '';
  const idCheck = checkCorrelationId('request_id', field(top, data, 'request_id'));
  let id: string | null = null;
  if (idCheck.kind === 'valid') id = idCheck.id;
  else if (idCheck.kind === 'invalid') ctx.finding(finding('INVALID_ID', { channel: 'llm', scope, locations: [loc] }, idCheck.info));

  const time = parseTime(data?.timestamp) ?? parseTime(top.ts) ?? parseTime(top.timestamp);
  const statedCaller = clipOrNull(asString(data?.caller) ?? asString(data?.purpose));
  const caller = statedCaller ?? 'main';
  const provider = clipOrNull(asString(field(top, data, 'provider')));
  const model = clipOrNull(asString(field(top, data, 'model')));

  const attrs: CallAttrs = { kind: name, provider, model };
  if (role === 'terminal') {
    const status = clipOrNull(asString(field(top, data, 'status')));
    attrs.status = name === 'provider:error' ? 'error' : (status ?? 'ok');
    attrs.error = clipOrNull(errorText(field(top, data, 'error')));
    attrs.usage = readUsage(field(top, data, 'usage'));
    attrs.durationMs = asNumber(field(top, data, 'duration_ms'));
  }
  return {
    role,
    channel: 'llm',
    scope,
    id,
    sig: [provider, model, statedCaller],
    time,
    caller,
    attrs,
    loc,
  };
}

function errorText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  const o = asObject(v);
  if (o) return asString(o.msg) ?? asString(o.message) ?? asString(o.type);
  return null;
}

function num(o: Record<string, unknown>, a: string, b: string): number | null {
  return asNumber(o[a]) ?? asNumber(o[b]);
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
