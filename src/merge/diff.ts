/**
 * Baselines (docs/scale-out.md): findings of a head report matched against a base report by their
 * identity (src/report/identity.ts: code, channel, scope, the data that names the call, the ordinal
 * among equals — never the line number, which moves when lines are added above; SARIF's
 * fingerprints hash the same identity). Plus the deltas of
 * the numbers a reader watches: crossed rate, orphans, ambiguity, id coverage.
 */
import type { Finding, FindingCode } from '../report/findings.js';
import { findingIdentities } from '../report/identity.js';
import { ALL_CODES } from '../report/findings.js';
import type { Report } from '../report/report.js';
import { evaluateGate, type GateOptions } from '../report/gate.js';
import type { BaselineReport, BaselineState, Delta } from './baseline-types.js';

export type { BaselineReport, BaselineState, Delta, ReportBaseline } from './baseline-types.js';


export function compareReports(base: Report, head: Report): BaselineReport {
  // The n-th base finding of a key matches the n-th head finding of the same key (src/report/identity.ts).
  const baseIds = new Set(findingIdentities(base.findings));
  const headIds = findingIdentities(head.findings);
  const newCounts: Partial<Record<FindingCode, number>> = {};
  const states: BaselineState[] = head.findings.map((f, i) => {
    if (baseIds.has(headIds[i]!)) return 'unchanged';
    newCounts[f.code] = (newCounts[f.code] ?? 0) + 1;
    return 'new';
  });
  const headSet = new Set(headIds);
  const fixed = findingIdentities(base.findings).flatMap((id, i) => (headSet.has(id) ? [] : [base.findings[i]!]));
  const ordered: Partial<Record<FindingCode, number>> = {};
  for (const c of ALL_CODES) if (newCounts[c]) ordered[c] = newCounts[c];
  const nNew = states.filter((s) => s === 'new').length;
  return {
    counts: { new: nNew, fixed: fixed.length, unchanged: states.length - nNew },
    states,
    fixed,
    newCounts: ordered,
    complete: Object.keys(base.findingsOmitted).length === 0 && Object.keys(head.findingsOmitted).length === 0,
    deltas: {
      crossedRate: delta(crossedRate(base), crossedRate(head), true),
      orphanRequests: delta(sum(base, (c) => c.orphanRequests), sum(head, (c) => c.orphanRequests)),
      orphanResponses: delta(sum(base, (c) => c.orphanResponses), sum(head, (c) => c.orphanResponses)),
      ambiguous: delta(ambiguous(base), ambiguous(head)),
      idCoverage: delta(idCoverage(base), idCoverage(head), true),
    },
  };
}

function delta(base: number | null, head: number | null, rate = false): Delta {
  const d = base === null || head === null ? null : rate ? Math.round((head - base) * 1e6) / 1e6 : head - base;
  return { base, head, delta: d };
}

const sum = (r: Report, f: (c: Report['channels'][number]) => number) => r.channels.reduce((n, c) => n + f(c), 0);

/** Requests evicted at --max-open-calls: the pairs after are not an unbounded reading's (docs/ci.md). */
const evicted = (r: Report) => sum(r, (c) => c.evictedRequests ?? 0) > 0;

/** Unknown after an eviction, as the gate says: the FIFO shadow took evicted requests' answers. */
function crossedRate(r: Report): number | null {
  if (evicted(r)) return null;
  const comparable = sum(r, (c) => c.crossed.comparable);
  return comparable === 0 ? null : Math.round((sum(r, (c) => c.crossed.fifo) / comparable) * 1e6) / 1e6;
}

/** Unknown after an eviction: the fallbacks chose among fewer candidates. */
function ambiguous(r: Report): number | null {
  return evicted(r) ? null : sum(r, (c) => c.pairs.byConfidence.ambiguous);
}

function idCoverage(r: Report): number | null {
  const req = sum(r, (c) => c.requests);
  // Unknown when a channel's profile declares no id (its coverage is null): never counted as 0.
  if (req === 0 || r.channels.some((c) => c.requests > 0 && c.idCoverage.requests === null)) return null;
  const withId = r.mergeData
    ? r.mergeData.channels.reduce((n, c) => n + c.requestsWithId, 0)
    : r.channels.reduce((n, c) => n + Math.round((c.idCoverage.requests ?? 0) * c.requests), 0);
  return Math.round((withId / req) * 1e6) / 1e6;
}

/**
 * The head report with its baseline comparison attached; with `failOnNew` the gate's finding checks
 * count new findings only (rates and totals still gate on the head's numbers).
 */
export function withBaseline(head: Report, base: Report, failOnNew: boolean, gate: GateOptions): Report {
  const b = compareReports(base, head);
  const out: Report = { ...head, baseline: { ...b, failOnNew } };
  if (failOnNew) out.gate = evaluateGate(gate, b.newCounts, head.channels, true);
  return out;
}

export { stableKey } from '../report/identity.js';
