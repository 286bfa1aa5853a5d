/**
 * The JSON-RPC logs around the decisions: the caller's sent `tools/call` lines (requests of
 * `decision`) and the upstream's received ones (terminals of `delivery`).
 */
import { foldKey, repeatedKey, repeatsAnyKey } from '../../input/exact.js';
import type { Loc } from '../../model.js';
import type { KeepTree } from '../keep.js';
import { finding } from '../../report/findings.js';
import { checkId, derivedKey, type IdKey, makeEvent } from '../event.js';
import type { ProfileContext, RecordHandler, RecordOutcome } from '../types.js';
import { asObject } from '../types.js';
import { DECISION_CHANNEL, DELIVERY_CHANNEL } from './channels.js';
import { assayUnique, checkDocumentRecord, duplicateKey } from './duplicates.js';
import { holdsToolsCall, mayMentionToolsCall, mentionsToolsCall } from './mention.js';
import { CALLER_LOG, NOTE_NO_DECISION_RECORD, RESERVED_ID_PREFIX, RUN_SCOPE, UPSTREAM_LOG } from './options.js';
import { checkJsonRpcId, producerToolName, rpcKeyOf, type RpcCall } from './rpc.js';
import type { AssayRun } from './run.js';

/**
 * Is `method` `tools/call` under another spelling: once every blank, control and format character
 * (a NUL a C string stops at, a zero-width space) is removed, the same letters in any case?
 */
export function isOtherToolsCallSpelling(method: unknown): boolean {
  // Upper then lower case: what a case-insensitive decoder folds together (`toolſ/call`: ſ is S).
  return typeof method === 'string' && method !== 'tools/call' && method.replace(/[\s\p{Cc}\p{Cf}]/gu, '').toUpperCase().toLowerCase() === 'tools/call';
}

/** A tools/call-shaped message under another method spelling: counted, noted, and on the upstream the audit fails closed. */
function otherSpelling(run: AssayRun, loc: Loc, channel: string): void {
  if (run.methodSpellings++ === 0) run.methodSpellingFirst = loc;
  // On the upstream side such a line may still be a delivery (a lenient server): fail closed.
  if (channel === DELIVERY_CHANNEL.name) run.unverify('method-spelling', loc, { path: loc.path });
}

export function readCall(run: AssayRun, obj: Record<string, unknown>, loc: Loc, channel: string, ctx: ProfileContext): RpcCall | 'establish' | null {
  if (obj.method !== 'tools/call') {
    // JSON-RPC methods are exact: another spelling (case, blanks or control characters) is no call, but it is said (a note).
    if (isOtherToolsCallSpelling(obj.method)) otherSpelling(run, loc, channel);
    return null;
  }
  const hasId = Object.prototype.hasOwnProperty.call(obj, 'id');
  const id = hasId ? obj.id : undefined;
  const params = asObject(obj.params);
  const meta = asObject(params?.['_meta']);
  const raw = meta && Object.prototype.hasOwnProperty.call(meta, run.key) ? meta[run.key] : undefined;
  // The reserved id prefix: the proxy refuses a caller's tools/call under it (no record, not
  // forwarded), and its own establish traffic is tools/list. So only a caller call under it that
  // carries no correlation id is skipped; one with a correlation id, and every upstream
  // tools/call, is audited like any other (docs/assay.md).
  if (typeof id === 'string' && id.startsWith(RESERVED_ID_PREFIX) && channel === DECISION_CHANNEL.name && raw === undefined) return 'establish';
  const c = checkId('correlation', run.keyField, raw);
  let corrId: IdKey | null = null;
  if (c.kind === 'valid') corrId = c.key;
  else if (c.kind === 'invalid') ctx.finding(finding('INVALID_ID', { channel, scope: RUN_SCOPE, locations: [loc] }, c.info));
  // One id rule with the jsonrpc profile (rpc.ts): an id that is neither a string nor a safe
  // integer is INVALID_ID and no key. Its call is then one no id identifies (docs/assay.md).
  const r = checkJsonRpcId(id);
  if (r.kind === 'invalid') ctx.finding(finding('INVALID_ID', { channel, scope: RUN_SCOPE, locations: [loc] }, r.info));
  return { rpcKey: rpcKeyOf(r), corrId, tool: producerToolName(params?.name) };
}

