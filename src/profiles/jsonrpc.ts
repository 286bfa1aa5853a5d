/**
 * JSON-RPC 2.0 transcripts (MCP and any other JSON-RPC protocol): `--profile jsonrpc`, and
 * `auto` on records holding `"jsonrpc": "2.0"` (docs/profiles.md, "jsonrpc").
 *
 * A record is a message, a batch (an array of messages on one line), or a wrapper around one:
 * `{"direction": "sent"|"received"|…, "message": {…}}` (also `dir`; `msg`, `payload`, `data`,
 * `req`, `res` for the message), or `{"sent": {…}}` / `{"received": {…}}`. A wrapper's
 * `timestamp`/`ts`/`time` is the message's time (RFC 3339 with or without zone, or epoch numbers
 * whose unit their magnitude gives).
 *
 * - request (`method` and `id`) → request event; notification (`method`, no `id`) → counted, never
 *   a call; response (`result` or `error`, and `id`) → terminal, failed when `error` is set (its
 *   `code` kept as the error).
 * - ids are typed protocol ids: `9` and `"9"` are different calls (keys `jsonrpc:n:9`,
 *   `jsonrpc:s:9`); only strings and numbers are ids; anything else is INVALID_ID and the message
 *   is not a call. An error response with `"id": null` (the server could not read the request's
 *   id) answers nothing: it is an orphan response.
 * - when a record states its direction, ids are namespaced by the side that sent the request, so a
 *   server→client request (MCP sampling, elicitation, ping) never takes a client→server response.
 * - attribution: the request's `method`, and `params.name` (the MCP tool) when it is a string.
 */
import type { CallAttrs, ChannelSpec, Loc, Role } from '../model.js';
import { finding } from '../report/findings.js';
import type { NoteCode } from '../report/notes.js';
import type { Source } from '../input/sources.js';
import { checkId, derivedKey, makeEvent } from './event.js';
import { sha256Prefix } from './ids.js';
import { deriveNeedles } from './lang/needles.js';
import { parseTimeLoose } from './lang/time.js';
import type { KeepSpec, KeepTree } from './keep.js';
import type { Profile, ProfileContext, RecordHandler, RecordOutcome } from './types.js';
import { asObject, asString } from './types.js';

export const JSONRPC_CHANNEL: ChannelSpec = {
  name: 'jsonrpc',
  // Rows are methods (`tools/call`, `initialize`…); latency per method and MCP tool.
  rowLabel: 'method',
  attribution: 'provider',
  groupLabels: ['method', 'tool'],
  // An error response is a failed outcome.
  failure: { kind: 'error-present' },
  idKind: 'protocol',
  ordered: false,
  signatureFields: ['method', 'tool'],
  // Every request and response has an id; nothing pairs by order or content.
  signatureRequired: true,
};

/** Direction words, as [request-sender side, other side]. */
const DIRECTION_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['sent', 'received'],
  ['send', 'recv'],
  ['outgoing', 'incoming'],
  ['outbound', 'inbound'],
  ['out', 'in'],
  ['egress', 'ingress'],
  ['client_to_server', 'server_to_client'],
  ['client-to-server', 'server-to-client'],
  ['client->server', 'server->client'],
  ['c2s', 's2c'],
  ['to_server', 'to_client'],
  ['request', 'response'],
  ['tx', 'rx'],
];
const OPPOSITE = new Map<string, string>();
for (const [a, b] of DIRECTION_PAIRS) {
  OPPOSITE.set(a, b);
  OPPOSITE.set(b, a);
}

const MESSAGE_KEYS = ['message', 'msg', 'payload', 'data', 'req', 'res'];
const DIRECTION_KEYS = ['direction', 'dir'];
const DIRECTION_WRAPPER_KEYS = ['sent', 'received', 'outgoing', 'incoming', 'send', 'recv'];
const TIME_KEYS = ['timestamp', 'ts', 'time'];

/** What the profile reads of a message: presence of `result` (an empty object keeps it), the rest by name. */
const MESSAGE_TREE: KeepTree = { jsonrpc: true, id: true, method: true, params: { name: true }, result: {}, error: { code: true, message: true } };

/** `Profile.keep`: messages, and wrappers around them (batches, arrays, are kept whole). */
export const JSONRPC_KEEP: KeepSpec = {
  tree: {
    ...MESSAGE_TREE,
    timestamp: true,
    ts: true,
    time: true,
    ...Object.fromEntries([...DIRECTION_KEYS].map((k) => [k, true])),
    ...Object.fromEntries([...MESSAGE_KEYS, ...DIRECTION_WRAPPER_KEYS].map((k) => [k, MESSAGE_TREE])),
  },
};

