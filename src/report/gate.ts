/**
 * The gate: checks over a finished report. By default it fails on any error-severity finding;
 * options add checks. Option values are validated here (`validateGateOptions`), so the library
 * and the CLI reject the same bad values.
 */
import type { FindingCode, Severity } from './findings.js';
import { ALL_CODES, FINDING_CODES, isFindingCode } from './findings.js';
import type { ChannelReport } from './parts.js';

/** The gate's own checks, by their stable names (the report's `gate.checks[].name`). */
export const GATE_CHECKS = ['error-findings', 'max-crossed-rate', 'max-orphan-requests', 'max-ambiguous', 'min-id-coverage'] as const;
export type FixedGateCheck = (typeof GATE_CHECKS)[number];
/** What `--fail-on` names: a finding code or a severity. */
export type FailOnItem = FindingCode | Severity;
/** A check's name: one of the fixed checks, or `fail-on:ITEM`. */
export type GateCheckName = FixedGateCheck | `fail-on:${FailOnItem}`;

export function isFailOnCheck(name: GateCheckName): name is `fail-on:${FailOnItem}` {
  return name.startsWith('fail-on:');
}

/** The `--fail-on` item a `fail-on:ITEM` check stands for. */
export function failOnItem(name: `fail-on:${FailOnItem}`): FailOnItem {
  return name.slice('fail-on:'.length) as FailOnItem;
}

export interface GateCheck {
  name: GateCheckName;
  limit: number | string;
  actual: number | null;
  passed: boolean;
  /** How `actual` is held against `limit`: `<=` for maxima (and counts that must be 0), `>=` for minima. */
  op: '<=' | '>=';
  /** The finding codes whose findings are this check's offenders (empty when none are located). */
  codes: FindingCode[];
  /**
   * Why the check cannot be evaluated (`actual` is null and the check fails: no evidence is no pass,
   * docs/ci.md): `no-requests`, `ids-undeclared` (a channel with requests whose profile names no id),
   * or `no-id-pairs` (the crossed rate: no pair by id whose FIFO partner could be compared).
   */
  unknown?: GateUnknown;
  /** `--fail-on-new`: this finding check counted the findings new since the baseline only (`actual` is how many are new). */
  counted?: 'new';
}

export const GATE_UNKNOWNS = ['no-requests', 'ids-undeclared', 'no-id-pairs', 'evicted', 'arbitrary-order', 'window'] as const;
export type GateUnknown = (typeof GATE_UNKNOWNS)[number];

export interface Gate {
  passed: boolean;
  /** `--no-fail`: checks are evaluated and shown, the exit code stays 0. */
  enforced: boolean;
  checks: GateCheck[];
  /** `--allow-unverified` was given: DELIVERY_UNVERIFIED does not fail the gate. */
  allowUnverified?: true;
}

export interface GateOptions {
  /** Extra codes or severities that fail the gate when any finding has them. */
  failOn?: readonly string[];
  maxCrossedRate?: number;
  maxOrphanRequests?: number;
  maxAmbiguous?: number;
  minIdCoverage?: number;
  noFail?: boolean;
  /**
   * `--allow-unverified`: DELIVERY_UNVERIFIED findings are still reported, but do not count in
   * the error-findings check (an explicit opt-out, shown in the report's run and gate).
   */
  allowUnverified?: boolean;
}

export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'note'];

export class GateOptionError extends Error {
  override name = 'GateOptionError';
}

/** Splits `a,b` items (repeatable option) and checks each is a finding code or a severity. */
export function parseFailOn(items: readonly string[]): FailOnItem[] {
  const out: FailOnItem[] = [];
  for (const raw of items) {
    for (const part of raw.split(',')) {
      const item = part.trim();
      if (item === '') continue;
      const upper = item.toUpperCase();
      const lower = item.toLowerCase();
      if (isFindingCode(upper)) out.push(upper);
      else if (isSeverity(lower)) out.push(lower);
      else throw new GateOptionError(`--fail-on: unknown code or severity "${item.slice(0, 60)}" (codes: ${ALL_CODES.join(', ')}; severities: ${SEVERITIES.join(', ')})`);
    }
  }
  return [...new Set(out)];
}