/** Is `s` the method `tools/call`, in its own spelling or another one a careless decoder could read as it. */
const toolsCallString = (s: unknown): boolean => s === 'tools/call' || isOtherToolsCallSpelling(s);

/**
 * Could a batch element be a tools/call to some server: a nested batch, or an object whose method,
 * under any key a case-insensitive decoder reads as `method` (`foldKey`), is tools/call in any spelling.
 */
function mayBeToolsCall(m: unknown): boolean {
  if (Array.isArray(m)) return true;
  const o = asObject(m);
  if (!o) return false;
  for (const k of Object.keys(o)) if (foldKey(k) === 'method' && (toolsCallString(o[k]) || k !== 'method')) return true;
  return false;
}

/** The keys a JSON-RPC request or notification is read by. */
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
/** The keys a JSON-RPC reply is read by. */
const RESPONSE_KEYS = new Set(['jsonrpc', 'id', 'result', 'error']);
/** A tools/call line with no `jsonrpc` key is read as a call by its method alone. */
const METHOD_KEY = new Set(['method']);

/**
 * The keys by which a line is read as a message of its own, or null when it is none (every key is
 * then the envelope's): a request or notification (a `jsonrpc` key and a string `method`), a reply
 * (a `jsonrpc` key, an `id`, a `result` or an `error`, no `method`), or a `tools/call` line with no
 * `jsonrpc` key (read as a call: its method only). What those keys carry (a tool's output quoting
 * `tools/call`, a log notification, a call's arguments) is no delivery; any other key is checked.
 */
function ownKeys(o: Record<string, unknown>): ReadonlySet<string> | null {
  const has = (k: string) => Object.prototype.hasOwnProperty.call(o, k);
  if (!has('jsonrpc')) return toolsCallString(o.method) ? METHOD_KEY : null;
  if (has('method')) return typeof o.method === 'string' ? REQUEST_KEYS : null;
  return has('id') && (has('result') || has('error')) ? RESPONSE_KEYS : null;
}

/** Does a JSON value (a line, or a batch element) hide a tools/call outside the keys it is read by (`ownKeys`). */
function hidesToolsCall(v: unknown): boolean {
  const o = asObject(v);
  if (o === null) return holdsToolsCall(v);
  const own = ownKeys(o);
  if (own === null) return holdsToolsCall(o);
  for (const k of Object.keys(o)) if (!own.has(k) && (mentionsToolsCall(k) || holdsToolsCall(o[k]))) return true;
  return false;
}

/**
 * A caller or upstream line that mentions `tools/call` (mention.ts) outside the keys it is read by
 * (`ownKeys`): a logger's envelope around a call (`{"direction":"received","message":{…}}`, an HTTP
 * record `{"method":"POST","body":{…}}`, a message kept as a JSON string or as free text), or a
 * message carrying one under a key of its own (`"forwarded":{…}`). The line was read through the
 * profile's `keep` (which drops the envelope), so it is read again whole, from its bytes when the
 * reader has them (a JSON document's element is already whole); every caller and upstream line is
 * read (`readAll`), so this sees the same lines in every mode.
 */
