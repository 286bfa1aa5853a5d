/**
 * Labels that hold: a terminal that states no caller is labelled by its true
 * partner's caller, or says its record states no caller when it has none — never by the default of another call.
 */
import { describe, expect, it } from 'vitest';
import { analyzeLines } from './helpers.js';

const t = (ms: number) => `2026-09-03T10:00:${String(ms / 1000).padStart(2, '0')}Z`;
const req = (id: string, caller: string, at: number) => ({ ts: t(at), event: 'llm:request', session_id: 's', request_id: id, data: { provider: 'p', model: 'm', caller } });
const resp = (id: string, at: number) => ({ ts: t(at), event: 'llm:response', session_id: 's', request_id: id, status: 'ok', data: { provider: 'p', model: 'm' } });

describe('a terminal without a caller of its own', () => {
  it('is labelled by its true partner in a crossed finding, not by "main"', async () => {
    const r = await analyzeLines([req('a1', 'agent', 1), req('t1', 'title', 2), resp('t1', 3), resp('a1', 4)]);
    const crossed = r.findings.filter((f) => f.code === 'CROSSED_PAIR');
    expect(crossed.length).toBeGreaterThan(0);
    for (const f of crossed) {
      expect(f.message).not.toContain('main');
      if (f.code === 'CROSSED_PAIR') expect(f.data.terminalCaller).toBe(f.data.trueCaller);
    }
    expect(crossed[0]!.message).toBe('FIFO would give the title terminal to the agent request (true partner: title)');
  });

  it('a crossed pair whose terminal, true request and FIFO request share one caller names the id, not "main → main"', async () => {
    const r = await analyzeLines([req('a1', 'agent', 1), req('a2', 'agent', 2), resp('a2', 3), resp('a1', 4)]);
    const crossed = r.findings.filter((f) => f.code === 'CROSSED_PAIR' && f.data.shadow === 'fifo');
    expect(crossed.map((f) => f.message)).toEqual([
      'FIFO would give the terminal of id a2 to another open request, not to its own (both caller agent)',
      'FIFO would give the terminal of id a1 to another open request, not to its own (both caller agent)',
    ]);
  });

  it('with no partner at all its message says its record states no caller', async () => {
    const r = await analyzeLines([req('a1', 'agent', 1), resp('a1', 2), resp('zz', 3)]);
    const o = r.findings.find((f) => f.code === 'ORPHAN_RESPONSE');
    expect(o?.message).toContain('(its record states no caller)');
    expect(o?.message).not.toContain('main');
  });

  it('a request that states no caller still counts as the main agent', async () => {
    const r = await analyzeLines([{ ts: t(1), event: 'llm:request', session_id: 's', request_id: 'q1', data: {} }]);
    const o = r.findings.find((f) => f.code === 'ORPHAN_REQUEST');
    expect(o?.code === 'ORPHAN_REQUEST' && o.data.caller).toBe('main');
  });
});
