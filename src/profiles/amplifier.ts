/**
 * Amplifier LLM call events (DESIGN §3.1, reference/amplifier.md).
 *
 * Envelopes: the logging hook's line (`ts`, `lvl`, `schema`, `event`, lifted keys at top level,
 * the rest under `data`) and the flat `{event, timestamp, data}` shape. Every field is read
 * top-level first, then under `data`.
 */
import { createHash } from 'node:crypto';
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
    needles: ['"llm:', '"provider:'],
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role !== 'capture') return null;
      const recent: string[] = [];
      const recentSet = new Map<string, number>();
      return {
        record(value: unknown, loc: Loc, raw: Buffer | null): RecordOutcome {
          const top = asObject(value);
          if (!top) return 'unclaimed';
          const name = top.event;
          if (typeof name !== 'string') return 'unclaimed';
          const role = ROLES.get(name);
          if (!role) return 'ignored';
          if (raw) {
            const h = createHash('sha1').update(raw).digest('base64');
            if (recentSet.has(h)) return 'duplicate';
            recent.push(h);
            recentSet.set(h, (recentSet.get(h) ?? 0) + 1);
            if (recent.length > DUP_WINDOW) {
              const old = recent.shift()!;
              const n = recentSet.get(old)! - 1;
              if (n === 0) recentSet.delete(old);
              else recentSet.set(old, n);
            }
          }
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
