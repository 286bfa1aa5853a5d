/**
 * Decision records (`assay.enforcement_decision.*`): validated, counted, and fed as terminals of
 * `decision` and (allow records) requests of `delivery`; deny records are remembered by their keys
 * for the delivery audit.
 */
import type { CallAttrs, Confidence, Loc } from '../../model.js';
import { finding } from '../../report/findings.js';
import { clipOrNull, clipText } from '../clip.js';
import { checkId, type IdKey, makeEvent } from '../event.js';
import type { ProfileContext, RecordHandler, RecordOutcome } from '../types.js';
import { asObject, asString } from '../types.js';
import { DECISION_CHANNEL, DELIVERY_CHANNEL } from './channels.js';
import { duplicateKey } from './duplicates.js';
import { type DenyEntry, MAX_SCHEMA_CHARS, NOTE_ALLOWED_NOT_OBSERVED, RUN_SCOPE } from './options.js';
import { producerToolName } from './rpc.js';
import type { AssayRun } from './run.js';
import { DECISION_SCHEMA_PREFIX, REASONS, validateDecisionRecord } from './validate.js';
import { bump, remember } from './windows.js';

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
  return {
    repeatedKey: duplicateKey(null, ctx),
    record(value: unknown, loc: Loc): RecordOutcome {
      const top = asObject(value);
      if (!top) return 'unclaimed';
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
      remember(run.seenCorr, corrId, true, run.window);
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
    if (run.decisionEval) {
      const pair = ctx.emit(makeEvent(DECISION_CHANNEL, { role: 'terminal', scope: RUN_SCOPE, id: corrId, sig: [sigTool], time: null, caller: callerId, attrs, loc }, ctx));
      if (pair) {
        chained = run.chain.get(pair.request.loc) ?? null;
        run.chain.delete(pair.request.loc);
        inherited = pair.confidence;
      }
    }

    if (decision === 'allow') {
      run.allowRecords++;
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
            // An id inherited through the decision pair is no surer than that pair.
            ...(corrId === null && chained !== null && inherited ? { maxConfidence: inherited } : {}),
          },
          ctx,
        );
        ctx.emit(ev);
      }
    } else if (decision === 'deny') {
      run.denyRecords++;
      const keys = [corrId, chained].filter((k): k is IdKey => k !== null);
      const entry: DenyEntry = { loc, tool, reason, arrived: false, unchecked: keys.length === 0 };
      for (const k of keys) remember(run.denyKeys, k, entry, run.window);
      if (keys.length === 0) {
        run.denyUnchecked++;
        // An arrival no id identifies may be this call (delivery.ts): remembered by its tool.
        if (run.uncheckedRemembered < run.window) {
          run.uncheckedRemembered++;
          const t = sigTool ?? '';
          const list = run.uncheckedDenies.get(t);
          if (list) list.push(entry);
          else run.uncheckedDenies.set(t, [entry]);
        }
      }
    }
    return 'used';
  };
}
