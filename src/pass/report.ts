/**
 * Stage 6, report: the inputs no profile used and a run with nothing to audit become findings
 * (nothing passes quietly), then the report model (`callpair.report.v1`, docs/report.md) is built
 * from the engine's snapshot, the findings, the ledgers, the notes and the gate.
 */
import { finding, type Finding, type FindingCollector } from '../report/findings.js';
import { findingMessage } from '../report/messages.js';
import { evictedWindow } from '../engine/engine.js';
import { evictedNote, noteText, unsureOrphansNote, zeroLatencyNote } from '../report/notes.js';
import { evaluateGate } from '../report/gate.js';
import { channelReportWithData, inputTotals, REPORT_SCHEMA, type InputLedgerReport, type MergeDataReport, type Report } from '../report/report.js';
import type { Profile } from '../profiles/index.js';
import { VERSION } from '../version.js';
import { DEFAULT_CLOSED_WINDOW, DEFAULT_MAX_FINDINGS, DEFAULT_MAX_OPEN_CALLS, runReport, type AnalyzeOptions } from './options.js';
import type { Sources } from './sources.js';
import type { Roles } from './roles.js';
import type { Pass } from './engine.js';

export interface ReportInput {
  opts: AnalyzeOptions;
  found: Sources;
  roles: Roles;
  profiles: readonly Profile[];
  collector: FindingCollector;
  pass: Pass;
  /** Aligned with `found.sources`. */
  inputs: InputLedgerReport[];
}

export function buildReport({ opts, found, roles, profiles, collector, pass, inputs }: ReportInput): Report {
  const { sources } = found;
  const { engine, failed, timeline } = pass;
  // Nothing passes quietly: an input no profile used is named, and a run with nothing to audit fails.
  // inputs[k] is the ledger of sources[k] (a lookup by path per input was quadratic in the inputs).
  for (const [k, i] of inputs.entries()) {
    const src = sources[k];
    if (src && roles.rpcLess.has(src) && src.role !== 'capture') {
      collector.add(
        finding('UNMATCHED_INPUT', { locations: [{ path: i.path, line: 1 }] }, { path: i.path, role: src.role, records: i.records, lines: i.lines, reason: 'no-json-rpc' }),
      );
    } else if (i.used === 0 && i.error === null && src?.role === 'capture') {
      collector.add(finding('UNMATCHED_INPUT', { locations: [{ path: i.path, line: 1 }] }, { path: i.path, role: 'capture', records: i.records, lines: i.lines }));
    }
  }
  let events = 0;
  for (const st of engine.channels.values()) events += st.counters.requests + st.counters.terminals + st.counters.interims;
  const usedRecords = inputs.reduce((n, i) => n + i.used, 0);
  if (events === 0 && usedRecords === 0 && !opts.allowEmpty) {
    collector.add(
      finding('NO_CALL_EVENTS', { locations: [] }, {
        reason: sources.length === 0 ? 'no-inputs' : 'nothing-matched',
        inputs: sources.length,
        records: inputs.reduce((n, i) => n + i.records, 0),
        profile: profiles.length === 1 ? profiles[0]!.name : opts.profile ?? 'auto',
      }),
    );
  }

  // Channels with any event, or that a profile evaluated, in declaration order.
  const channels = [];
  const mergeData: MergeDataReport = { channels: [] };
  const evaluated = new Set(profiles.flatMap((p) => p.evaluatedChannels?.() ?? []));
  const snapshot = engine.snapshot({ distributions: timeline !== null });
  for (const st of snapshot.channels) {
    const c = st.counters;
    if (c.requests + c.terminals + c.interims > 0 || evaluated.has(st.spec.name)) {
      const { report, data } = channelReportWithData(st, opts.maxScopes, failed.get(st.spec.name) ?? 0);
      channels.push(report);
      mergeData.channels.push(data);
    }
  }

  const { records, notes } = recordsAndNotes(found, profiles);
  for (const ch of channels) if (ch.zeroLatencies > 0) notes.push(zeroLatencyNote(ch.channel, ch.zeroLatencies));
  for (const ch of channels) if (ch.evictedRequests > 0) notes.push(evictedNote(ch.channel, ch.evictedRequests, opts.maxOpenCalls ?? DEFAULT_MAX_OPEN_CALLS));
  const window = opts.closedWindow ?? DEFAULT_CLOSED_WINDOW;
  for (const ch of channels) if (ch.unsureOrphans) notes.push(unsureOrphansNote(ch.channel, window, evictedWindow(window)));
  const findings = collector.list().map((f) => ({ ...f, message: findingMessage(f) }) as Finding);
  const findingCounts = collector.countsObject();
  const findingsOmitted: Report['findingsOmitted'] = {};
  const max = opts.maxFindings ?? DEFAULT_MAX_FINDINGS;
  for (const [code, n] of Object.entries(findingCounts) as [keyof typeof findingCounts, number][]) {
    if (n > max) findingsOmitted[code] = n - max;
  }

  const report: Report = {
    schema: REPORT_SCHEMA,
    tool: { name: 'callpair', version: VERSION },
    run: runReport(opts, profiles),
    inputs,
    totals: inputTotals(inputs),
    channels,
    records,
    notes,
    findings,
    findingCounts,
    findingsOmitted,
    gate: evaluateGate(opts.gate ?? {}, findingCounts, channels),
    mergeData,
  };
  if (timeline) report.timeline = timeline.build(channels, snapshot.channels);
  return report;
}

/** The profiles' summaries (`records`) and the notes: what was given but not read, then each profile's. */
function recordsAndNotes(found: Sources, profiles: readonly Profile[]): { records: Record<string, unknown>; notes: string[] } {
  const { profileSkipped, repeated, skipped } = found;
  const records: Record<string, unknown> = {};
  const notes: string[] = [];
  if (profileSkipped.length > 0) notes.push(`Not read as a capture: ${profileSkipped.join(', ')} (the profile file).`);
  if (repeated.length > 0) {
    const shown = repeated.slice(0, 10).map((r) => `${r.path} (same file as ${r.same})`).join(', ');
    const more = repeated.length > 10 ? ` and ${repeated.length - 10} more` : '';
    notes.push(`Read once, given more than once: ${shown}${more}.`);
  }
  if (skipped.length > 0) {
    const shown = skipped.slice(0, 10).join(', ');
    notes.push(`Not read as captures (not named *.jsonl, *.ndjson, *.json or *.har, optionally .gz): ${shown}${skipped.length > 10 ? ` and ${skipped.length - 10} more` : ''}.`);
  }
  for (const p of profiles) {
    const s = p.summary?.();
    if (s !== undefined) records[p.name] = s;
    const n = p.notes?.();
    // A note two profiles give (times read as UTC) is said once.
    if (n) for (const t of n.map(noteText)) if (!notes.includes(t)) notes.push(t);
  }
  return { records, notes };
}
