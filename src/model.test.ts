import { describe, expect, it } from 'vitest';
import { attributionOf, isFailed, numericStatus, rowLabel, type FailureRule } from './model.js';

const f = (failure: FailureRule, status: string | null, error: string | null = null) => isFailed({ failure }, { status, error });

describe('the channel declaration', () => {
  it('isFailed reads the declared rule only', () => {
    expect(f({ kind: 'status-in', statuses: ['deny'] }, 'deny')).toBe(true);
    expect(f({ kind: 'status-in', statuses: ['deny'] }, 'allow')).toBe(false);
    expect(f({ kind: 'status-not-in', statuses: ['ok'] }, 'error')).toBe(true);
    expect(f({ kind: 'status-not-in', statuses: ['ok'] }, null)).toBe(false);
    expect(f({ kind: 'status-at-least', min: 500 }, '503')).toBe(true);
    expect(f({ kind: 'status-at-least', min: 500 }, '499')).toBe(false);
    expect(f({ kind: 'status-at-least', min: 500 }, '5xx')).toBe(false);
    expect(f({ kind: 'status-at-least', min: 500 }, null)).toBe(false);
    expect(f({ kind: 'error-present' }, null, 'boom')).toBe(true);
    expect(f({ kind: 'error-present' }, 'ok')).toBe(false);
    const any: FailureRule = { kind: 'any', rules: [{ kind: 'error-present' }, { kind: 'status-at-least', min: 400 }] };
    expect(f(any, '404')).toBe(true);
    expect(f(any, '200', 'x')).toBe(true);
    expect(f(any, '200')).toBe(false);
    expect(f({ kind: 'any', rules: [] }, 'error')).toBe(false);
  });

  it('attributionOf reads the declared field, else the caller; rowLabel the declared label', () => {
    const side = { caller: 'agent', attrs: { tool: 't', model: 'm' } };
    expect(attributionOf({ attribution: 'caller' }, side)).toBe('agent');
    expect(attributionOf({ attribution: 'tool' }, side)).toBe('t');
    expect(attributionOf({ attribution: 'model' }, side)).toBe('m');
    expect(attributionOf({ attribution: 'provider' }, side)).toBe('agent');
    expect(rowLabel({ rowLabel: 'method' })).toBe('method');
  });
});

describe('numeric statuses are defined exactly', () => {
  it('status-at-least reads JSON numbers and digit strings, nothing else', () => {
    const m = { failure: { kind: 'status-at-least' as const, min: 500 } };
    const fails = (status: string) => isFailed(m, { status });
    expect(fails(String(1e21))).toBe(true); // a JSON number 1e21
    expect(fails('9'.repeat(400))).toBe(true);
    expect(fails(' 503 ')).toBe(true);
    expect(fails('500')).toBe(true);
    expect(fails('499')).toBe(false);
    expect(fails('499.9999999999999999999')).toBe(false);
    for (const s of ['5e2', '0x1f4', '+500', '500.0', '', ' ', '5 00']) expect(numericStatus(s)).toBeNull();
    expect(numericStatus(String(499.5))).toBe(499.5);
  });
});
