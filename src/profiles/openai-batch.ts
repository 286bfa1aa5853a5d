/**
 * OpenAI Batch API files: `--profile openai-batch`, and `auto` on records with `custom_id`
 * (docs/profiles.md, "openai-batch").
 *
 * - input lines `{custom_id, method, url, body}` are requests;
 * - output (and error-file) lines `{id, custom_id, response: {status_code, request_id, body}, error}`
 *   are terminals: failed when `error` is set or `status_code` ≥ 400;
 * - paired by `custom_id` across files, whatever order the files are read in: an output line read
 *   before its input line waits until the end of the input (a batch holds at most 50 000 requests);
 * - attribution: `url` and `body.model`; usage from `response.body.usage`;
 * - a `custom_id` repeated in the input is DUPLICATE_ID; a request with no output line (expired or
 *   cancelled batch) is an orphan request;
 * - the output order is arbitrary by contract ("the output line order may not match the input line
 *   order"), so FIFO is never held against it: no crossed pairs are counted on this channel.
 */
import type { CallAttrs, CallEvent, ChannelSpec, Loc, Usage } from '../model.js';
import type { Source } from '../input/sources.js';
import { type BuiltEvent, checkId, derivedKey, type IdKey, makeEvent } from './event.js';
import { finding } from '../report/findings.js';
import type { NoteCode } from '../report/notes.js';
import { deriveNeedles } from './lang/needles.js';
import type { KeepSpec } from './keep.js';
import type { Profile, ProfileContext, RecordHandler, RecordOutcome } from './types.js';
import { asNumber, asObject, asString } from './types.js';
import { KeyedEntries, ReadIds } from './openai-batch-store.js';

export const BATCH_CHANNEL: ChannelSpec = {
  name: 'openai-batch',
  // Rows are models; latency groups are (url, model).
  rowLabel: 'model',
  attribution: 'model',
  groupLabels: ['url', 'model'],
  // `error` set (it is also set for an HTTP status ≥ 400), or a status code ≥ 400.
  failure: { kind: 'any', rules: [{ kind: 'error-present' }, { kind: 'status-at-least', min: 400 }] },
  idKind: 'correlation',
  ordered: false,
  signatureFields: ['url', 'model'],
  signatureRequired: true,
  terminalOrder: 'arbitrary',
};

/** Output lines held because their request was not read yet. */
const MAX_HELD = 1_000_000;
/** Requests waiting for their output, per open call --max-open-calls allows the engine (past it, the oldest go to the engine). */
const PENDING_PER_OPEN_CALL = 10;
/** Without --max-open-calls (its default, 100 000, times ten). */
const MAX_PENDING = 1_000_000;
/**
 * custom_ids of the requests handed to the engine (answered, or waiting there), for a repeat
 * (DUPLICATE_ID) and an output repeated (DUPLICATE_TERMINAL): the last MAX_SEEN / 2 to MAX_SEEN, as
 * the engine remembers the last 100 000 closed ids.
 */
const MAX_SEEN = 200_000;
/** As read (`asRead`), every request read is remembered, the last 500 000 to 1 000 000: an output whose request is remembered goes to the engine at once. */
const AS_READ_SEEN = 1_000_000;

/** `Profile.keep`: what the profile reads of an input or output line. */
export const BATCH_KEEP: KeepSpec = {
  tree: {
    custom_id: true,
    method: true,
    url: true,
    body: { model: true },
    response: { status_code: true, body: { model: true, usage: true, error: true } },
    error: true,
  },
};

export interface OpenAiBatchSummary {
  requests: number;
  results: number;
  failed: number;
  /** Output lines read before their input line: held until it came (then paired), or to the end. */
  heldUntilEnd: number;
  /**
   * Output lines whose input line was not read yet when the hold was full (MAX_HELD): read as they
   * came, so one whose input line comes later is an orphan response, and its request an orphan
   * request. Listed only when some were (a note says so).
   */
  heldOverflow?: number;
  /**
   * Requests handed to the engine before their output came because MAX_PENDING requests were
   * waiting: exact still, unless --max-open-calls evicts them there (its note says so). Listed only when some were.
   */
  pendingOverflow?: number;
}

