import { describe, expect, it } from 'vitest';
import { finding, type FindingDataMap } from './findings.js';
import { findingMessage } from './messages.js';

const crossed = (data: Partial<FindingDataMap['CROSSED_PAIR']>) =>
  findingMessage(finding('CROSSED_PAIR', { channel: 'llm', scope: 's', locations: [{ path: 'c.jsonl', line: 4 }] }, { shadow: 'fifo', terminalCaller: 'agent', trueCaller: 'agent', shadowCaller: 'naming', id: 'r1', ...data }));

describe('CROSSED_PAIR message', () => {
  it('names the callers of the terminal, the request FIFO would take, and the true partner', () => {
    expect(crossed({})).toBe('FIFO would give the agent terminal to the naming request (true partner: agent)');
    expect(crossed({ shadow: 'signature', shadowCaller: null })).toBe('signature-FIFO would leave the agent terminal unpaired');
    expect(crossed({ shadowCaller: 'agent' })).toBe('FIFO would give the terminal of id r1 to another open request, not to its own (both caller agent)');
  });

  it('a caller stated as "" is said in words: no double space, no empty name', () => {
    expect(crossed({ terminalCaller: '', trueCaller: '' })).toBe('FIFO would give the terminal with an empty caller to the naming request (true partner: a request with an empty caller)');
    expect(crossed({ shadowCaller: '' })).toBe('FIFO would give the agent terminal to the request with an empty caller (true partner: agent)');
    expect(crossed({ terminalCaller: '', shadowCaller: null })).toBe('FIFO would leave the terminal with an empty caller unpaired');
    expect(crossed({ terminalCaller: '', trueCaller: '', shadowCaller: '', id: null })).toBe('FIFO would give the terminal of this call to another open request, not to its own (both with an empty caller)');
    for (const terminalCaller of ['', 'agent']) {
      for (const trueCaller of ['', 'agent', 'naming']) {
        for (const shadowCaller of [null, '', 'agent', 'naming']) {
          const m = crossed({ terminalCaller, trueCaller, shadowCaller });
          expect(m, JSON.stringify({ terminalCaller, trueCaller, shadowCaller })).not.toMatch(/ {2}|\( | \)|: \)|caller \)/);
        }
      }
    }
  });
});

describe('the other messages naming a caller', () => {
  const msg = (code: string, data: Record<string, unknown>) =>
    findingMessage(finding(code as 'DUPLICATE_ID', { channel: 'llm', scope: 's', locations: [{ path: 'c.jsonl', line: 4 }] }, data as FindingDataMap['DUPLICATE_ID']));
  const cases: Array<[string, Record<string, unknown>]> = [
    ['ORPHAN_REQUEST', { reason: 'never-closed', ageMs: 5 }],
    ['ORPHAN_REQUEST', { reason: 'evicted' }],
    ['ORPHAN_REQUEST', { note: 'no decision record', tool: 't' }],
    ['AMBIGUOUS_PAIR', { method: 'fifo', candidates: 2 }],
    ['DUPLICATE_ID', {}],
    ['DUPLICATE_TERMINAL', {}],
  ];

  it('a caller stated as "" is said in words; a named caller is shown as before', () => {
    for (const [code, data] of cases) {
      const empty = msg(code, { ...data, caller: '' });
      expect(empty, code).toContain('empty caller');
      expect(empty, code).not.toMatch(/ {2}|\( | \)|caller \)|from {2}/);
      expect(msg(code, { ...data, caller: 'agent' }), code).toMatch(/caller agent|from agent/);
    }
    // A terminal's caller: named when stated, left out when "" (as before).
    expect(msg('ORPHAN_RESPONSE', { reason: 'id-not-open', caller: '' })).toBe('terminal carries an id no open request has');
  });
});
