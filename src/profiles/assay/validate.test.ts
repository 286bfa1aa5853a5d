import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DRIFT_STATES, expectedDriftState, REASONS, validateDecisionRecord } from './validate.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const contract = readFileSync(path.join(ROOT, 'fixtures/assay/contract.v0.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const clone = (r: Record<string, unknown>) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
const allow = contract.find((r) => r.decision === 'allow')!;
const deny = contract.find((r) => r.reason === 'no_declared_allowance')!;

describe('validateDecisionRecord', () => {
  it('accepts all 10 producer contract records', () => {
    expect(contract).toHaveLength(10);
    for (const r of contract) expect(validateDecisionRecord(r)).toEqual({ status: 'valid', problems: [] });
  });

  it('covers the closed vocabularies of descriptor.json', () => {
    expect(REASONS).toHaveLength(10);
    expect(DRIFT_STATES).toHaveLength(6);
    expect(new Set(contract.map((r) => r.reason)).size).toBe(10);
    for (const r of REASONS) expect(DRIFT_STATES).toContain(expectedDriftState(r));
  });

  it('accepts unknown additive fields (correlation_id, approval_retained_view, …)', () => {
    const r = { ...clone(allow), correlation_id: 'abc', approval_retained_view: { x: 1 }, future: [1, 2] };
    expect(validateDecisionRecord(r).status).toBe('valid');
  });

  it('flags fail_closed that does not equal decision = deny', () => {
    const r = clone(deny);
    r.fail_closed = false;
    const v = validateDecisionRecord(r);
    expect(v.status).toBe('inconsistent');
    expect(v.problems.join()).toContain('fail_closed');
    const a = clone(allow);
    a.fail_closed = true;
    expect(validateDecisionRecord(a).status).toBe('inconsistent');
  });

  it('flags a drift_state that does not fit the reason', () => {
    const r = clone(deny);
    r.drift_state = 'drifted';
    expect(validateDecisionRecord(r).problems).toEqual(['drift_state drifted does not fit the reason no_declared_allowance (expected not_evaluated)']);
  });

  it('flags values outside the vocabularies without echoing them', () => {
    const r = clone(deny);
    r.reason = '\u001b[31mevil';
    r.decision = 'maybe';
    r.drift_state = 'sideways';
    const v = validateDecisionRecord(r);
    expect(v.status).toBe('inconsistent');
    expect(v.problems).toHaveLength(3);
    expect(v.problems.join()).not.toMatch(/evil|maybe|sideways/);
  });

  it('flags an allow with a deny reason and a deny with the reason allow', () => {
    const a = clone(allow);
    a.reason = 'no_declared_allowance';
    a.drift_state = 'not_evaluated';
    expect(validateDecisionRecord(a).problems).toEqual(['an allow record has the deny reason no_declared_allowance']);
    const d = clone(deny);
    d.reason = 'allow';
    d.drift_state = 'satisfied';
    expect(validateDecisionRecord(d).problems).toEqual(['a deny record has the reason allow']);
  });

  it('flags a target_digest that is not sha256:<64 hex>, accepts null', () => {
    const r = clone(allow);
    (r.action as Record<string, unknown>).target_digest = 'sha256:xyz';
    expect(validateDecisionRecord(r).status).toBe('inconsistent');
    (r.action as Record<string, unknown>).target_digest = null;
    expect(validateDecisionRecord(r).status).toBe('valid');
  });

  it('calls a record with wrongly typed fields malformed', () => {
    const r = clone(allow);
    r.fail_closed = 'false';
    delete r.tool;
    const v = validateDecisionRecord(r);
    expect(v.status).toBe('malformed');
    expect(v.problems).toEqual(['tool is not an object', 'fail_closed is not a boolean']);
  });

  it('calls any other version of the schema unsupported', () => {
    const r = clone(allow);
    r.schema = 'assay.enforcement_decision.v1';
    expect(validateDecisionRecord(r).status).toBe('unsupported_schema');
  });
});
