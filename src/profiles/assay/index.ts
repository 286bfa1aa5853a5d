/**
 * Assay policy decisions and the JSON-RPC calls around them (docs/design.md §3.2).
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
 * `jsonrpc:n:<safe integer>` or `jsonrpc:s:<string>` (typed, so 9 ≠ "9"), or `jsonrpc:h:<sha256>`
 * for a string that is not safe-shaped; any other id is INVALID_ID and no key. The `:` keeps the two namespaces apart (no correlation id holds
 * one), and a JSON-RPC id is never checked by the safe-shape rule (it is a protocol id).
 *
 * Delivery audit: an arrival no allow record takes is an orphan response of `delivery` (the
 * engine's ORPHAN_RESPONSE stays, so the ledger and the finding count agree); the profile adds
 * DENIED_BUT_DELIVERED when a deny record explains it, UNRECORDED_DELIVERY otherwise. An arrival
 * paired with an allow that no id tells from a denied call is a DENIED_BUT_DELIVERED marked
 * `ambiguous` at the end (delivery.ts). JSON-RPC ids follow the protocol id rule (rpc.ts).
 */
import type { OrphanRequestRecord, OrphanResponseRecord } from '../../model.js';
import type { Source } from '../../input/sources.js';
import type { AssaySummary } from '../../report/assay.js';
import type { Profile, ProfileContext, RecordHandler } from '../types.js';
import { ASSAY_KEEP, DECISION_CHANNEL, DELIVERY_CHANNEL } from './channels.js';
import { decisionHandler, orderDecided } from './decisions.js';
import { ASSAY_NEEDLES, assayUnique } from './duplicates.js';
import { classifyArrival, evicted, judgeSuspects, reportUnverified } from './delivery.js';
import { callerHandler, upstreamHandler } from './logs.js';
import type { AssayOptions } from './options.js';
import { AssayRun } from './run.js';
import { assayNotes, assaySummary } from './summary.js';

export type { AssaySummary } from '../../report/assay.js';
export { ASSAY_KEEP, DECISION_CHANNEL, DELIVERY_CHANNEL } from './channels.js';
export { DEFAULT_CORRELATION_KEY, NOTE_ALLOWED_NOT_OBSERVED, NOTE_NO_DECISION_RECORD, RUN_SCOPE, type AssayOptions } from './options.js';
export { jsonRpcKey, producerToolName } from './rpc.js';

export function assayProfile(options: Record<string, unknown> = {}): Profile {
  const run = new AssayRun(options as AssayOptions);
  return {
    name: 'assay',
    channels: [DECISION_CHANNEL, DELIVERY_CHANNEL],
    // `initialize` is read too: a repeated handshake is several runs in one file set.
    needles: ASSAY_NEEDLES,
    classify: {
      capture: { key: 'schema', prefixes: ['assay.'], other: 'unclaimed', absent: 'unclaimed', unique: assayUnique('capture', run.key) },
      // Every line of the caller and upstream logs is read (`readAll`), so no kind decides: any line
      // may hide a call (an envelope, logs.ts `wrapsToolsCall`), and one that is no JSON is a line
      // the audit could not read, in every mode (docs/assay.md). Each is pruned by `keep`.
      caller: { key: 'method', readAll: true, other: 'ignored', absent: 'ignored', unique: assayUnique('rpc', run.key) },
      upstream: { key: 'method', readAll: true, other: 'ignored', absent: 'ignored', unique: assayUnique('rpc', run.key) },
    },
    keep: ASSAY_KEEP,
    open(source: Source, ctx: ProfileContext): RecordHandler | null {
      if (source.role === 'caller') return callerHandler(run, ctx);
      if (source.role === 'upstream') return upstreamHandler(run, ctx);
      return decisionHandler(run, ctx);
    },
    finish(ctx: ProfileContext): void {
      if (run.deliveryEval) judgeSuspects(run, ctx);
      if (run.deliveryEval) orderDecided(run);
      reportUnverified(run, ctx);
    },
    orphanResponse(o: OrphanResponseRecord, ctx: ProfileContext): void {
      classifyArrival(run, o, ctx);
    },
    orphanRequest(o: OrphanRequestRecord): void {
      evicted(run, o);
    },
    evaluatedChannels(): readonly string[] {
      const out: string[] = [];
      if (run.decisionEval) out.push(DECISION_CHANNEL.name);
      if (run.deliveryEval) out.push(DELIVERY_CHANNEL.name);
      return out;
    },
    notes() {
      return assayNotes(run);
    },
    summary(): AssaySummary | undefined {
      return assaySummary(run);
    },
  };
}