/** Throws GateOptionError on a value no gate can use (NaN, negative, a rate outside 0..1, a fraction for a count). */
export function validateGateOptions(o: GateOptions): void {
  const rate = (name: string, v: number | undefined) => {
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1)) throw new GateOptionError(`${name} must be a number from 0 to 1`);
  };
  const count = (name: string, v: number | undefined) => {
    if (v !== undefined && !(typeof v === 'number' && Number.isInteger(v) && v >= 0)) throw new GateOptionError(`${name} must be a whole number ≥ 0`);
  };
  rate('--max-crossed-rate', o.maxCrossedRate);
  rate('--min-id-coverage', o.minIdCoverage);
  count('--max-orphan-requests', o.maxOrphanRequests);
  count('--max-ambiguous', o.maxAmbiguous);
  if (o.failOn) parseFailOn(o.failOn);
}

function isSeverity(s: string): s is Severity {
  return (SEVERITIES as readonly string[]).includes(s);
}

const codesOf = (sev: Severity): FindingCode[] => ALL_CODES.filter((c) => FINDING_CODES[c] === sev);

/**
 * Findings an eviction at --max-open-calls can hide: made by the pairing after it, which is not an
 * unbounded reading's (the FIFO shadow takes an evicted request's answer; the fallbacks choose among
 * fewer candidates; an evicted request's id or signature is no longer there to repeat or conflict).
 * A `--fail-on` check on one of them cannot be evaluated once a request was evicted. (SIGNATURE_CONFLICT,
 * an error, is under the default check, which stays evaluated: docs/ci.md.)
 */
const HIDDEN_BY_EVICTION: readonly FindingCode[] = ['CROSSED_PAIR', 'AMBIGUOUS_PAIR', 'DUPLICATE_ID', 'DUPLICATE_TERMINAL', 'CLOCK_SKEW', 'SIGNATURE_CONFLICT', 'IDS_NEVER_MATCH'];

/**
 * `newOnly` (`--fail-on-new`): `counts` are the findings new since the baseline, and the finding
 * checks say so (`counted: 'new'`), so every view writes `2 new warnings`.
 */
