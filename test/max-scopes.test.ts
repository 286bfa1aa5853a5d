import { describe, expect, it } from 'vitest';
import { amp, analyzeLines, resetClock, runCli, writeCapture } from './helpers.js';
import { ledgerViolations } from '../src/report/report.js';

function threeSessions() {
  resetClock();
  return [
    // A: clean
    amp({ event: 'llm:request', session: 'A', id: 'a1', provider: 'p' }),
    amp({ event: 'llm:response', session: 'A', id: 'a1', provider: 'p', status: 'ok' }),
    // B: one orphan request
    amp({ event: 'llm:request', session: 'B', id: 'b1', provider: 'p' }),
    // C: crossed twice
    amp({ event: 'llm:request', session: 'C', id: 'c1', provider: 'p' }),
    amp({ event: 'llm:request', session: 'C', id: 'c2', provider: 'p' }),
    amp({ event: 'llm:response', session: 'C', id: 'c2', provider: 'p', status: 'ok' }),
    amp({ event: 'llm:response', session: 'C', id: 'c1', provider: 'p', status: 'ok' }),
  ];
}

describe('--max-scopes', () => {
  it('lists the most troubled scopes, says how many were left out, and keeps the channel totals whole', async () => {
    const all = await analyzeLines(threeSessions());
    const capped = await analyzeLines(threeSessions(), { maxScopes: 2 });
    expect(all.channels[0]!.scopes.map((s) => s.scope)).toEqual(['A', 'B', 'C']);
    expect(all.channels[0]!.scopesOmitted).toBeUndefined();
    const ch = capped.channels[0]!;
    expect(ch.scopes.map((s) => s.scope)).toEqual(['B', 'C']);
    expect(ch.scopesOmitted).toBe(1);
    expect(ch.scopeCount).toBe(3);
    const totals = (c: typeof ch) => [c.requests, c.terminals, c.pairs, c.crossed, c.orphanRequests, c.orphanResponses, c.maxInFlight, c.latencyMs?.count];
    expect(totals(ch)).toEqual(totals(all.channels[0]!));
    expect(ledgerViolations(capped)).toEqual([]);
  });

  it('is a CLI option; a bad value exits 2', async () => {
    const file = writeCapture(threeSessions());
    const ok = await runCli(['analyze', '-f', 'json', '--max-scopes', '0', file]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).channels[0].scopesOmitted).toBe(3);
    const bad = await runCli(['analyze', '--max-scopes', '-1', file]);
    expect(bad.code).toBe(2);
  });
});
