/**
 * Decision records (`assay.enforcement_decision.*`): validated, counted, and fed as terminals of
 * `decision` and (allow records) requests of `delivery`; deny records are remembered by their keys
 * for the delivery audit.
 */
import type { CallAttrs, Confidence, Loc, PairRecord } from '../../model.js';
import { finding } from '../../report/findings.js';
import { clipOrNull, clipText } from '../clip.js';
import { checkId, type IdKey, makeEvent } from '../event.js';
import type { ProfileContext, RecordHandler, RecordOutcome } from '../types.js';
import { asObject, asString } from '../types.js';
import { DECISION_CHANNEL, DELIVERY_CHANNEL } from './channels.js';
import { assayUnique, checkDocumentRecord, duplicateKey } from './duplicates.js';
import { type DenyEntry, MAX_SCHEMA_CHARS, NOTE_ALLOWED_NOT_OBSERVED, RUN_SCOPE } from './options.js';
import { unreadLine } from './logs.js';
import { producerToolName } from './rpc.js';
import type { AssayRun } from './run.js';
import { DECISION_SCHEMA_PREFIX, REASONS, validateDecisionRecord } from './validate.js';
import { bump, rememberBounded } from './windows.js';

/**
 * The producer's contract file as published: a JSON document `{schema_contract, records: [{case,
 * record}, …]}` whose records sit at `records[].record` (each keeps the document's line).
 */
function contractRecords(top: Record<string, unknown>): unknown[] | null {
  if (typeof top.schema_contract !== 'string' || !top.schema_contract.startsWith('assay.') || !Array.isArray(top.records)) return null;
  return top.records.map((r) => asObject(r)?.record);
}

export function decisionHandler(run: AssayRun, ctx: ProfileContext): RecordHandler {
  const one = decisionRecord(run, ctx);
  const repeated = duplicateKey(null, ctx);
  const keys = assayUnique('capture', run.key).keys;
  return {
    unread: unreadLine(run),
    repeatedKey: repeated,
    record(value: unknown, loc: Loc, _raw: Buffer | null, doc?: Buffer): RecordOutcome {
      const top = asObject(value);
      if (!top) return 'unclaimed';
      checkDocumentRecord(doc, keys, loc, repeated);
      const inner = contractRecords(top);
      if (inner === null) return one(top, loc);
      let outcome: RecordOutcome = 'ignored';
      for (const r of inner) {
        const o = asObject(r);
        if (o && one(o, loc) === 'used') outcome = 'used';
      }
      return outcome;
    },
  };
}

