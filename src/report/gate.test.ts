import { describe, expect, it } from 'vitest';
import { evaluateGate, GateOptionError, parseFailOn, validateGateOptions } from './gate.js';
import type { ChannelReport } from './report.js';

function channel(over: Partial<ChannelReport> & Record<string, unknown> = {}): ChannelReport {
  return {
    channel: 'llm',
    requests: 10,
    terminals: 10,
    pairs: { total: 8, byMethod: { id: 6, signature: 1, fifo: 1 }, byConfidence: { exact: 6, unambiguous: 1, ambiguous: 1 } },
    orphanRequests: 2,
    crossed: { comparable: 6, fifo: 3, signature: 1, fifoRate: 0.5, signatureRate: 0.166667 },
    idCoverage: { requests: 0.7, terminals: 0.6 },
    ...over,
  } as unknown as ChannelReport;
}

describe('parseFailOn', () => {
  it('splits commas, accepts codes and severities case-insensitively, dedupes', () => {
    expect(parseFailOn(['orphan_request,warning', 'ORPHAN_REQUEST', ' note '])).toEqual(['ORPHAN_REQUEST', 'warning', 'note']);
  });
  it('rejects an unknown code', () => {
    expect(() => parseFailOn(['NOPE'])).toThrow(GateOptionError);
    expect(() => parseFailOn(['ORPHAN_REQUEST,typo'])).toThrow(/unknown code or severity "typo"/);
  });
});

describe('validateGateOptions', () => {
  it.each([
    [{ maxCrossedRate: 1.5 }],
    [{ maxCrossedRate: -0.1 }],
    [{ maxCrossedRate: Number.NaN }],
    [{ minIdCoverage: 2 }],
    [{ maxOrphanRequests: -1 }],
    [{ maxOrphanRequests: 1.5 }],
    [{ maxAmbiguous: Number.NaN }],
    [{ failOn: ['bogus'] }],
  ])('rejects %o', (o) => {
    expect(() => validateGateOptions(o)).toThrow(GateOptionError);
  });
  it('accepts edge values', () => {
    expect(() => validateGateOptions({ maxCrossedRate: 0, minIdCoverage: 1, maxOrphanRequests: 0, maxAmbiguous: 0 })).not.toThrow();
  });
});

describe('evaluateGate', () => {
  it('fails on error findings by default, and only then', () => {
    expect(evaluateGate({}, { ORPHAN_REQUEST: 3 }, [channel()]).passed).toBe(true);
    const g = evaluateGate({}, { INPUT_ERROR: 1 }, [channel()]);
    expect(g.passed).toBe(false);
    expect(g.checks).toEqual([expect.objectContaining({ name: 'error-findings', limit: 0, actual: 1, passed: false, op: '<=' })]);
    expect(g.enforced).toBe(true);
  });

  it('evaluates every threshold with name, limit, actual, passed, and the codes of its offenders', () => {
    const g = evaluateGate(
      { failOn: ['warning', 'CROSSED_PAIR'], maxCrossedRate: 0.4, maxOrphanRequests: 2, maxAmbiguous: 0, minIdCoverage: 0.9, noFail: true },
      { ORPHAN_REQUEST: 2, CROSSED_PAIR: 3 },
      [channel()],
    );
    expect(g.enforced).toBe(false);
    expect(g.passed).toBe(false);
    expect(g.checks.map(({ name, limit, actual, passed, op }) => ({ name, limit, actual, passed, op }))).toEqual([
      { name: 'error-findings', limit: 0, actual: 0, passed: true, op: '<=' },
      { name: 'fail-on:warning', limit: 0, actual: 2, passed: false, op: '<=' },
      { name: 'fail-on:CROSSED_PAIR', limit: 0, actual: 3, passed: false, op: '<=' },
      { name: 'max-crossed-rate', limit: 0.4, actual: 0.5, passed: false, op: '<=' },
      { name: 'max-orphan-requests', limit: 2, actual: 2, passed: true, op: '<=' },
      { name: 'max-ambiguous', limit: 0, actual: 1, passed: false, op: '<=' },
      { name: 'min-id-coverage', limit: 0.9, actual: 0.7, passed: false, op: '>=' },
    ]);
    expect(g.checks.find((c) => c.name === 'max-orphan-requests')!.codes).toEqual(['ORPHAN_REQUEST']);
    expect(g.checks.find((c) => c.name === 'fail-on:warning')!.codes).toContain('AMBIGUOUS_PAIR');
  });

  it('weights id coverage by requests across channels; no requests means coverage unknown and the minimum fails', () => {
    const g = evaluateGate({ minIdCoverage: 0.5 }, {}, [channel({ requests: 10, idCoverage: { requests: 1, terminals: 1 } }), channel({ requests: 30, idCoverage: { requests: 0, terminals: 0 } })]);
    expect(g.checks[1]).toMatchObject({ actual: 0.25, passed: false });
    expect(evaluateGate({ minIdCoverage: 0.5 }, {}, []).checks[1]).toMatchObject({ actual: null, passed: false });
  });

  it('a crossed rate with nothing comparable cannot be evaluated: unknown (not 0), and the check fails', () => {
    const g = evaluateGate({ maxCrossedRate: 0 }, {}, [channel({ crossed: { comparable: 0, fifo: 0, signature: 0, fifoRate: null, signatureRate: null } })]);
    expect(g.checks[1]).toMatchObject({ actual: null, passed: false, unknown: 'no-id-pairs' });
    expect(g.passed).toBe(false);
  });

  it('throws on bad option values instead of passing silently', () => {
    expect(() => evaluateGate({ maxOrphanRequests: Number.NaN }, {}, [])).toThrow(GateOptionError);
  });
});
