/**
 * Assay policy decisions and the JSON-RPC calls around them (DESIGN §3.2, reference/assay.md).
 *
 * Three streams, one per file, known by their Source role:
 * - `capture`: the decision NDJSON (`assay.enforcement_decision.*` records, detected by `schema`);
 * - `caller`:  the caller's sent JSON-RPC messages (`--caller FILE`);
 * - `upstream`: the upstream's received JSON-RPC messages (`--upstream FILE`).
 *
 * Two ordered channels, signature = tool name:
 * - `decision`: caller `tools/call` (request) → decision record (terminal); evaluated with a caller log;
 * - `delivery`: allow record (request) → upstream `tools/call` arrival (terminal); evaluated with an
 *   upstream log. Its id is the correlation id when the record carries one, else the caller's
 *   JSON-RPC id inherited through the `decision` pair (capped at that pair's confidence).
 *
 * Engine keys: a correlation id is kept as it is (it passed the safe-shape rule); a JSON-RPC id is
 * `jsonrpc:n:<number>` or `jsonrpc:s:<string>` (typed, so 9 ≠ "9"), or `jsonrpc:h:<sha256>` for a
 * string that is not safe-shaped. The `:` keeps the two namespaces apart (no correlation id holds
 * one), and a JSON-RPC id is never checked by the safe-shape rule (it is a protocol id).
 *
 * Delivery audit: an arrival no allow record takes is an orphan response of `delivery` (the
 * engine's ORPHAN_RESPONSE stays, so the ledger and the finding count agree); the profile adds
 * DENIED_BUT_DELIVERED when its key belongs to a deny record, UNRECORDED_DELIVERY otherwise.
 */
import { clipOrNull, clipText } from './clip.js';
import { createHash } from 'node:crypto';
import type { CallAttrs, CallEvent, ChannelSpec, Confidence, Loc, OrphanResponseRecord } from '../model.js';
import { finding } from '../report/findings.js';
import type { Source } from '../input/sources.js';
import { checkCorrelationId, isSafeId } from './ids.js';
import type { Profile, ProfileContext, RecordHandler, RecordOutcome } from './types.js';
import { asObject, asString } from './types.js';
import { DECISION_SCHEMA_PREFIX, REASONS, validateDecisionRecord } from './assay-validate.js';
import type { AssaySummary } from '../report/assay.js';

export type { AssaySummary } from '../report/assay.js';

// A true partner always has the same tool name (the record's is the caller's, sanitized; the
// arrival is the caller's line verbatim): no FIFO pairing across different tool names.
export const DECISION_CHANNEL: ChannelSpec = { name: 'decision', ordered: true, signatureFields: ['tool'], signatureRequired: true };
export const DELIVERY_CHANNEL: ChannelSpec = { name: 'delivery', ordered: true, signatureFields: ['tool'], signatureRequired: true };

export const DEFAULT_CORRELATION_KEY = 'assay.correlation_id';
/** The proxy's own upstream traffic (pre-call establish). */
const RESERVED_ID_PREFIX = 'assay-establish-';
/** One run per invocation (decision files carry no run delimiter). */
export const RUN_SCOPE = 'run';
/** Bounded windows: deny-record keys and seen correlation ids. */
const DEFAULT_WINDOW = 100_000;
/** Distinct tool names counted by name; the rest are counted in `toolsOmitted`. */
const MAX_TOOLS = 10_000;
/** Schema strings are capture strings: kept bounded in findings. */
const MAX_SCHEMA_CHARS = 128;

export const NOTE_ALLOWED_NOT_OBSERVED = 'allowed, not observed upstream';
export const NOTE_NO_DECISION_RECORD = 'caller call with no decision record';
const CALLER_LOG = '(caller log)';
const UPSTREAM_LOG = '(upstream)';

export interface AssayOptions {
  /** Which input roles exist (set by analyze() before reading). */
  roles?: { capture?: boolean; caller?: boolean; upstream?: boolean };
  /** The `_meta` key holding the correlation id on JSON-RPC requests. */
  correlationKey?: string;
  /** Size of the bounded windows (deny keys, seen correlation ids). */
  window?: number;
}

interface DenyEntry {
  loc: Loc;
  tool: string | null;
  reason: string | null;
  arrived: boolean;
}

interface RpcCall {
  /** The JSON-RPC id key, null for a notification (no id) or an unusable id. */
  rpcKey: string | null;
  corrId: string | null;
  tool: string | null;
}

/**
 * The producer's `sanitize` (tool_decision.rs): Unicode Cc other than tab/newline/CR becomes
 * U+FFFD, so a caller's `params.name` compares equal to the record's `tool.name`. A call without
 * a string `params.name` is recorded with `tool.name: ""`.
 */
