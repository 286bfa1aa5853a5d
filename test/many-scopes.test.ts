/**
 * Per-scope state is bounded. Past the scope cap (docs/design.md §8) the scopes
 * idle the longest are folded into the channel's totals with SCOPES_FOLDED, so memory stays under
 * the documented bound whatever the number of sessions. Before, 1 M sessions took 1.5 GB and 4 M
 * exhausted the heap, even with --max-scopes 10.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerViolations } from '../src/report/report.js';
import { amp, analyzeLines, BIN, resetClock, ROOT, withoutGateLine } from './helpers.js';

function sessions(n: number, troubled: string[] = []) {
  resetClock();
  const out: object[] = [];
  for (let k = 0; k < n; k++) {
    out.push(amp({ event: 'llm:request', session: `s${k}`, id: 'r', provider: 'p' }));
    out.push(amp({ event: 'llm:response', session: `s${k}`, id: 'r', provider: 'p', status: 'ok' }));
  }
  // Still open at the end: never folded, always held.
  for (const s of troubled) out.push(amp({ event: 'llm:request', session: s, id: 'x', provider: 'p' }));
  return out;
}

describe('many scopes: per-scope state is bounded', () => {
  it('past the cap, idle scopes are folded: counted in scopeCount and the totals, named by SCOPES_FOLDED, ledger sound', async () => {
    const full = await analyzeLines(sessions(50, ['open-1', 'open-2']));
    const r = await analyzeLines(sessions(50, ['open-1', 'open-2']), { maxHeldScopes: 10 });
    const ch = r.channels[0]!;
    expect(ch.scopeCount).toBe(52);
    expect(ch.scopesFolded).toBe(42);
    expect(ch.scopesOmitted).toBe(42);
    expect(ch.scopes).toHaveLength(10);
    // Scopes with open requests are never folded.
    expect(ch.scopes.map((s) => s.scope)).toEqual(expect.arrayContaining(['open-1', 'open-2']));
    const totals = (c: typeof ch) => [c.requests, c.terminals, c.pairs, c.orphanRequests, c.orphanResponses, c.latencyMs?.count];
    expect(totals(ch)).toEqual(totals(full.channels[0]!));
    expect(r.findingCounts.SCOPES_FOLDED).toBe(1);
    expect(r.findings.find((f) => f.code === 'SCOPES_FOLDED')!.data).toEqual({ folded: 42, held: 10, limit: 10 });
    expect(ledgerViolations(r)).toEqual([]);
    expect(full.findingCounts.SCOPES_FOLDED).toBeUndefined();
  });

  // 250 000 sessions: 5× the 50 000 held scopes (DEFAULT_MAX_HELD_SCOPES), 200 000 folded. Peak RSS
  // levels off once the cap is reached (125 000: 227 MB, 250 000: 270 MB, 500 000: 276 MB); held
  // unfolded, the 250 000 scopes run out of that old space (566 MB RSS uncapped).
  it('250 000 sessions complete under --max-old-space-size=200 (the whole pass: reader, profile, engine, report)', async () => {
    const gen = spawn(process.execPath, [path.join(ROOT, 'bench/adversarial/gen.mjs'), 'many-scopes', '250000'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const cli = spawn(process.execPath, ['--max-old-space-size=200', BIN, 'analyze', '-f', 'json', '--max-scopes', '10', '-'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    gen.stdout.pipe(cli.stdin);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    cli.stdout.on('data', (b: Buffer) => out.push(b));
    cli.stderr.on('data', (b: Buffer) => err.push(b));
    const code = await new Promise<number | null>((resolve) => cli.on('close', resolve));
    expect(withoutGateLine(Buffer.concat(err).toString())).toBe('');
    expect(code).toBe(0);
    const r = JSON.parse(Buffer.concat(out).toString());
    const ch = r.channels[0];
    expect([ch.scopeCount, ch.pairs.total, ch.scopes.length]).toEqual([250_000, 250_000, 10]);
    expect(ch.scopesFolded).toBe(200_000);
    expect(r.findingCounts.SCOPES_FOLDED).toBe(1);
  }, 300_000);
});
