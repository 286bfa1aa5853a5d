/**
 * One vocabulary: analyze, compare and pairs count the same calls the same way
 * on generated captures — or say what they leave out — and crossed counts are labelled by baseline.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { compare } from '../src/compare/compare.js';
import { pairs, type PairsLine } from '../src/compare/pairs.js';
import { findingCountText } from '../src/formatters/present.js';
import { writeGenerated } from './generate.js';
import { runCli, tmpDir } from './helpers.js';

describe('analyze, compare and pairs reconcile on generated captures', () => {
  for (const [name, opts, redundant] of [
    ['with ids', { sessions: 60, seed: 5 }, false],
    ['without ids', { sessions: 60, seed: 6, ids: false }, false],
    ['with ids and redundant re-reports', { sessions: 30, seed: 8 }, true],
  ] as const) {
    it(name, async () => {
      const file = path.join(tmpDir(), 'gen.jsonl');
      writeGenerated(file, opts);
      if (redundant) {
        // An error response re-reported by an unstamped provider:error: counted by analyze, left out (and said so) by compare.
        const extra = [
          { ts: '2026-09-03T10:00:01Z', event: 'llm:request', session_id: 'redundant-s', request_id: 'r1', data: { provider: 'p', model: 'm', caller: 'agent' } },
          { ts: '2026-09-03T10:00:02Z', event: 'llm:response', session_id: 'redundant-s', request_id: 'r1', status: 'error', data: { provider: 'p', model: 'm' } },
          { event: 'provider:error', session_id: 'redundant-s', data: { provider: 'p', error: { type: 'X' } } },
        ];
        appendFileSync(file, extra.map((x) => JSON.stringify(x)).join('\n') + '\n');
      }
      const report = await analyze({ inputs: [file], maxFindings: 1_000_000 });
      const cmp = await compare({ inputs: [file] });
      const lines: PairsLine[] = [];
      await pairs({ inputs: [file], onLine: (l) => lines.push(l) });

      if (redundant) expect(report.channels.reduce((n, c) => n + c.redundant, 0)).toBeGreaterThan(0);
      for (const ch of report.channels) {
        const c = cmp.channels.find((x) => x.channel === ch.channel)!;
        expect(c).toBeDefined();
        // Terminals: compare counts the non-redundant ones and says how many redundant it left out.
        expect(c.terminals + c.redundant).toBe(ch.terminals);
        expect(c.redundant).toBe(ch.redundant);
        expect(c.requests).toBe(ch.requests);
        expect(c.comparable).toBe(ch.crossed.comparable);
        // The id strategy is the real cascade: the same pairs and orphans as analyze.
        expect(c.strategies.id.pairs).toBe(ch.pairs.total);
        expect(c.strategies.id.orphanRequests).toBe(ch.orphanRequests);
        expect(c.strategies.id.orphanResponses).toBe(ch.orphanResponses);
        // Crossed by baseline: FIFO and signature-FIFO, the same in both.
        if (c.groundTruth) {
          expect(c.strategies.fifo.crossed).toBe(ch.crossed.fifo);
          expect(c.strategies.signature.crossed).toBe(ch.crossed.signature);
        }
        // pairs: one line per call and per orphan.
        const mine = lines.filter((l) => l.channel === ch.channel);
        expect(mine.filter((l) => l.type === 'call')).toHaveLength(ch.pairs.total);
        expect(mine.filter((l) => l.type === 'orphan' && l.kind === 'request')).toHaveLength(ch.orphanRequests);
        expect(mine.filter((l) => l.type === 'orphan' && l.kind === 'response')).toHaveLength(ch.orphanResponses);
      }
      // CROSSED_PAIR counts both baselines; every view labels the split.
      const fifo = report.channels.reduce((n, c) => n + c.crossed.fifo, 0);
      const sig = report.channels.reduce((n, c) => n + c.crossed.signature, 0);
      expect(report.findingCounts.CROSSED_PAIR ?? 0).toBe(fifo + sig);
      if (fifo + sig > 0) expect(findingCountText(report, 'CROSSED_PAIR')).toBe(`${fifo + sig} (FIFO ${fifo}, signature-FIFO ${sig})`);
    });
  }

  it('the table, Markdown and HTML views label CROSSED_PAIR by baseline', async () => {
    const file = path.join(tmpDir(), 'gen.jsonl');
    writeGenerated(file, { sessions: 20, seed: 9 });
    const r = await analyze({ inputs: [file] });
    const want = findingCountText(r, 'CROSSED_PAIR');
    expect(want).toMatch(/^\d+ \(FIFO \d+, signature-FIFO \d+\)$/);
    const md = await runCli(['analyze', file, '-f', 'markdown']);
    expect(md.stdout).toContain(want);
    // The table: one row per baseline.
    const fifo = r.channels.reduce((n, c) => n + c.crossed.fifo, 0);
    const sig = r.channels.reduce((n, c) => n + c.crossed.signature, 0);
    const table = await runCli(['analyze', file, '--wide']);
    expect(table.stdout).toMatch(new RegExp(`│ CROSSED_PAIR \\(FIFO\\) +│ note +│ ${fifo} +│`));
    if (sig > 0) expect(table.stdout).toMatch(new RegExp(`│ CROSSED_PAIR \\(signature-FIFO\\) +│ note +│ ${sig} +│`));
    expect(table.stdout).not.toMatch(/│ CROSSED_PAIR +│/);
    const html = await runCli(['analyze', file, '-f', 'html']);
    expect(html.stdout).toContain(want.replace(/^\d+ /, ''));
  });
});
