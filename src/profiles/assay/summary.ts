/** What an assay run reports: `report.records.assay` (the delivery matrix, validation counts) and its notes. */
import type { NoteCode } from '../../report/notes.js';
import type { AssaySummary } from '../../report/assay.js';
import type { AssayRun } from './run.js';
import { REASONS } from './validate.js';

export function assayNotes(run: AssayRun): NoteCode[] {
  if (run.records === 0 && run.callerCalls === 0 && run.upstreamCalls === 0) return [];
  const out: NoteCode[] = [];
  if (!run.decisionEval && !run.deliveryEval) out.push('assay-nothing-paired');
  // A caller log with no tools/call (only the handshake: cut, or another run's) chains nothing.
  if (run.deliveryEval && (!run.decisionEval || run.callerCalls === 0) && run.recordsWithoutId > 0) out.push('assay-bypass-needs-ids');
  if (run.decisionEval && !run.deliveryEval && !run.auditAsked) out.push('assay-delivery-not-audited');
  if (run.severalRuns()) out.push('assay-several-runs');
  if (run.methodSpellings > 0) out.push('assay-method-spelling');
  return out;
}

export function assaySummary(run: AssayRun): AssaySummary | undefined {
  if (run.records === 0 && run.callerCalls === 0 && run.upstreamCalls === 0 && run.otherAssay === 0) return undefined;
  const reasons: Array<{ reason: string; count: number }> = [];
  for (const r of [...REASONS, 'other']) {
    const n = run.byReason.get(r);
    if (n) reasons.push({ reason: r, count: n });
  }
  const tools = [...run.byTool].map(([tool, count]) => ({ tool, count }));
  tools.sort((a, b) => b.count - a.count || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
  const denyChecked = run.denyRecords - run.denyUnchecked;
  return {
    records: run.records,
    valid: run.valid,
    malformed: run.malformed,
    unsupportedSchema: run.unsupported,
    inconsistent: run.inconsistent,
    otherAssayRecords: run.otherAssay,
    byDecision: { ...run.byDecision },
    byReason: reasons,
    byTool: tools,
    toolsOmitted: run.toolsOmitted,
    // Unknown once more distinct ids were seen than the window holds (no number is made up).
    correlationIds: { ...run.corr, duplicated: run.seenCorrFull ? null : run.corr.duplicated },
    runs: { callerHandshakes: run.handshakes.caller, upstreamHandshakes: run.handshakes.upstream, callerIdsReused: run.callerIdsFull ? null : run.callerIdsReused },
    calls: { caller: run.roles.caller ? run.callerCalls : null, upstream: run.roles.upstream ? run.upstreamCalls : null, establishSkipped: run.establishSkipped },
    ...(run.methodSpellingFirst ? { methodSpellings: { count: run.methodSpellings, first: run.methodSpellingFirst } } : {}),
    delivery: run.deliveryEval
      ? {
          allow: { records: run.allowRecords, arrived: run.allowArrived, notArrived: run.allowRecords - run.allowArrived },
          // Unknown (null) when no deny record carries an id an arrival could be recognised by.
          deny: {
            records: run.denyRecords,
            arrived: run.denyRecords > 0 && denyChecked === 0 ? null : run.denyArrived,
            notArrived: run.denyRecords > 0 && denyChecked === 0 ? null : denyChecked - run.denyArrived,
            unchecked: run.denyUnchecked,
          },
          deniedArrivals: run.deniedArrivals,
          unrecordedArrivals: run.unrecordedArrivals,
        }
      : null,
  };
}
