/**
 * The report model: the JSON contract `callpair.report.v1` (docs/design.md §7). Built from the engine's
 * counters, the findings and the input ledgers; deterministic (no wall-clock time inside), keys in
 * camelCase, unknown numbers null.
 */
import { channelMeaning, type ChannelMeaning, type Loc } from '../model.js';
import type { ChannelSnapshot, CountersSnapshot, LatencySketch, LatencyStats } from '../model/snapshot.js';
import type { Finding, FindingCode } from './findings.js';
import { counterTrouble, worstFirst } from './worst-scopes.js';
import type { Gate } from './gate.js';
import type { TimelineReport } from './timeline/types.js';
import type { ReportBaseline } from '../merge/baseline-types.js';
import type { ChannelReport, CounterReport, InputLedgerReport, LatencyGroupReport, ScopeReport } from './parts.js';

export type { ChannelReport, CounterReport, InputLedgerReport, LatencyGroupReport, ScopeReport } from './parts.js';

export const REPORT_SCHEMA = 'callpair.report.v1';

/** The report's `totals`: every input's ledger summed (one run, or the shards `callpair merge` combines). */
export function inputTotals(inputs: readonly InputLedgerReport[]): Report['totals'] {
  const t = { lines: 0, records: 0, ignored: 0, unparsed: 0, malformed: 0, oversized: 0, blank: 0, duplicates: 0 };
  for (const i of inputs) {
    t.lines += i.lines;
    t.records += i.records;
    t.ignored += i.ignored;
    t.unparsed += i.unparsed ?? 0;
    t.malformed += i.malformed;
    t.oversized += i.oversized;
    t.blank += i.blank;
    t.duplicates += i.duplicates;
  }
  return t;
}

/**
 * The options that shaped the report (docs/scale-out.md): `callpair merge` combines only reports
 * whose `tool` and `run` are equal, and re-evaluates the gate with `run.gate`.
 */
export interface RunReport {
  profile: string;
  profileOptions: Record<string, unknown>;
  /** The profiles' names, in the order their sections appear in `records`. */
  profiles: string[];
  /** The channels the profiles declare, in declaration order (the order of `channels`). */
  channels: string[];
  maxLineBytes: number;
  validateAll: boolean;
  maxFindings: number;
  closedWindow: number;
  maxOpenCalls: number;
  maxScopes: number | null;
  /** `--allow-empty`: no NO_CALL_EVENTS finding when nothing matched. */
  allowEmpty: boolean;
  gate: {
    failOn: string[];
    maxCrossedRate: number | null;
    maxOrphanRequests: number | null;
    maxAmbiguous: number | null;
    minIdCoverage: number | null;
    noFail: boolean;
    /** `--allow-unverified` (absent in reports from before it existed: false). */
    allowUnverified?: boolean;
  };
}

/** What a merge needs beyond the displayed numbers, per channel (aligned with `channels`). */
export interface MergeDataReport {
  channels: Array<{
    channel: string;
    requestsWithId: number;
    terminalsWithId: number;
    /** The channel's latency histogram (src/stats/histogram.ts), null without latencies. */
    latency: LatencySketch | null;
    /** Aligned with the channel's `latencyByGroup`. */
    groups: LatencySketch[];
  }>;
}

export interface Report {
  schema: typeof REPORT_SCHEMA;
  tool: { name: 'callpair'; version: string };
  run: RunReport;
  inputs: InputLedgerReport[];
  totals: { lines: number; records: number; ignored: number; unparsed: number; malformed: number; oversized: number; blank: number; duplicates: number };
  channels: ChannelReport[];
  /** Profile-specific counts (e.g. `assay`). */
  records: Record<string, unknown>;
  /** Things the report cannot tell from this input, by stable code (e.g. `bypass-detection-needs-ids`). */
  notes: string[];
  findings: Finding[];
  findingCounts: Partial<Record<FindingCode, number>>;
  /** How many findings of each code were left out of `findings` (beyond --max-findings). */
  findingsOmitted: Partial<Record<FindingCode, number>>;
  gate: Gate;
  mergeData: MergeDataReport;
  /** `analyze --baseline BASE.json`: new, fixed and unchanged findings, and deltas (src/merge/diff.ts). */
  baseline?: ReportBaseline;
  /** Per-call timeline and latency distributions, only when asked for (`timeline: true`; the html format). */
  timeline?: TimelineReport;
}

function rate(n: number, d: number): number | null {
  return d === 0 ? null : Math.round((n / d) * 1e6) / 1e6;
}

