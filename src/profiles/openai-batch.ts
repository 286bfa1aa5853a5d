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
import type { CallAttrs, ChannelSpec, Loc, Usage } from '../model.js';
import type { Source } from '../input/sources.js';
import { checkId, derivedKey, type IdKey, makeEvent } from './event.js';
import { finding } from '../report/findings.js';
import type { NoteCode } from '../report/notes.js';
import { deriveNeedles } from './lang/needles.js';
import type { KeepSpec } from './keep.js';
import type { Profile, ProfileContext, RecordHandler, RecordOutcome } from './types.js';
import { asNumber, asObject, asString } from './types.js';
import { HeldOutputs, RecentIds } from './openai-batch-store.js';

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

/** Output lines held until the end because their input line was not read yet. */
const MAX_HELD = 1_000_000;
/** custom_ids of requests read (to emit an output line at once when its request is known): the last MAX_SEEN / 2 to MAX_SEEN. */
const MAX_SEEN = 1_000_000;

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
  /**
   * Output lines whose input line was not read yet when they came (or was read before the last
   * 500 000 inputs, which are remembered), held to the end; an output with no input line at all too.
   */
  heldUntilEnd: number;
  /**
   * Output lines not known to answer an input read when the hold was full (MAX_HELD): read as they
   * came, so one whose input line comes later is an orphan response, and its request an orphan
   * request. Listed only when some were (a note says so).
   */
  heldOverflow?: number;
}

function has(o: Record<string, unknown>, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** The windows' bounds (tests make them small). */
export interface BatchLimits {
  maxHeld?: number;
  maxSeen?: number;
}

export function openAiBatchProfile(): Profile {
  return batchProfileWithLimits({});
}

export function batchProfileWithLimits(limits: BatchLimits): Profile {
  const maxHeld = limits.maxHeld ?? MAX_HELD;
  const maxSeen = limits.maxSeen ?? MAX_SEEN;
  // Compact windows (openai-batch-store.ts): no string, Set entry or event object per entry. The
  // inputs read lately are always remembered (an interleaved capture pairs at once however long it
  // is); an output whose input was forgotten waits to the end.
  const seen = new RecentIds(maxSeen);
  const held = new HeldOutputs();
  const sum: OpenAiBatchSummary = { requests: 0, results: 0, failed: 0, heldUntilEnd: 0 };
  let missingSeq = 0;

  function idOf(v: unknown, loc: Loc, ctx: ProfileContext): IdKey | null {
    const c = checkId('correlation', 'custom_id', v);
    if (c.kind === 'valid') return c.key;
    if (c.kind === 'invalid') ctx.finding(finding('INVALID_ID', { channel: BATCH_CHANNEL.name, scope: '', locations: [loc] }, c.info));
    return null;
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
            if (id !== null) seen.add(id);
            const attrs: CallAttrs = { kind: 'batch input', provider: url, model };
            ctx.emit(makeEvent(BATCH_CHANNEL, { role: 'request', scope: '', id, sig: [url, model], time: null, caller: 'main', attrs, loc }, ctx));
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
          if (seen.has(id)) ctx.emit(ev);
          else if (held.length >= maxHeld) {
            sum.heldOverflow = (sum.heldOverflow ?? 0) + 1;
            ctx.emit(ev);
          } else {
            // The values the event was built from, already clipped and range-checked: rebuilding
            // it at the end finds nothing new and makes the same event.
            const a = ev.attrs;
            held.push({
              id,
              model: a.model ?? null,
              status: a.status ?? null,
              error: a.error ?? null,
              usage: a.usage ?? null,
              path: ev.loc.path,
              line: ev.loc.line,
              pointer: ev.loc.pointer,
            });
            sum.heldUntilEnd++;
          }
          return 'used';
        },
      };
    },
    finish(ctx: ProfileContext): void {
      held.drain((h) => {
        const attrs: CallAttrs = { kind: 'batch output', model: h.model, status: h.status, error: h.error, usage: h.usage, durationMs: null };
        const loc: Loc = h.pointer === undefined ? { path: h.path, line: h.line } : { path: h.path, line: h.line, pointer: h.pointer };
        ctx.emit(makeEvent(BATCH_CHANNEL, { role: 'terminal', scope: '', id: derivedKey(h.id), sig: [null, null], time: null, caller: null, attrs, loc }, ctx));
      });
    },
    summary: () => (sum.requests + sum.results > 0 ? { ...sum } : undefined),
    notes(): NoteCode[] {
      const out: NoteCode[] = [];
      if (sum.results > 0) out.push('openai-batch-order');
      if (sum.heldOverflow) out.push('openai-batch-hold-full');
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