function wrapsToolsCall(obj: Record<string, unknown>, raw: Buffer | null, watched: KeepTree): 'wrapped' | 'repeated-key' | null {
  if (raw !== null) {
    // A JSON-RPC tools/call mentions it once, in its method: hiding one takes a second mention
    // (`keep` holds `jsonrpc`). Most other lines mention none: their bytes say so, no second parse.
    const call = toolsCallString(obj.method) && Object.prototype.hasOwnProperty.call(obj, 'jsonrpc');
    if (!mayMentionToolsCall(raw, 0, raw.length, call ? 2 : 1)) return null;
  }
  if (hidesToolsCall(whole(obj, raw))) return 'wrapped';
  // A key given twice: JSON.parse kept the last value; a reader keeping the first may see a call
  // (`{"received":{…tools/call…},"received":null}`). A key the audit reads (`watched`) given twice
  // is a DUPLICATE_KEY already (duplicates.ts): not said twice.
  return raw !== null && repeatsAnyKey(raw, 0, raw.length) && repeatedKey(raw, 0, raw.length, watched, true) === null ? 'repeated-key' : null;
}

/** A record read whole: from its bytes when the reader has them (it was read through `keep`), else as given (a JSON document's element is whole). */
function whole(value: unknown, raw: Buffer | null): unknown {
  if (raw === null) return value;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return '"tools/call"'; // it was read once already, so not expected: if it happens, the line is not verified
  }
}

/** A line of an assay input that no handler read: the delivery audit cannot be exact. */
export function unreadLine(run: AssayRun): (loc: Loc, reason: string) => void {
  return (loc, reason) => run.unverify('unread-line', loc, { path: loc.path, reason });
}

/**
 * What a JSON-RPC log line says before it is read as a call: a batch (an array) holding a
 * `tools/call` is not read, so the audit is unverified; an `initialize` request is counted (more
 * than one is several runs in one file set); a call hidden in the line (`wrapsToolsCall`, keys in
 * `watched` given twice are DUPLICATE_KEYs already) makes it unverified. Null: read it as a call.
 */
function preRead(run: AssayRun, value: unknown, loc: Loc, role: 'caller' | 'upstream', raw: Buffer | null, watched: KeepTree): RecordOutcome | null {
  if (Array.isArray(value)) {
    // Also a batch of envelopes (`[{"received":{…tools/call…}}]`): any mention of tools/call.
    const all = whole(value, raw);
    if (value.some(mayBeToolsCall) || (Array.isArray(all) ? all.some(hidesToolsCall) : holdsToolsCall(all))) run.unverify('unread-line', loc, { path: loc.path, reason: 'batch' });
    if (value.some((m) => isOtherToolsCallSpelling(asObject(m)?.method))) otherSpelling(run, loc, role === 'upstream' ? DELIVERY_CHANNEL.name : DECISION_CHANNEL.name);
    return 'ignored';
  }
  const obj = asObject(value);
  if (!obj) {
    // A line that is a string (a message kept as JSON text) may hold a call too.
    if (holdsToolsCall(value)) run.unverify('unread-line', loc, { path: loc.path, reason: 'wrapped' });
    return 'unclaimed';
  }
  if (obj.method === 'initialize' && Object.prototype.hasOwnProperty.call(obj, 'id')) {
    run.handshakes[role]++;
    return 'ignored';
  }
  const hidden = wrapsToolsCall(obj, raw, watched);
  if (hidden !== null) {
    // A call inside an envelope this profile does not read: on the upstream it may be a denied call
    // that arrived, so the audit cannot say "verified" (docs/assay.md, unread-line).
    run.unverify('unread-line', loc, { path: loc.path, reason: hidden });
    // A repeated key: the line is still read as JSON.parse reads it.
    if (hidden === 'wrapped') return 'ignored';
  }
  return null;
}