function decisionRecord(run: AssayRun, ctx: ProfileContext): (top: Record<string, unknown>, loc: Loc) => RecordOutcome {
  return (top: Record<string, unknown>, loc: Loc): RecordOutcome => {
    const schema = top.schema;
    if (typeof schema !== 'string' || !schema.startsWith('assay.')) return 'unclaimed';
    if (!schema.startsWith(DECISION_SCHEMA_PREFIX)) {
      run.otherAssay++;
      return 'ignored';
    }
    run.records++;
    const v = validateDecisionRecord(top);
    if (v.status === 'unsupported_schema') {
      run.unsupported++;
      const shown = schema.length > MAX_SCHEMA_CHARS ? `${schema.slice(0, MAX_SCHEMA_CHARS)}…` : schema;
      ctx.finding(finding('UNSUPPORTED_SCHEMA', { channel: null, scope: RUN_SCOPE, locations: [loc] }, { schema: shown }));
      // An unknown version is not read further: its call stays unpaired.
      return 'used';
    }
    if (v.status === 'valid') run.valid++;
    else if (v.status === 'malformed') run.malformed++;
    else run.inconsistent++;
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
    if (decision === 'allow') run.byDecision.allow++;
    else if (decision === 'deny') run.byDecision.deny++;
    else run.byDecision.other++;
    bump(run.byReason, reason !== null && (REASONS as readonly string[]).includes(reason) ? reason : 'other');
    run.countTool(tool);

    // The correlation id: optional, additive within v0.
    let corrId: IdKey | null = null;
    const c = checkId('correlation', 'correlation_id', top.correlation_id);
    if (c.kind === 'valid') {
      corrId = c.key;
      run.corr.present++;
      if (run.seenCorr.has(corrId)) run.corr.duplicated++;
      else if (run.seenCorr.size < run.window) run.seenCorr.add(corrId);
      else run.seenCorrFull = true;
    } else if (c.kind === 'invalid') {
      run.corr.invalid++;
      ctx.finding(finding('INVALID_ID', { channel: null, scope: RUN_SCOPE, locations: [loc] }, c.info));
    } else if (top.correlation_id_invalid === true) run.corr.invalid++;
    else run.corr.absent++;
    if (corrId === null) run.recordsWithoutId++;

    const callerId = clipText(asString(asObject(top.caller)?.id) ?? '');
    const attrs: CallAttrs = { tool, status: decision, kind: schema };
    let chained: IdKey | null = null;
    let inherited: Confidence | undefined;
    let decisionPair: PairRecord | null = null;
    if (run.decisionEval) {
      // Order across files is no evidence: a pair without an id is at most `ambiguous` then.
      const capped = corrId === null && run.decisionAcrossFiles ? { maxConfidence: 'ambiguous' as const } : {};
      const pair = ctx.emit(makeEvent(DECISION_CHANNEL, { role: 'terminal', scope: RUN_SCOPE, id: corrId, sig: [sigTool], time: null, caller: callerId, attrs, loc, ...capped }, ctx));
      decisionPair = pair;
      if (pair) {
        chained = run.chain.get(pair.request.loc) ?? null;
        run.chain.delete(pair.request.loc);
        inherited = pair.confidence;
      }
    }

    // Order alone chose this record's caller call among several of its tool: when the run holds an
    // allow and a deny of that tool, which call was denied is not known (judged at the end, orderDecided).
    if (corrId === null && decisionPair && decisionPair.candidates > 1 && (decision === 'allow' || decision === 'deny')) {
      if (run.orderPaired.length < run.window) run.orderPaired.push({ loc, tool: sigTool ?? '', decision });
      else run.unverify('window', loc, { window: 'order-paired', bound: run.window });
    }
    if (decision === 'allow') {
      run.allowRecords++;
      run.addAllowTool(sigTool ?? '');
      if (run.deliveryEval) {
        const ev = makeEvent(
          DELIVERY_CHANNEL,
          {
            role: 'request',
            scope: RUN_SCOPE,
            id: corrId ?? chained,
            sig: [sigTool],
            time: null,
            caller: callerId,
            attrs,
            loc,
            orphanNote: NOTE_ALLOWED_NOT_OBSERVED,
            // An id inherited through the decision pair is no surer than that pair; without any id,
            // order across files is no evidence.
            ...(corrId === null && chained !== null && inherited ? { maxConfidence: inherited } : {}),
            ...(corrId === null && chained === null && run.deliveryAcrossFiles ? { maxConfidence: 'ambiguous' as const } : {}),
          },
          ctx,
        );
        ctx.emit(ev);
      }
    } else if (decision === 'deny') {
      run.denyRecords++;
      const keys = [corrId, chained].filter((k): k is IdKey => k !== null);
      const entry: DenyEntry = { loc, tool, reason, arrived: false, unchecked: keys.length === 0 };
      if (corrId === null) denyWithoutId(run, loc, decisionPair);
      if (keys.length === 0) run.denyUnchecked++;
      // Remembered until the end of input (a denied call can arrive any time): a key past the
      // window is refused, and the audit is unverified (docs/design.md §8).
      if (run.deliveryEval) {
        for (const k of keys) if (!rememberBounded(run.denyKeys, k, entry, run.window)) run.unverify('window', loc, { window: 'deny-keys', bound: run.window });
        // An arrival no id identifies may be this call (delivery.ts): remembered by its tool.
        if (keys.length === 0 && !run.uncheckedDenies.push(sigTool ?? '', entry)) run.unverify('window', loc, { window: 'denies-without-key', bound: run.window });
        // A key-less arrival of its tool may be this call too (delivery.ts judgeSuspects).
        if (keys.length > 0 && !run.keyedDenies.push(sigTool ?? '', entry)) run.unverify('window', loc, { window: 'deny-tools', bound: run.window });
        run.addDenyTool(sigTool ?? '');
      }
    }
    return 'used';
  };
}

/**
 * A deny record without a correlation id: its delivery is checked by the JSON-RPC id its caller
 * call chains to it. When there is no such call, or only order chose it, the audit cannot be
 * exact (docs/assay.md, "Exact, or fail closed").
 */
function denyWithoutId(run: AssayRun, loc: Loc, pair: PairRecord | null): void {
  if (!run.decisionEval) run.unverify('deny-without-id', loc);
  else if (run.callerCalls === 0) run.unverify('caller-log-empty', loc);
  else if (!pair) run.unverify('deny-not-in-caller-log', loc);
  else if (pair.confidence === 'ambiguous') run.unverify('ambiguous-pairing', loc);
}

/**
 * At the end of input: a decision record paired with its caller call only by order among several
 * calls of its tool, when the run holds both an allow and a deny of that tool, may name the wrong
 * call: the denied call may be the one that arrived (docs/assay.md, ambiguous-pairing).
 */
export function orderDecided(run: AssayRun): void {
  for (const p of run.orderPaired) {
    const other = p.decision === 'allow' ? run.deniesTool(p.tool) : run.allowsTool(p.tool);
    if (other) run.unverify('ambiguous-pairing', p.loc);
  }
  run.orderPaired.length = 0;
}
