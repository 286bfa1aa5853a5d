/**
 * A terminal output whose tables lost columns to the width says so once, after its last table,
 * naming every hidden column once; `--wide` (no width) hides none and says nothing.
 */
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { analyze } from '../src/analyze.js';
import { table } from '../src/formatters/table.js';
import { fixture, runCli } from './helpers.js';

const chalk = new Chalk({ level: 0 });
const NOTE = /\(\d+ column\(s\) hidden above to fit: [^;]+; --wide shows them\)/g;

/** How many notes, the line the note starts on, and the last table's bottom border line (a note wraps to the width). */
function placement(out: string) {
  const lines = out.split('\n');
  const unwrapped = out.replace(/\n {2}/g, ' ');
  return { notes: (unwrapped.match(NOTE) ?? []).length, note: lines.findIndex((l) => l.includes('column(s) hidden above to fit')), lastTable: lines.map((l) => l.startsWith('└')).lastIndexOf(true) };
}

describe('one --wide note per terminal output', () => {
  it('analyze: the tables that lost columns share one note, right after the last table; with no width there is none', async () => {
    const report = await analyze({ inputs: [fixture('orphan-crossed.jsonl')] });
    const narrow = table.render(report, { chalk, width: 60, cwd: process.cwd() });
    const p = placement(narrow);
    expect(p.notes).toBe(1);
    expect(p.note).toBe(p.lastTable + 1);
    const names = narrow.replace(/\n {2}/g, ' ').match(/hidden above to fit: ([^;]+);/)![1]!.split(', ');
    expect(new Set(names).size).toBe(names.length);
    expect(narrow.match(/\((\d+) column/)![1]).toBe(String(names.length));
    expect(table.render(report, { chalk, cwd: process.cwd() })).not.toContain('--wide');
  });

  it('an Assay run of three files: one note', async () => {
    const report = await analyze({
      inputs: [fixture('assay/run-ids.decisions.ndjson')],
      caller: [fixture('assay/run-ids.caller.jsonl')],
      upstream: [fixture('assay/run-ids.upstream.jsonl')],
    });
    expect(placement(table.render(report, { chalk, width: 60, cwd: process.cwd() })).notes).toBe(1);
  });

  it('trace on a 60-column terminal: one note after its last table', async () => {
    const r = await runCli(['trace', 'fixtures/orphan-crossed.jsonl:5'], { env: { COLUMNS: '60' } });
    const p = placement(r.stdout);
    expect(p.notes).toBe(1);
    expect(p.note).toBe(p.lastTable + 1);
  });
});
