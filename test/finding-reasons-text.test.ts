/**
 * The table's finding row shows its code's first message; when the listed findings give several
 * reasons (orphans evicted and never answered), they are tallied beside it, so the first one's
 * reason is not read as every one's.
 */
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { analyzeLines } from './helpers.js';
import { table } from '../src/formatters/table.js';

const ctx = { chalk: new Chalk({ level: 0 }), cwd: process.cwd(), width: 400 };
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't' } });
const reply = (id: number) => ({ jsonrpc: '2.0', id, result: {} });

describe('finding rows with several reasons', () => {
  it('tallies the reasons of the listed findings (4 evicted, 2 never answered)', async () => {
    const lines = [...Array.from({ length: 10 }, (_, i) => call(i)), ...[5, 6, 7, 8].map(reply)];
    const r = await analyzeLines(lines, { maxOpenCalls: 6 });
    const row = table.render(r, ctx).split('\n').find((l) => l.includes('ORPHAN_REQUEST'))!;
    expect(row).toContain('request from main evicted while open (--max-open-calls reached) — reasons: evicted 4, end-of-input 2');
    // One reason: no tally.
    const one = await analyzeLines(lines.slice(0, 10), {});
    expect(table.render(one, ctx).split('\n').find((l) => l.includes('ORPHAN_REQUEST'))).not.toContain('reasons');
  });

  it('counts only what is listed, and says so, when findings were left out', async () => {
    const lines = [...Array.from({ length: 10 }, (_, i) => call(i)), ...[5, 6, 7, 8].map(reply)];
    // Six orphans (lines 1–4 evicted, 5 and 10 never answered); five listed.
    const r = await analyzeLines(lines, { maxOpenCalls: 6, maxFindings: 5 });
    expect(r.findingsOmitted.ORPHAN_REQUEST).toBe(1);
    const row = table.render(r, ctx).split('\n').find((l) => l.includes('ORPHAN_REQUEST'))!;
    expect(row).toContain('— reasons of the 5 listed: evicted 4, end-of-input 1');
  });
});