export interface JsonRpcSummary {
  messages: number;
  requests: number;
  notifications: number;
  responses: number;
  errorResponses: number;
  batches: number;
  /** Batch elements or wrapped values that are no JSON-RPC 2.0 message. */
  nonMessages: number;
  invalidIds: number;
  /** Records that stated a direction the profile does not know (ids were not namespaced). */
  unknownDirections: number;
  /** Records with a time whose zone was missing (read as UTC). */
  naiveTimes: number;
}

function isMessage(v: unknown): v is Record<string, unknown> {
  const o = asObject(v);
  return o !== null && o.jsonrpc === '2.0';
}

function isMessageOrBatch(v: unknown): boolean {
  return isMessage(v) || (Array.isArray(v) && v.length > 0 && v.some(isMessage));
}

interface Unwrapped {
  body: unknown;
  direction: string | null;
  time: unknown;
}

/** The ORPHAN_RESPONSE note of an error response with `"id": null` (it answers no request by construction). */
const NOTE_NULL_ID = 'its "id" is null (a server that could not read a request\'s id answers so): callpair pairs it with no request';

function unwrap(top: Record<string, unknown>): Unwrapped | null {
  let direction: string | null = null;
  for (const k of DIRECTION_KEYS) {
    const d = top[k];
    if (typeof d === 'string') {
      direction = d;
      break;
    }
  }
  let time: unknown;
  for (const k of TIME_KEYS) {
    if (top[k] !== undefined) {
      time = top[k];
      break;
    }
  }
  for (const k of MESSAGE_KEYS) {
    if (Object.prototype.hasOwnProperty.call(top, k) && isMessageOrBatch(top[k])) return { body: top[k], direction, time };
  }
  for (const k of DIRECTION_WRAPPER_KEYS) {
    if (Object.prototype.hasOwnProperty.call(top, k) && isMessageOrBatch(top[k])) return { body: top[k], direction: k, time };
  }
  return null;
}