export function producerToolName(name: unknown): string {
  if (typeof name !== 'string') return '';
  // Clipped like every kept capture string (bounded memory; the marker keeps long names distinct).
  return clipText(name.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '\ufffd'));
}

/** JSON-RPC ids compare with their type: 9 ≠ "9". */
export function jsonRpcKey(id: unknown): string | null {
  if (typeof id === 'number' && Number.isFinite(id)) return `jsonrpc:n:${id}`;
  if (typeof id === 'string') return isSafeId(id) ? `jsonrpc:s:${id}` : `jsonrpc:h:${createHash('sha256').update(id).digest('hex')}`;
  return null;
}

function bump<K>(m: Map<K, number>, k: K): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** A Map used as an insertion-ordered window of at most `size` keys. */
function remember<V>(m: Map<string, V>, k: string, v: V, size: number): void {
  m.delete(k);
  m.set(k, v);
  if (m.size > size) {
    const oldest = m.keys().next();
    if (!oldest.done) m.delete(oldest.value);
  }
}

export function assayProfile(options: Record<string, unknown> = {}): Profile {
  const opts = options as AssayOptions;
  const roles = opts.roles ?? {};
  const hasCapture = roles.capture ?? true;
  const decisionEval = hasCapture && roles.caller === true;
  const deliveryEval = hasCapture && roles.upstream === true;
  const key = typeof opts.correlationKey === 'string' && opts.correlationKey !== '' ? opts.correlationKey : DEFAULT_CORRELATION_KEY;
  const keyField = `params._meta[${JSON.stringify(key)}]`;
  const window = typeof opts.window === 'number' && opts.window > 0 ? opts.window : DEFAULT_WINDOW;

  // Validation and counts.
  let records = 0;
  let valid = 0;
  let malformed = 0;
  let unsupported = 0;
  let inconsistent = 0;
  let otherAssay = 0;
  const byDecision = { allow: 0, deny: 0, other: 0 };
  const byReason = new Map<string, number>();
  const byTool = new Map<string, number>();
  let toolsOmitted = 0;
  const corr = { present: 0, absent: 0, invalid: 0, duplicated: 0 };
  const seenCorr = new Map<string, true>();
  let recordsWithoutId = 0;
  // JSON-RPC.
  let callerCalls = 0;
  let upstreamCalls = 0;
  let establishSkipped = 0;
  // Chaining: caller request (by its Loc object) → the key its forwarded line would arrive with.
  const chain = new WeakMap<Loc, string>();
  // Delivery audit.
  const denyKeys = new Map<string, DenyEntry>();
  let allowRecords = 0;
  let allowArrived = 0;
  let denyRecords = 0;
  let denyArrived = 0;
  let denyUnchecked = 0;
  let deniedArrivals = 0;
  let unrecordedArrivals = 0;

  function readCall(obj: Record<string, unknown>, loc: Loc, channel: string, ctx: ProfileContext): RpcCall | 'establish' | null {
    if (obj.method !== 'tools/call') return null;
    const hasId = Object.prototype.hasOwnProperty.call(obj, 'id');
    const id = hasId ? obj.id : undefined;
    if (typeof id === 'string' && id.startsWith(RESERVED_ID_PREFIX)) return 'establish';
    const params = asObject(obj.params);
    const meta = asObject(params?.['_meta']);
    const raw = meta && Object.prototype.hasOwnProperty.call(meta, key) ? meta[key] : undefined;
    const c = checkCorrelationId(keyField, raw);
    let corrId: string | null = null;
    if (c.kind === 'valid') corrId = c.id;
    else if (c.kind === 'invalid') ctx.finding(finding('INVALID_ID', { channel, scope: RUN_SCOPE, locations: [loc] }, c.info));
    return { rpcKey: jsonRpcKey(id), corrId, tool: producerToolName(params?.name) };
  }

  function callerHandler(ctx: ProfileContext): RecordHandler {
    return {
      record(value: unknown, loc: Loc): RecordOutcome {
        const obj = asObject(value);
        if (!obj) return 'unclaimed';
        const call = readCall(obj, loc, 'decision', ctx);
        if (call === 'establish') {
          establishSkipped++;
          return 'ignored';
        }
        if (!call) return 'ignored';
        callerCalls++;
        if (!decisionEval) return 'ignored';
        const ev: CallEvent = {
          role: 'request',
          channel: 'decision',
          scope: RUN_SCOPE,
          id: call.corrId,
          sig: [call.tool],
          time: null,
          caller: CALLER_LOG,
          attrs: { tool: call.tool, kind: 'tools/call' },
          loc,
          orphanNote: NOTE_NO_DECISION_RECORD,
        };
        // The proxy forwards the caller's line verbatim: its arrival carries the same _meta and id.
        const arrivalKey = call.corrId ?? call.rpcKey;
        if (arrivalKey !== null) chain.set(loc, arrivalKey);
        ctx.emit(ev);
        return 'used';
      },
    };
  }

  function upstreamHandler(ctx: ProfileContext): RecordHandler {
    return {
      record(value: unknown, loc: Loc): RecordOutcome {
        const obj = asObject(value);
        if (!obj) return 'unclaimed';
        const call = readCall(obj, loc, 'delivery', ctx);
        if (call === 'establish') {
          establishSkipped++;
          return 'ignored';
        }
        if (!call) return 'ignored';
        upstreamCalls++;
        if (!deliveryEval) return 'ignored';
        const pair = ctx.emit({
          role: 'terminal',
          channel: 'delivery',
          scope: RUN_SCOPE,
          // A JSON-RPC id can only meet an id chained through a decision pair: without the caller
          // log it is no key at all.
          id: call.corrId ?? (decisionEval ? call.rpcKey : null),
          sig: [call.tool],
          time: null,
          caller: UPSTREAM_LOG,
          attrs: { tool: call.tool, kind: 'tools/call' },
          loc,
        });
        if (pair) allowArrived++;
        return 'used';
      },
    };
  }

  function countTool(tool: string | null): void {
    if (tool === null) return;
    if (byTool.has(tool) || byTool.size < MAX_TOOLS) bump(byTool, tool);
    else toolsOmitted++;
  }

  function decisionHandler(ctx: ProfileContext): RecordHandler {
    return {
      record(value: unknown, loc: Loc): RecordOutcome {
        const top = asObject(value);
        if (!top) return 'unclaimed';
        const schema = top.schema;
        if (typeof schema !== 'string' || !schema.startsWith('assay.')) return 'unclaimed';
        if (!schema.startsWith(DECISION_SCHEMA_PREFIX)) {
          otherAssay++;
          return 'ignored';
        }
        records++;
        const v = validateDecisionRecord(top);
        if (v.status === 'unsupported_schema') {
          unsupported++;
          const shown = schema.length > MAX_SCHEMA_CHARS ? `${schema.slice(0, MAX_SCHEMA_CHARS)}…` : schema;
          ctx.finding(finding('UNSUPPORTED_SCHEMA', { channel: null, scope: RUN_SCOPE, locations: [loc] }, { schema: shown }));
          // An unknown version is not read further: its call stays unpaired.
          return 'used';
        }
        if (v.status === 'valid') valid++;
        else if (v.status === 'malformed') malformed++;
        else inconsistent++;
        if (v.status !== 'valid') {
          ctx.finding(
            finding('INCONSISTENT_RECORD', { channel: null, scope: RUN_SCOPE, locations: [loc] }, { problems: v.problems, kind: v.status === 'malformed' ? 'malformed' : 'inconsistent' }),
          );
        }

        const tool = clipOrNull(asString(asObject(top.tool)?.name));
        // The producer already sanitized it; a hand-made record may not have been.
        const sigTool = tool === null ? null : producerToolName(tool);
        const decision = asString(top.decision);
        const reason = asString(top.reason);
        if (decision === 'allow') byDecision.allow++;
        else if (decision === 'deny') byDecision.deny++;
        else byDecision.other++;
        bump(byReason, reason !== null && (REASONS as readonly string[]).includes(reason) ? reason : 'other');
        countTool(tool);

        // The correlation id: optional, additive within v0.
        let corrId: string | null = null;
        const c = checkCorrelationId('correlation_id', top.correlation_id);
        if (c.kind === 'valid') {
          corrId = c.id;
          corr.present++;
          if (seenCorr.has(corrId)) corr.duplicated++;
          remember(seenCorr, corrId, true, window);
        } else if (c.kind === 'invalid') {
          corr.invalid++;
          ctx.finding(finding('INVALID_ID', { channel: null, scope: RUN_SCOPE, locations: [loc] }, c.info));
        } else if (top.correlation_id_invalid === true) corr.invalid++;
        else corr.absent++;
        if (corrId === null) recordsWithoutId++;

        const callerId = clipText(asString(asObject(top.caller)?.id) ?? '');
        const attrs: CallAttrs = { tool, status: decision, kind: schema };
        let chained: string | null = null;
        let inherited: Confidence | undefined;
        if (decisionEval) {
          const pair = ctx.emit({ role: 'terminal', channel: 'decision', scope: RUN_SCOPE, id: corrId, sig: [sigTool], time: null, caller: callerId, attrs, loc });
          if (pair) {
            chained = chain.get(pair.request.loc) ?? null;
            chain.delete(pair.request.loc);
            inherited = pair.confidence;
          }
        }

        if (decision === 'allow') {
          allowRecords++;
          if (deliveryEval) {
            const ev: CallEvent = {
              role: 'request',
              channel: 'delivery',
              scope: RUN_SCOPE,
              id: corrId ?? chained,
              sig: [sigTool],
              time: null,
              caller: callerId,
              attrs,
              loc,
              orphanNote: NOTE_ALLOWED_NOT_OBSERVED,
            };
            // An id inherited through the decision pair is no surer than that pair.
            if (corrId === null && chained !== null && inherited) ev.maxConfidence = inherited;
            ctx.emit(ev);
          }
        } else if (decision === 'deny') {
          denyRecords++;
          const keys = [corrId, chained].filter((k): k is string => k !== null);
          if (keys.length === 0) denyUnchecked++;
          const entry: DenyEntry = { loc, tool, reason, arrived: false };
          for (const k of keys) remember(denyKeys, k, entry, window);
        }
        return 'used';
      },
    };
  }

  return {
    name: 'assay',
    channels: [DECISION_CHANNEL, DELIVERY_CHANNEL],
    needles: ['"assay.', '"tools/call"'],
    classify: {
      capture: { key: 'schema', prefixes: ['assay.'], other: 'unclaimed', absent: 'unclaimed' },
      caller: { key: 'method', values: ['tools/call'], other: 'ignored', absent: 'ignored' },
      upstream: { key: 'method', values: ['tools/call'], other: 'ignored', absent: 'ignored' },
    },
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role === 'caller') return callerHandler(ctx);
      if (source.role === 'upstream') return upstreamHandler(ctx);
      return decisionHandler(ctx);
    },
    orphanResponse(o: OrphanResponseRecord, ctx: ProfileContext): void {
      if (o.channel !== 'delivery') return;
      const t = o.terminal;
      const entry = t.id !== null ? denyKeys.get(t.id) : undefined;
      if (entry) {
        deniedArrivals++;
        if (!entry.arrived) {
          entry.arrived = true;
          denyArrived++;
        }
        ctx.finding(
          finding(
            'DENIED_BUT_DELIVERED',
            { channel: 'delivery', scope: o.scope, locations: [t.loc, entry.loc] },
            { tool: t.attrs.tool ?? entry.tool, id: t.id, reason: entry.reason, deny: entry.loc },
          ),
        );
      } else {
        unrecordedArrivals++;
        ctx.finding(finding('UNRECORDED_DELIVERY', { channel: 'delivery', scope: o.scope, locations: [t.loc] }, { tool: t.attrs.tool ?? null, id: t.id }));
      }
    },
    evaluatedChannels(): readonly string[] {
      const out: string[] = [];
      if (decisionEval) out.push('decision');
      if (deliveryEval) out.push('delivery');
      return out;
    },
    notes(): string[] {
      if (records === 0 && callerCalls === 0 && upstreamCalls === 0) return [];
      const out: string[] = [];
      if (!decisionEval && !deliveryEval)
        out.push('assay: decision records only, nothing paired (give --caller FILE and --upstream FILE to audit decisions and delivery)');
      if (deliveryEval && !decisionEval && recordsWithoutId > 0)
        out.push(
          'assay: bypass detection needs ids or the caller log: decision records without a correlation id pair with upstream arrivals by tool name in order, and a denied call that reached the upstream shows only as UNRECORDED_DELIVERY',
        );
      if (decisionEval && !deliveryEval) out.push('assay: delivery not audited (give --upstream FILE, the upstream’s received tools/call log)');
      return out;
    },
    summary(): AssaySummary | undefined {
      if (records === 0 && callerCalls === 0 && upstreamCalls === 0 && otherAssay === 0) return undefined;
      const reasons: Array<{ reason: string; count: number }> = [];
      for (const r of [...REASONS, 'other']) {
        const n = byReason.get(r);
        if (n) reasons.push({ reason: r, count: n });
      }
      const tools = [...byTool].map(([tool, count]) => ({ tool, count }));
      tools.sort((a, b) => b.count - a.count || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
      const denyChecked = denyRecords - denyUnchecked;
      return {
        records,
        valid,
        malformed,
        unsupportedSchema: unsupported,
        inconsistent,
        otherAssayRecords: otherAssay,
        byDecision: { ...byDecision },
        byReason: reasons,
        byTool: tools,
        toolsOmitted,
        correlationIds: { ...corr },
        calls: { caller: roles.caller ? callerCalls : null, upstream: roles.upstream ? upstreamCalls : null, establishSkipped },
        delivery: deliveryEval
          ? {
              allow: { records: allowRecords, arrived: allowArrived, notArrived: allowRecords - allowArrived },
              // Unknown (null) when no deny record carries an id an arrival could be recognised by.
              deny: {
                records: denyRecords,
                arrived: denyRecords > 0 && denyChecked === 0 ? null : denyArrived,
                notArrived: denyRecords > 0 && denyChecked === 0 ? null : denyChecked - denyArrived,
                unchecked: denyUnchecked,
              },
              deniedArrivals,
              unrecordedArrivals,
            }
          : null,
      };
    },
  };
}
