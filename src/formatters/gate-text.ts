/**
 * Gate checks as text, and the findings that are a check's offenders. Shared by every format, so a
 * check reads the same everywhere.
 */
import type { Finding } from '../report/findings.js';
import { failOnItem, isFailOnCheck, type FixedGateCheck, type GateCheck } from '../report/gate.js';
import type { Gate, GateUnknown } from '../report/gate.js';
import type { Report } from '../report/report.js';

const TITLES: Record<FixedGateCheck, string> = {
  'error-findings': 'no error-severity findings',
  'max-crossed-rate': 'FIFO crossed rate within limit',
  'max-orphan-requests': 'orphan requests within limit',
  'max-ambiguous': 'ambiguous pairs within limit',
  'min-id-coverage': 'correlation-id coverage of requests at least the limit',
};

/** What a failed check found, in words: the failure, never the goal (the name stays the stable key). */
const FAILED: Record<FixedGateCheck, string> = {
  'error-findings': 'error-severity findings present',
  'max-crossed-rate': 'FIFO crossed rate over limit',
  'max-orphan-requests': 'orphan requests over limit',
  'max-ambiguous': 'ambiguous pairs over limit',
  'min-id-coverage': 'correlation-id coverage below limit',
};

const NOT_OP = { '<=': '>', '>=': '<' } as const;

/** The failure of a check without its numbers: `orphan requests over limit`, `correlation-id coverage not evaluated`. */
export function checkFailureTitle(c: GateCheck): string {
  const failed = isFailOnCheck(c.name) ? `${failOnItem(c.name)} findings present` : (FAILED[c.name as FixedGateCheck] ?? `${c.name} failed`);
  return c.actual === null ? failed.replace(/ (over|below) limit$| present$/, ' not evaluated') : failed;
}

/**
 * A failed check as one phrase, for every view (table, Markdown, JUnit, GitHub, SARIF):
 * `orphan requests over limit: 3 > 0`, `FIFO crossed rate over limit: 0.25 > 0.1`; a check that
 * cannot be evaluated says why: `correlation-id coverage not evaluated: no requests (limit >= 0.95)`.
 */
export function checkFailure(c: GateCheck): string {
  const failed = checkFailureTitle(c);
  if (c.actual === null) {
    return `${failed}: ${unknownReason(c)} (limit ${c.op ?? '<='} ${checkValue(c.limit)})`;
  }
  const value = c.counted === 'new' ? `${c.actual} new ${countedNoun(c, c.actual)}` : String(c.actual);
  return `${failed}: ${value} ${NOT_OP[c.op ?? '<=']} ${checkValue(c.limit)}`;
}

/** A failed check's title, and for one that could not be evaluated, why: `FIFO crossed rate not evaluated: requests were evicted …`. */
export function checkFailureWhy(c: GateCheck): string {
  const title = checkFailureTitle(c);
  return c.actual === null ? `${title}: ${unknownReason(c)}` : title;
}

/** A short human title for a check (static text; check names are built from codes, never capture data). */
export function checkTitle(c: GateCheck): string {
  if (isFailOnCheck(c.name)) return `no ${failOnItem(c.name)} findings`;
  // A report read back from JSON may name a check this version does not know.
  return TITLES[c.name] ?? c.name;
}

export function checkValue(v: number | string | null): string {
  return v === null ? 'n/a' : String(v);
}

const UNKNOWN_REASON: Record<GateUnknown, string> = {
  'no-requests': 'no requests',
  'ids-undeclared': 'a profile declares no correlation id',
  'no-id-pairs': 'no pair by id to hold FIFO against',
  evicted: 'requests were evicted at --max-open-calls (raise it)',
  'arbitrary-order': 'terminal order is arbitrary by contract, FIFO is meaningless here',
  window: 'calls were read after a window of ids forgot some (a late repeat reads as an orphan response or a new request)',
};

/** Why a check could not be evaluated, after its `not evaluated` title (a report read back from JSON may carry a reason this version does not know). */
function unknownReason(c: GateCheck): string {
  return (c.unknown !== undefined ? UNKNOWN_REASON[c.unknown] : undefined) ?? 'its value is unknown';
}

/** Why a check could not be evaluated, on its own: `cannot be evaluated: no requests`. */
function unknownText(c: GateCheck): string {
  const r = c.unknown !== undefined ? UNKNOWN_REASON[c.unknown] : undefined;
  return r === undefined ? 'cannot be evaluated' : `cannot be evaluated: ${r}`;
}

/** What a finding check counts, for `2 new warnings`: a severity's findings, or a code's. */
function countedNoun(c: GateCheck, n: number): string {
  const item = c.name === 'error-findings' ? 'error' : isFailOnCheck(c.name) ? failOnItem(c.name) : c.name;
  const severity = item === 'error' || item === 'warning' || item === 'note';
  return severity ? `${item}${n === 1 ? '' : 's'}` : `${item} finding${n === 1 ? '' : 's'}`;
}

/**
 * `max-orphan-requests: 1 (limit <= 0)`; `min-id-coverage: n/a, cannot be evaluated: … (limit >= 0.95)`;
 * with `--fail-on-new`, `fail-on:warning: 2 new warnings (limit <= 0)`.
 */
export function checkText(c: GateCheck): string {
  // A report read back from JSON may carry a reason this version does not know.
  const why = c.unknown !== undefined ? `, ${unknownText(c)}` : '';
  const value = c.counted === 'new' && c.actual !== null ? `${c.actual} new ${countedNoun(c, c.actual)}` : checkValue(c.actual);
  return `${c.name}: ${value}${why} (limit ${c.op ?? '<='} ${checkValue(c.limit)})`;
}

/** The listed findings that count against a check (the report lists at most --max-findings per code). */
export function offenders(report: Report, c: GateCheck): Finding[] {
  // A check that could not be evaluated failed for that, not for its findings: none offends.
  if (c.actual === null) return [];
  const codes = new Set<string>(c.codes ?? []);
  if (codes.size === 0) return [];
  // `--fail-on-new`: the check counted only the findings new since the baseline, so only they offend.
  const states = c.counted === 'new' ? report.baseline?.states : undefined;
  return report.findings.filter((f, i) => codes.has(f.code) && (states === undefined || states[i] === 'new') && !(c.name === 'max-crossed-rate' && f.code === 'CROSSED_PAIR' && f.data.shadow !== 'fifo'));
}

/** How many offenders a check has in all (listed or only counted). */
export function offenderTotal(report: Report, c: GateCheck): number {
  if (c.actual === null) return 0;
  if (c.name === 'max-crossed-rate') return report.channels.reduce((n, ch) => n + ch.crossed.fifo, 0);
  const counts = c.counted === 'new' && report.baseline ? report.baseline.newCounts : report.findingCounts;
  return (c.codes ?? []).reduce((n, code) => n + (counts[code] ?? 0), 0);
}

/**
 * The gate's verdict as one line: `gate failed: CHECK: VALUE (limit OP L); …` or `gate passed (checks…)`.
 * The table ends with it and `analyze` writes it to stderr whatever the report's destination.
 */
export function gateVerdict(g: Gate): string {
  const failed = g.checks.filter((c) => !c.passed);
  const excused = g.allowUnverified ? ' (--allow-unverified: DELIVERY_UNVERIFIED not counted)' : '';
  if (g.passed) return `gate passed (${g.checks.map((c) => c.name).join(', ')})${excused}`;
  return `gate failed: ${failed.map(checkText).join('; ')}${g.enforced ? '' : ' (--no-fail: exit 0)'}${excused}`;
}
