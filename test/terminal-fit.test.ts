/**
 * Tables fit the terminal (issue 15, item 2): COLUMNS (or the TTY's width) bounds every line;
 * low-value columns are dropped first, long cells cut with a marker; `--wide` shows everything.
 */
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { cutCell, fittedTable, fitText, CUT } from '../src/formatters/present.js';
import { tableWidth } from '../src/cli/width.js';
import { runCli } from './helpers.js';

const RUNS: [string, string[]][] = [
  ['analyze orphan-crossed', ['analyze', 'fixtures/orphan-crossed.jsonl']],
  ['analyze seed-trace', ['analyze', 'fixtures/seed-trace.jsonl']],
  ['analyze assay (three files)', ['analyze', 'fixtures/assay/run-ids.decisions.ndjson', '--caller', 'fixtures/assay/run-ids.caller.jsonl', '--upstream', 'fixtures/assay/run-ids.upstream.jsonl']],
  ['analyze two inputs', ['analyze', 'fixtures/seed-trace.jsonl', 'fixtures/orphan-crossed.jsonl']],
  ['compare', ['compare', 'fixtures/seed-trace.jsonl']],
  ['trace', ['trace', 'fixtures/orphan-crossed.jsonl:5']],
];

const longest = (s: string) => Math.max(...s.split('\n').map((l) => [...l].length));

describe('COLUMNS bounds every line of the terminal views', () => {
  for (const w of [80, 120, 200]) {
    it.each(RUNS)(`COLUMNS=${w}: %s`, async (_, args) => {
      const r = await runCli(args, { env: { COLUMNS: String(w) } });
      expect(r.stdout.length).toBeGreaterThan(0);
      expect(longest(r.stdout)).toBeLessThanOrEqual(w);
    });
  }

  it('--wide shows the tables whole (lines longer than COLUMNS)', async () => {
    const fit = await runCli(['analyze', 'fixtures/orphan-crossed.jsonl'], { env: { COLUMNS: '80' } });
    const wide = await runCli(['analyze', 'fixtures/orphan-crossed.jsonl', '--wide'], { env: { COLUMNS: '80' } });
    expect(longest(wide.stdout)).toBeGreaterThan(80);
    expect(fit.stdout).toContain(CUT);
    expect(wide.stdout).toContain('FIFO would give the summarizer terminal to the agent request');
  });
});

describe('the fitting helpers', () => {
  const chalk = new Chalk({ level: 0 });
  it('cutCell cuts with the marker; a path:line keeps its line number', () => {
    expect(cutCell('abcdefghij', 5)).toBe('abcd…');
    expect(cutCell('short', 10)).toBe('short');
    expect(cutCell('fixtures/orphan-crossed.jsonl:12 agent', 20)).toBe('…ssed.jsonl:12 agent');
  });

  it('fittedTable drops the low-value columns first, then cuts; no line is longer than the width', () => {
    const head = ['name', 'where', 'message'];
    const rows = [['a', 'some/long/path.jsonl:1', 'x'.repeat(100)]];
    const t = fittedTable(head, rows, chalk, { width: 60, drop: [1] });
    expect(t).not.toContain('where');
    expect(longest(t)).toBeLessThanOrEqual(60);
    expect(t).toContain(CUT);
    // Without a width: as wide as the content.
    expect(longest(fittedTable(head, rows, chalk, {}))).toBeGreaterThan(100);
  });

  it('fitText wraps long text lines at spaces', () => {
    const t = fitText('word '.repeat(40).trim(), 30);
    expect(longest(t)).toBeLessThanOrEqual(30);
    expect(t.split('\n').length).toBeGreaterThan(5);
  });

  it('the width: COLUMNS when set, else the TTY width; none with --wide or -o', () => {
    expect(tableWidth({}, { COLUMNS: '90' }, { isTTY: false })).toBe(90);
    expect(tableWidth({}, {}, { isTTY: true, columns: 132 })).toBe(132);
    expect(tableWidth({}, {}, { isTTY: false })).toBeUndefined();
    expect(tableWidth({ wide: true }, { COLUMNS: '90' }, { isTTY: true, columns: 132 })).toBeUndefined();
    expect(tableWidth({ output: 'x.txt' }, { COLUMNS: '90' }, {})).toBeUndefined();
  });
});