export function evaluateGate(
  opts: GateOptions,
  counts: Partial<Record<FindingCode, number>>,
  channels: readonly ChannelReport[],
  newOnly = false,
): Gate {
  const counted = newOnly ? { counted: 'new' as const } : {};
  validateGateOptions(opts);
  const checks: GateCheck[] = [];
  const bySeverity = (sev: Severity) =>
    Object.entries(counts).reduce((n, [code, c]) => (isFindingCode(code) && FINDING_CODES[code] === sev ? n + (c ?? 0) : n), 0);

  const excused = opts.allowUnverified ? (counts.DELIVERY_UNVERIFIED ?? 0) : 0;
  const errors = bySeverity('error') - excused;
  const errorCodes = opts.allowUnverified ? codesOf('error').filter((c) => c !== 'DELIVERY_UNVERIFIED') : codesOf('error');
  checks.push({ name: 'error-findings', limit: 0, actual: errors, passed: errors === 0, op: '<=', codes: errorCodes, ...counted });

  const sum = (f: (c: ChannelReport) => number) => channels.reduce((n, c) => n + f(c), 0);
  // Requests evicted at --max-open-calls: the pairs made after are not an unbounded reading's.
  const evicted = sum((c) => c.evictedRequests);
  const unsure = sum((c) => c.unsureOrphans ?? 0);
  const unsureRepeats = sum((c) => c.unsureRepeats ?? 0);

  for (const item of parseFailOn(opts.failOn ?? [])) {
    if (item === 'error') continue; // the default check already covers it
    if (isFindingCode(item) && FINDING_CODES[item] === 'error') continue;
    const codes = isSeverity(item) ? codesOf(item) : [item];
    // A finding an eviction can hide (an unbounded reading may have it): the count is unknown.
    const hidden = evicted > 0 && codes.some((c) => HIDDEN_BY_EVICTION.includes(c));
    // A late repeat read after the closed-id window forgot its id is an orphan response, not a
    // DUPLICATE_TERMINAL: once a channel says it read such orphans, that count is unknown too.
    // Likewise a request read after a profile's window of ids forgot some: a repeat is no DUPLICATE_ID.
    const forgot = !hidden && ((unsure > 0 && codes.includes('DUPLICATE_TERMINAL')) || (unsureRepeats > 0 && codes.includes('DUPLICATE_ID')));
    const unknown: GateUnknown | undefined = hidden ? 'evicted' : forgot ? 'window' : undefined;
    const actual = unknown !== undefined ? null : isSeverity(item) ? bySeverity(item) : (counts[item] ?? 0);
    checks.push({ name: `fail-on:${item}`, limit: 0, actual, passed: actual === 0, op: '<=', codes, ...counted, ...(unknown ? { unknown } : {}) });
  }
  if (opts.maxCrossedRate !== undefined) {
    const comparable = sum((c) => c.crossed.comparable);
    const crossed = sum((c) => c.crossed.fifo);
    // No pair by id to hold FIFO against: the rate is unknown, and a gate on it does not pass on no
    // evidence. Nor after an eviction: the FIFO shadow then pairs what an unbounded reading would not.
    // Pairs by id only on channels whose terminal order is arbitrary by contract (OpenAI Batch): FIFO
    // is meaningless there, whatever the bound.
    const arbitrary = comparable === 0 && channels.some((c) => c.pairs.byMethod.id > 0 && c.meaning?.terminalOrder === 'arbitrary');
    const unknown: GateUnknown | undefined = arbitrary ? 'arbitrary-order' : evicted > 0 ? 'evicted' : comparable === 0 ? 'no-id-pairs' : undefined;
    const actual = unknown !== undefined ? null : Math.round((crossed / comparable) * 1e6) / 1e6;
    checks.push({ name: 'max-crossed-rate', limit: opts.maxCrossedRate, actual, passed: actual !== null && actual <= opts.maxCrossedRate, op: '<=', codes: ['CROSSED_PAIR'], ...(unknown ? { unknown } : {}) });
  }
  if (opts.maxOrphanRequests !== undefined) {
    const actual = sum((c) => c.orphanRequests);
    checks.push({ name: 'max-orphan-requests', limit: opts.maxOrphanRequests, actual, passed: actual <= opts.maxOrphanRequests, op: '<=', codes: ['ORPHAN_REQUEST'] });
  }
  if (opts.maxAmbiguous !== undefined) {
    // An eviction changes what the fallbacks choose among (fewer candidates): the count is unknown.
    const actual = evicted > 0 ? null : sum((c) => c.pairs.byConfidence.ambiguous);
    checks.push({ name: 'max-ambiguous', limit: opts.maxAmbiguous, actual, passed: actual !== null && actual <= opts.maxAmbiguous, op: '<=', codes: ['AMBIGUOUS_PAIR'], ...(actual === null ? { unknown: 'evicted' as const } : {}) });
  }
  if (opts.minIdCoverage !== undefined) {
    const req = sum((c) => c.requests);
    const withId = channels.reduce((n, c) => n + Math.round((c.idCoverage.requests ?? 0) * c.requests), 0);
    // Coverage is unknown with no requests at all, or when a channel's profile names no id (its
    // coverage is null, never 0 or 100%); a gate that asks for a minimum does not pass on no evidence.
    const unknown: GateUnknown | undefined = req === 0 ? 'no-requests' : channels.some((c) => c.requests > 0 && c.idCoverage.requests === null) ? 'ids-undeclared' : undefined;
    const actual = unknown !== undefined ? null : Math.round((withId / req) * 1e6) / 1e6;
    checks.push({ name: 'min-id-coverage', limit: opts.minIdCoverage, actual, passed: actual !== null && actual >= opts.minIdCoverage, op: '>=', codes: [], ...(unknown ? { unknown } : {}) });
  }
  const passed = checks.every((c) => c.passed);
  const gate: Gate = { passed, enforced: !opts.noFail, checks };
  if (opts.allowUnverified) gate.allowUnverified = true;
  return gate;
}