function has(o: Record<string, unknown>, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** The windows' bounds (tests make them small). */
export interface BatchLimits {
  maxHeld?: number;
  maxPending?: number;
  maxSeen?: number;
  /**
   * Each request goes to the engine as it is read, and an output read before its request waits to
   * the end (`openAiBatchProfile` with shadows: compare, trace): the engine sees the lines in the order read.
   */
  asRead?: boolean;
}

/**
 * `maxOpenCalls` (--max-open-calls) bounds the requests waiting for their output too: a waiting
 * request costs about a tenth of an engine's open call, so ten times as many wait (docs/profiles.md).
 */
export function openAiBatchProfile(options: Record<string, unknown> = {}): Profile {
  // compare and trace follow FIFO's shadows, which must see the lines in the order read: each line
  // goes to the engine as it comes (an output read first waits to the end), as the reading was.
  if (options.shadows === true) return batchProfileWithLimits({ asRead: true });
  const m = options.maxOpenCalls;
  const w = options.closedWindow;
  return batchProfileWithLimits({
    ...(typeof m === 'number' && m > 0 ? { maxPending: m * PENDING_PER_OPEN_CALL } : {}),
    // The ids of calls handed to the engine: the last one to two times what the engine remembers of closed ids.
    ...(typeof w === 'number' && w > 0 ? { maxSeen: 2 * w } : {}),
  });
}

export function batchProfileWithLimits(limits: BatchLimits): Profile {
  const maxHeld = limits.maxHeld ?? MAX_HELD;
  const maxPending = limits.maxPending ?? MAX_PENDING;
  const asRead = limits.asRead === true;
  const maxSeen = limits.maxSeen ?? (asRead ? AS_READ_SEEN : MAX_SEEN);
  // The profile pairs by custom_id itself, in compact stores (openai-batch-store.ts: no string, Map
  // entry or event object per entry), and hands the engine each call as it pairs: a request, then
  // its output. A request waits for its output in `pending`, an output read first for its request in
  // `held`; the engine holds a request open only when its custom_id repeats (DUPLICATE_ID) or
  // `pending` is full. So a batch of any size pairs in flat memory, in either file order.
  const pending = new KeyedEntries(2, 3); // line, read past the window (1/0); url, model (the signature and the attributes), path
  const held = new KeyedEntries(6, 4); // line, has usage, 4 usage counts (NaN: null); model, status, error, path
  const seen = new ReadIds(maxSeen);
  const sum: OpenAiBatchSummary = { requests: 0, results: 0, failed: 0, heldUntilEnd: 0 };
  let missingSeq = 0;
  /** Requests read once `seen` had forgotten ids: a repeat of a forgotten one would go unseen. */
  let pastWindow = 0;

  function idOf(v: unknown, loc: Loc, ctx: ProfileContext): IdKey | null {
    const c = checkId('correlation', 'custom_id', v);
    if (c.kind === 'valid') return c.key;
    if (c.kind === 'invalid') ctx.finding(finding('INVALID_ID', { channel: BATCH_CHANNEL.name, scope: '', locations: [loc] }, c.info));
    return null;
  }

  /** Hands an event to the engine, which counts the requests waiting here as in flight too (CallEvent.waiting). */
  function send(ctx: ProfileContext, ev: BuiltEvent): void {
    if (pending.size > 0) ev.waiting = pending.size;
    ctx.emit(ev);
  }

  function locOf(g: KeyedEntries, i: number, path: number, line: number): Loc {
    const p = g.pointer(i);
    return p === undefined ? { path: g.str(i, path)!, line: g.num(i, line) } : { path: g.str(i, path)!, line: g.num(i, line), pointer: p };
  }

  function holdRequest(id: string, ev: CallEvent): void {
    // The signature is [url, model], clipped as the attributes are (clipOrNull is clipText).
    pending.add(id, [ev.loc.line, ev.pastWindow ? 1 : 0], [ev.attrs.provider ?? null, ev.attrs.model ?? null, ev.loc.path], ev.loc.pointer);
  }

  /**
   * The pending request `i`'s event, as makeEvent built it first (its values are clipped already),
   * and forgets it. `how`: it pairs now (its output follows), goes to the engine open, or is
   * unanswered (end of input).
   */
  function takeRequest(i: number, ctx: ProfileContext, how: 'pairs' | 'open' | 'unanswered'): BuiltEvent {
    const unanswered = how === 'unanswered';
    const url = pending.str(i, 0);
    const model = pending.str(i, 1);
    const attrs: CallAttrs = { kind: 'batch input', provider: url, model };
    const id = pending.id(i);
    const loc = locOf(pending, i, 2, 0);
    const unsure = pending.num(i, 1) === 1;
    pending.remove(i);
    if (!unanswered) seen.add(id, loc, how === 'pairs');
    return makeEvent(
      BATCH_CHANNEL,
      { role: 'request', scope: '', id: derivedKey(id), sig: [url, model], time: null, caller: 'main', attrs, loc, unanswered, pastWindow: unsure },
      ctx,
    );
  }

  function holdOutput(id: string, ev: CallEvent): void {
    const a = ev.attrs;
    const u = a.usage ?? null;
    const nums = u
      ? [ev.loc.line, 1, u.inputTokens ?? NaN, u.outputTokens ?? NaN, u.cacheReadTokens ?? NaN, u.cacheWriteTokens ?? NaN]
      : [ev.loc.line, 0, NaN, NaN, NaN, NaN];
    held.add(id, nums, [a.model ?? null, a.status ?? null, a.error ?? null, ev.loc.path], ev.loc.pointer);
  }

  /** The held output `i`'s event, rebuilt from the values its first makeEvent produced (it finds nothing new), and forgets it. */
  function takeOutput(i: number, ctx: ProfileContext): BuiltEvent {
    const num = (k: number): number | null => {
      const v = held.num(i, k);
      return Number.isNaN(v) ? null : v;
    };
    const usage: Usage | null = held.num(i, 1) === 1 ? { inputTokens: num(2), outputTokens: num(3), cacheReadTokens: num(4), cacheWriteTokens: num(5) } : null;
    const attrs: CallAttrs = { kind: 'batch output', model: held.str(i, 0), status: held.str(i, 1), error: held.str(i, 2), usage, durationMs: null };
    const ev = makeEvent(BATCH_CHANNEL, { role: 'terminal', scope: '', id: derivedKey(held.id(i)), sig: [null, null], time: null, caller: null, attrs, loc: locOf(held, i, 3, 0) }, ctx);
    held.remove(i);
    return ev;
  }

  return {
    name: 'openai-batch',
    channels: [BATCH_CHANNEL],
    needles: deriveNeedles(['custom_id']),
    keep: BATCH_KEEP,
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role !== 'capture') return null;
      return {
        record(value: unknown, loc: Loc): RecordOutcome {
          const o = asObject(value);
          if (!o || !has(o, 'custom_id')) return 'unclaimed';
          const isOutput = has(o, 'response') || has(o, 'error');
          const isInput = !isOutput && has(o, 'body') && (has(o, 'url') || has(o, 'method'));
          if (!isInput && !isOutput) return 'ignored';
          if (isInput) {
            sum.requests++;
            const body = asObject(o.body);
            const url = asString(o.url);
            const model = asString(body?.model);
            const id = idOf(o.custom_id, loc, ctx);
            const attrs: CallAttrs = { kind: 'batch input', provider: url, model };
            const draft = { role: 'request' as const, scope: '', id, sig: [url, model], time: null, caller: 'main', attrs, loc };
            // No usable custom_id: nothing can answer it by name; the engine holds it (an orphan at the end).
            if (id === null) {
              send(ctx, makeEvent(BATCH_CHANNEL, draft, ctx));
              return 'used';
            }
            if (asRead) {
              // The engine holds every request open and finds a repeat (DUPLICATE_ID) itself.
              seen.add(id, loc, false);
              send(ctx, makeEvent(BATCH_CHANNEL, draft, ctx));
              return 'used';
            }
            const p = pending.first(id);
            const first = p >= 0 ? locOf(pending, p, 2, 0) : seen.firstRead(id);
            if (first !== null) {
              // A repeated custom_id: DUPLICATE_ID against the first, however its call went. The
              // engine takes this id's calls from here on (its outputs pair there, oldest first).
              if (p >= 0) send(ctx, takeRequest(p, ctx, 'open'));
              else seen.add(id, first, false);
              send(ctx, makeEvent(BATCH_CHANNEL, { ...draft, repeatOf: first }, ctx));
              const h = held.first(id);
              if (h >= 0) {
                send(ctx, takeOutput(h, ctx));
                seen.closed(id);
              }
              return 'used';
            }
            // Not found, but ids of calls closed long ago are forgotten: it may repeat one.
            if (seen.forgotten) pastWindow++;
            const ev = makeEvent(BATCH_CHANNEL, seen.forgotten ? { ...draft, pastWindow: true } : draft, ctx);
            const h = held.first(id);
            if (h >= 0) {
              seen.add(id, ev.loc, true);
              send(ctx, ev);
              send(ctx, takeOutput(h, ctx));
              return 'used';
            }
            if (pending.size >= maxPending) {
              // Full: the oldest waiting request goes to the engine (--max-open-calls bounds it there).
              sum.pendingOverflow = (sum.pendingOverflow ?? 0) + 1;
              send(ctx, takeRequest(pending.oldest(), ctx, 'open'));
            }
            holdRequest(id, ev);
            return 'used';
          }
          sum.results++;
          const response = asObject(o.response);
          const rbody = asObject(response?.body);
          const statusCode = asNumber(response?.status_code);
          const err = o.error !== null && o.error !== undefined ? o.error : null;
          const failed = err !== null || (statusCode !== null && statusCode >= 400);
          if (failed) sum.failed++;
          const attrs: CallAttrs = {
            kind: 'batch output',
            model: asString(rbody?.model),
            // The HTTP status as the file states it (the channel's failure rule reads it).
            status: statusCode !== null ? String(statusCode) : null,
            error: failed ? (errorText(err, statusCode, rbody) ?? 'error') : null,
            usage: readUsage(rbody?.usage),
            durationMs: null,
          };
          // An output line without a usable custom_id answers nothing it can name: an orphan.
          const id = idOf(o.custom_id, loc, ctx) ?? derivedKey(`custom_id:missing:${++missingSeq}`);
          const ev = makeEvent(BATCH_CHANNEL, { role: 'terminal', scope: '', id, sig: [null, null], time: null, caller: null, attrs, loc }, ctx);
          const p = pending.first(id);
          if (p >= 0) {
            send(ctx, takeRequest(p, ctx, 'pairs'));
            send(ctx, ev);
          } else if (seen.has(id)) {
            // Its request is in the engine (a repeated id, a full `pending`) or answered already (a DUPLICATE_TERMINAL there).
            send(ctx, ev);
            seen.closed(id);
          } else if (held.size >= maxHeld) {
            sum.heldOverflow = (sum.heldOverflow ?? 0) + 1;
            send(ctx, ev);
          } else {
            holdOutput(id, ev);
            sum.heldUntilEnd++;
          }
          return 'used';
        },
      };
    },
    finish(ctx: ProfileContext): void {
      // Outputs whose request never came (orphan responses, or repeats of an answered id), then
      // requests nothing answered (orphan requests at once: the engine never holds them open).
      while (held.size > 0) send(ctx, takeOutput(held.oldest(), ctx));
      while (pending.size > 0) send(ctx, takeRequest(pending.oldest(), ctx, 'unanswered'));
    },
    summary: () => (sum.requests + sum.results > 0 ? { ...sum } : undefined),
    notes(): NoteCode[] {
      const out: NoteCode[] = [];
      if (sum.results > 0) out.push('openai-batch-order');
      if (sum.heldOverflow) out.push('openai-batch-hold-full');
      if (pastWindow > 0) out.push('openai-batch-ids-forgotten');
      return out;
    },
  };
}

function errorText(err: unknown, status: number | null, body: Record<string, unknown> | null): string | null {
  const e = asObject(err);
  if (e) {
    const code = asString(e.code);
    const msg = asString(e.message);
    return code !== null && msg !== null ? `${code}: ${msg}` : (code ?? msg);
  }
  if (typeof err === 'string') return err;
  const be = asObject(body?.error);
  const msg = asString(be?.message) ?? asString(be?.type);
  return status !== null ? `HTTP ${status}${msg ? `: ${msg}` : ''}` : msg;
}

/** Chat Completions (`prompt_tokens`…) and Responses (`input_tokens`…) usage. */
function readUsage(v: unknown): Usage | null {
  const u = asObject(v);
  if (!u) return null;
  const inDetails = asObject(u.prompt_tokens_details) ?? asObject(u.input_tokens_details);
  return {
    inputTokens: asNumber(u.prompt_tokens) ?? asNumber(u.input_tokens),
    outputTokens: asNumber(u.completion_tokens) ?? asNumber(u.output_tokens),
    cacheReadTokens: asNumber(inDetails?.cached_tokens),
    cacheWriteTokens: null,
  };
}