/** `meaning`: on a channel whose profile declares no id (`ids: 'undeclared'`) id coverage is unknown, null. */
export function counterReport(c: CountersSnapshot, meaning?: Pick<ChannelMeaning, 'ids'>): CounterReport {
  const noIds = meaning?.ids === 'undeclared';
  return {
    requests: c.requests,
    terminals: c.terminals,
    interims: c.interims,
    unattributedInterims: c.unattributedInterims,
    redundant: c.redundant,
    pairs: {
      total: c.pairs,
      byMethod: c.byMethod.record ? { ...c.byMethod } : { id: c.byMethod.id, signature: c.byMethod.signature, fifo: c.byMethod.fifo },
      byConfidence: { ...c.byConfidence },
    },
    orphanRequests: c.orphanRequests,
    evictedRequests: c.evicted,
    orphanResponses: c.orphanResponses,
    duplicateTerminals: c.duplicateTerminals,
    duplicateIds: c.duplicateIds,
    crossed: {
      comparable: c.crossedComparable,
      fifo: c.crossedFifo,
      signature: c.crossedSignature,
      fifoRate: rate(c.crossedFifo, c.crossedComparable),
      signatureRate: rate(c.crossedSignature, c.crossedComparable),
    },
    idCoverage: noIds ? { requests: null, terminals: null } : { requests: rate(c.requestsWithId, c.requests), terminals: rate(c.terminalsWithId, c.terminals) },
    maxInFlight: c.maxInFlight,
    negativeLatencies: c.negativeLatencies,
    zeroLatencies: c.zeroLatencies,
    latencyMs: c.latency,
  };
}

const byName = (a: { scope: string }, b: { scope: string }) => (a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0);

/**
 * A channel's report. With `maxScopes`, only that many scopes are listed — the most troubled ones
 * (ties by name) — and `scopesOmitted` says how many were left out; the channel's counters still
 * cover every scope.
 */
export function channelReport(st: ChannelSnapshot, maxScopes?: number, failed = 0): ChannelReport {
  return channelReportWithData(st, maxScopes, failed).report;
}

/** A channel's report and its merge data (latency sketches aligned with `latencyByGroup`). */
export function channelReportWithData(st: ChannelSnapshot, maxScopes?: number, failed = 0): { report: ChannelReport; data: MergeDataReport['channels'][number] } {
  const meaning = channelMeaning(st.spec);
  let scopes: ScopeReport[] = st.scopes.map((s) => ({ scope: s.scope, ...counterReport(s.counters, meaning) }));
  const folded = st.scopesFolded ?? 0;
  let omitted = folded;
  if (maxScopes !== undefined && scopes.length > maxScopes) {
    omitted += scopes.length - maxScopes;
    scopes = worstFirst(scopes, counterTrouble, (s) => [s.scope]).slice(0, maxScopes);
  }
  // Deterministic: scopes in byte order of their name (first-seen order depends on file order).
  scopes.sort(byName);
  const withSketch = st.latencyGroups.map((g) => ({ r: { group: g.group, subgroup: g.subgroup, ...g.stats } as LatencyGroupReport, sketch: g.sketch }));
  withSketch.sort((a, b) => compareGroups(a.r, b.r));
  const groups = withSketch.map((g) => g.r);
  const data = {
    channel: st.spec.name,
    requestsWithId: st.counters.requestsWithId,
    terminalsWithId: st.counters.terminalsWithId,
    latency: st.latencySketch,
    groups: withSketch.map((g) => g.sketch),
  };
  const report: ChannelReport = {
    channel: st.spec.name,
    ordered: st.spec.ordered,
    meaning,
    ...counterReport(st.counters, meaning),
    failed,
    scopeCount: st.scopes.length + folded,
    ...(omitted > 0 ? { scopesOmitted: omitted } : {}),
    ...(folded > 0 ? { scopesFolded: folded } : {}),
    ...(st.unsureOrphans ? { unsureOrphans: st.unsureOrphans } : {}),
    ...(st.unsureRepeats ? { unsureRepeats: st.unsureRepeats } : {}),
    latencyByGroup: groups,
    scopes,
  };
  return { report, data };
}

/** Latency groups: most calls first, then by name. */
export function compareGroups(a: LatencyGroupReport, b: LatencyGroupReport): number {
  return b.count - a.count || cmp(a.group, b.group) || cmp(a.subgroup, b.subgroup);
}

function cmp(a: string | null, b: string | null): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The ledger identities of docs/design.md §7; returns the violations (empty when the report is sound). */
export function ledgerViolations(report: Report): string[] {
  const out: string[] = [];
  const check = (where: string, c: CounterReport) => {
    const p = c.pairs;
    if (c.requests !== p.total + c.orphanRequests) out.push(`${where}: requests ≠ pairs + orphanRequests`);
    if (c.terminals !== p.total + c.orphanResponses + c.duplicateTerminals + c.redundant)
      out.push(`${where}: terminals ≠ pairs + orphanResponses + duplicateTerminals + redundant`);
    if (p.total !== p.byMethod.id + p.byMethod.signature + p.byMethod.fifo + (p.byMethod.record ?? 0)) out.push(`${where}: pairs ≠ Σ byMethod`);
    if (p.total !== p.byConfidence.exact + p.byConfidence.unambiguous + p.byConfidence.ambiguous) out.push(`${where}: pairs ≠ Σ byConfidence`);
  };
  for (const ch of report.channels) {
    check(ch.channel, ch);
    for (const s of ch.scopes) check(`${ch.channel}/${s.scope}`, s);
  }
  for (const i of report.inputs) {
    if (i.format === 'jsonl' && i.lines !== i.records + i.blank + i.malformed + i.oversized)
      out.push(`${i.path}: lines ≠ records + blank + malformed + oversized`);
    if (i.records !== i.used + i.ignored + i.duplicates) out.push(`${i.path}: records ≠ used + ignored + duplicates`);
    if ((i.unparsed ?? 0) > i.ignored) out.push(`${i.path}: unparsed > ignored`);
  }
  return out;
}

export type { Loc };
