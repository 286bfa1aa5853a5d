/**
 * The gate: checks over a finished report. By default it fails on any error-severity finding.
 */
import type { FindingCode, Severity } from './findings.js';
import { FINDING_CODES, isFindingCode } from './findings.js';
import type { ChannelReport } from './report.js';

export interface GateCheck {
  name: string;
  limit: number | string;
  actual: number | null;
  passed: boolean;
}

export interface Gate {
  passed: boolean;
  /** `--no-fail`: checks are evaluated and shown, the exit code stays 0. */
  enforced: boolean;
  checks: GateCheck[];
}

export interface GateOptions {
  /** Extra codes or severities that fail the gate when any finding has them. */
  failOn?: readonly string[];
  maxCrossedRate?: number;
  maxOrphanRequests?: number;
  maxAmbiguous?: number;
  minIdCoverage?: number;
  noFail?: boolean;
}

export function evaluateGate(
  opts: GateOptions,
  counts: Partial<Record<FindingCode, number>>,
  channels: readonly ChannelReport[],
): Gate {
  const checks: GateCheck[] = [];
  const bySeverity = (sev: Severity) =>
    Object.entries(counts).reduce((n, [code, c]) => (isFindingCode(code) && FINDING_CODES[code] === sev ? n + (c ?? 0) : n), 0);

  const errors = bySeverity('error');
  checks.push({ name: 'error-findings', limit: 0, actual: errors, passed: errors === 0 });

  for (const item of opts.failOn ?? []) {
    if (item === 'error') continue;
    const actual = item === 'warning' || item === 'note' ? bySeverity(item) : isFindingCode(item) ? (counts[item] ?? 0) : 0;
    checks.push({ name: `fail-on:${item}`, limit: 0, actual, passed: actual === 0 });
  }

  const sum = (f: (c: ChannelReport) => number) => channels.reduce((n, c) => n + f(c), 0);
  if (opts.maxCrossedRate !== undefined) {
    const comparable = sum((c) => c.crossed.comparable);
    const crossed = sum((c) => c.crossed.fifo);
    const actual = comparable === 0 ? null : Math.round((crossed / comparable) * 1e6) / 1e6;
    checks.push({ name: 'max-crossed-rate', limit: opts.maxCrossedRate, actual, passed: actual === null || actual <= opts.maxCrossedRate });
  }
  if (opts.maxOrphanRequests !== undefined) {
    const actual = sum((c) => c.orphanRequests);
    checks.push({ name: 'max-orphan-requests', limit: opts.maxOrphanRequests, actual, passed: actual <= opts.maxOrphanRequests });
  }
  if (opts.maxAmbiguous !== undefined) {
    const actual = sum((c) => c.pairs.byConfidence.ambiguous);
    checks.push({ name: 'max-ambiguous', limit: opts.maxAmbiguous, actual, passed: actual <= opts.maxAmbiguous });
  }
  if (opts.minIdCoverage !== undefined) {
    const req = sum((c) => c.requests);
    const withId = channels.reduce((n, c) => n + (c.idCoverage.requests ?? 0) * c.requests, 0);
    const actual = req === 0 ? null : Math.round((withId / req) * 1e6) / 1e6;
    checks.push({ name: 'min-id-coverage', limit: opts.minIdCoverage, actual, passed: actual !== null && actual >= opts.minIdCoverage });
  }
  const passed = checks.every((c) => c.passed);
  return { passed, enforced: !opts.noFail, checks };
}