export function callerHandler(run: AssayRun, ctx: ProfileContext): RecordHandler {
  const repeated = duplicateKey(DECISION_CHANNEL.name, ctx, run);
  const keys = assayUnique('rpc', run.key).keys;
  return {
    unread: unreadLine(run),
    repeatedKey: repeated,
    record(value: unknown, loc: Loc, raw: Buffer | null, doc?: Buffer): RecordOutcome {
      checkDocumentRecord(doc, keys, loc, repeated, true);
      const pre = preRead(run, value, loc, 'caller', raw, keys);
      if (pre !== null) return pre;
      const obj = value as Record<string, unknown>;
      const call = readCall(run, obj, loc, 'decision', ctx);
      if (call === 'establish') {
        run.establishSkipped++;
        return 'ignored';
      }
      if (!call) return 'ignored';
      run.callerCalls++;
      if (call.rpcKey !== null) {
        if (run.callerIds.has(call.rpcKey)) run.callerIdsReused++;
        else if (run.callerIds.size < run.window) run.callerIds.add(call.rpcKey);
        else run.callerIdsFull = true;
      }
      if (!run.decisionEval) return 'ignored';
      const ev = makeEvent(
        DECISION_CHANNEL,
        {
          role: 'request',
          scope: RUN_SCOPE,
          id: call.corrId,
          sig: [call.tool],
          time: null,
          caller: CALLER_LOG,
          attrs: { tool: call.tool, kind: 'tools/call' },
          loc,
          orphanNote: NOTE_NO_DECISION_RECORD,
          // Order across files is no evidence: a pair without an id is at most `ambiguous` then.
          ...(call.corrId === null && run.decisionAcrossFiles ? { maxConfidence: 'ambiguous' as const } : {}),
        },
        ctx,
      );
      // The proxy forwards the caller's line verbatim: its arrival carries the same _meta and id.
      const arrivalKey = call.corrId ?? call.rpcKey;
      if (arrivalKey !== null) run.chain.set(ev.loc, arrivalKey); // keyed by the event's own Loc (profiles/event.ts)
      ctx.emit(ev);
      return 'used';
    },
  };
}

export function upstreamHandler(run: AssayRun, ctx: ProfileContext): RecordHandler {
  const repeated = duplicateKey(DELIVERY_CHANNEL.name, ctx, run);
  const keys = assayUnique('rpc', run.key).keys;
  return {
    unread: unreadLine(run),
    repeatedKey: repeated,
    record(value: unknown, loc: Loc, raw: Buffer | null, doc?: Buffer): RecordOutcome {
      checkDocumentRecord(doc, keys, loc, repeated, true);
      const pre = preRead(run, value, loc, 'upstream', raw, keys);
      if (pre !== null) return pre;
      const obj = value as Record<string, unknown>;
      const call = readCall(run, obj, loc, 'delivery', ctx);
      if (!call || call === 'establish') return 'ignored';
      run.upstreamCalls++;
      if (!run.deliveryEval) return 'ignored';
      // A JSON-RPC id can only meet an id chained through a decision pair: without the caller
      // log it is no key at all.
      const key = call.corrId ?? (run.decisionEval ? call.rpcKey : null);
      const pair = ctx.emit(
        makeEvent(
          DELIVERY_CHANNEL,
          {
            role: 'terminal',
            scope: RUN_SCOPE,
            id: key,
            sig: [call.tool],
            time: null,
            caller: UPSTREAM_LOG,
            attrs: { tool: call.tool, kind: 'tools/call' },
            loc,
            ...(key === null && run.deliveryAcrossFiles ? { maxConfidence: 'ambiguous' as const } : {}),
          },
          ctx,
        ),
      );
      if (pair) {
        run.allowArrived++;
        // Paired with an allow, yet a deny could explain it: its key is also a deny record's, or it
        // has none and a deny record of its tool exists (the arrival may be that call, its key
        // stripped). Judged at the end, when every arrival has been seen (delivery.ts judgeSuspects).
        const suspect = key !== null ? run.denyKeys.has(key) : (run.decisionEval && run.uncheckedDenies.size > 0) || run.deniesTool(call.tool ?? '');
        if (suspect) {
          if (run.suspects.length < run.window) run.suspects.push({ loc, key, tool: call.tool ?? '' });
          else run.unverify('window', loc, { window: 'suspects', bound: run.window });
        }
      }
      return 'used';
    },
  };
}