export function jsonrpcProfile(): Profile {
  const sum: JsonRpcSummary = {
    messages: 0,
    requests: 0,
    notifications: 0,
    responses: 0,
    errorResponses: 0,
    batches: 0,
    nonMessages: 0,
    invalidIds: 0,
    unknownDirections: 0,
    naiveTimes: 0,
  };
  let nullIdSeq = 0;

  /** Emits the message's call event; false when it is none (a notification, an invalid id, no message). */
  function emitMessage(m: Record<string, unknown>, dirWord: string | null, time: number | null, loc: Loc, ctx: ProfileContext): boolean {
    const hasMethod = typeof m.method === 'string';
    const isResponse = !hasMethod && (Object.prototype.hasOwnProperty.call(m, 'result') || Object.prototype.hasOwnProperty.call(m, 'error'));
    if (!hasMethod && !isResponse) {
      sum.nonMessages++;
      return false;
    }
    sum.messages++;
    const hasId = Object.prototype.hasOwnProperty.call(m, 'id');
    if (hasMethod && !hasId) {
      sum.notifications++;
      return false;
    }
    const dir = dirWord === null ? null : dirWord.toLowerCase();
    let known = dir !== null && OPPOSITE.has(dir);
    if (dir !== null && !known) sum.unknownDirections++;
    // The side that sent the request this message belongs to.
    const requestSide = !known ? null : hasMethod ? dir! : OPPOSITE.get(dir!)!;
    // null: no usable id (INVALID_ID): the call is still a call, paired by the fallbacks like any
    // call without an id (docs/pairing.md), never dropped.
    let key: string | null;
    let label: string | undefined;
    const nullId = isResponse && m.id === null;
    if (nullId) {
      // `"id": null`: an error about a request whose id the server could not read. It answers no
      // request, so it gets a key of its own (an orphan response, never a FIFO partner).
      key = `null:${++nullIdSeq}`;
      known = false;
    } else {
      const c = checkId('protocol', 'id', m.id);
      if (c.kind !== 'valid') {
        sum.invalidIds++;
        // `"id": null` on a request (or a response without an id) is no id either: string or number only.
        // `""` is no id under either id kind; a JSON-RPC message whose id member gives none is INVALID_ID.
        const text = m.id === null ? 'null' : m.id === '' ? '""' : '';
        const reason = m.id === '' ? ('empty' as const) : ('not-a-string-or-number' as const);
        const info = c.kind === 'invalid' ? c.info : { field: 'id', reason, length: text.length, sha256: sha256Prefix(text) };
        ctx.finding(finding('INVALID_ID', { channel: JSONRPC_CHANNEL.name, scope: '', locations: [loc] }, info));
        key = null;
      } else {
        key = c.key;
        label = c.label;
      }
    }
    const id = key === null ? null : derivedKey(known && requestSide !== null ? `${requestSide}/${key}` : key);
    const role: Role = hasMethod ? 'request' : 'terminal';
    // A response that states no side has no caller of its own (docs/design.md §3.1: never another call's default).
    const caller = known && requestSide !== null ? requestSide : role === 'request' ? 'main' : null;
    const attrs: CallAttrs = {};
    let sig: (string | null)[];
    if (role === 'request') {
      sum.requests++;
      const method = m.method as string;
      const tool = asString(asObject(m.params)?.name);
      attrs.kind = 'request';
      attrs.provider = method;
      attrs.model = tool;
      sig = [method, tool];
    } else {
      sum.responses++;
      const err = Object.prototype.hasOwnProperty.call(m, 'error') && m.error !== null && m.error !== undefined ? m.error : undefined;
      attrs.kind = err === undefined ? 'response' : 'error response';
      attrs.status = err === undefined ? 'ok' : 'error';
      if (err !== undefined) {
        sum.errorResponses++;
        attrs.error = errorText(err);
      }
      attrs.durationMs = null;
      sig = [null, null];
    }
    const ev = makeEvent(JSONRPC_CHANNEL, { role, scope: '', id, sig, time, caller, attrs, loc, ...(nullId ? { orphanNote: NOTE_NULL_ID } : {}) }, ctx);
    if (label !== undefined) ev.idLabel = known && requestSide !== null ? `${label} (${requestSide})` : label;
    ctx.emit(ev);
    return true;
  }

  return {
    name: 'jsonrpc',
    channels: [JSONRPC_CHANNEL],
    // Every JSON-RPC 2.0 message holds the key "jsonrpc", whatever its spacing.
    needles: deriveNeedles(['jsonrpc']),
    keep: JSONRPC_KEEP,
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role !== 'capture') return null;
      return {
        record(value: unknown, loc: Loc): RecordOutcome {
          let body: unknown = value;
          let direction: string | null = null;
          let rawTime: unknown;
          if (!isMessageOrBatch(value)) {
            const top = asObject(value);
            const w = top ? unwrap(top) : null;
            if (!w) return 'unclaimed';
            body = w.body;
            direction = w.direction;
            rawTime = w.time;
          } else if (isMessage(value)) {
            for (const k of TIME_KEYS) {
              if (value[k] !== undefined) {
                rawTime = value[k];
                break;
              }
            }
          }
          const t = rawTime === undefined ? null : parseTimeLoose(rawTime);
          if (t?.naive) sum.naiveTimes++;
          const time = t ? t.ms : null;
          let calls = false;
          if (Array.isArray(body)) {
            sum.batches++;
            for (const el of body) {
              if (isMessage(el)) calls = emitMessage(el, direction, time, loc, ctx) || calls;
              else sum.nonMessages++;
            }
          } else calls = emitMessage(body as Record<string, unknown>, direction, time, loc, ctx);
          // A record that holds no call (notifications, invalid ids) is counted but ignored, so a
          // file of them is no capture: NO_CALL_EVENTS (docs/profiles.md, "Nothing matched").
          return calls ? 'used' : 'ignored';
        },
      };
    },
    summary: () => (sum.messages + sum.batches > 0 ? { ...sum } : undefined),
    notes() {
      const out: NoteCode[] = [];
      if (sum.notifications > 0) out.push('jsonrpc-notifications');
      if (sum.naiveTimes > 0) out.push('jsonrpc-naive-times');
      if (sum.unknownDirections > 0) out.push('jsonrpc-unknown-direction');
      return out;
    },
  };
}

/** The error's code and message; never null, so every error response is a failed outcome. */
function errorText(err: unknown): string {
  const o = asObject(err);
  if (!o) return typeof err === 'string' ? err : safeJson(err);
  const code = typeof o.code === 'number' || typeof o.code === 'string' ? String(o.code) : null;
  const msg = asString(o.message);
  return (code !== null && msg !== null ? `${code} ${msg}` : (code ?? msg)) ?? 'error';
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? typeof v;
  } catch {
    return `[unserialisable ${Array.isArray(v) ? 'array' : typeof v}]`;
  }
}
