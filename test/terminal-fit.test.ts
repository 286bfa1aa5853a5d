/**
 * Tables fit the terminal: COLUMNS (or the TTY's width) bounds every line;
 * low-value columns are dropped first, long cells cut with a marker; `--wide` shows everything.
 */
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { cutCell, fittedTable, fitText, CUT } from '../src/formatters/present.js';
import { tableWidth } from '../src/cli/width.js';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { amp, resetClock, runCli, tmpDir, writeCapture } from './helpers.js';

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
    expect(t.split('\n')[1]).not.toContain('where');
    expect(t).toContain('(1 column(s) hidden above to fit: where; --wide shows them)');
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

describe('terminal fit by importance (80 columns)', () => {
  const at80 = { env: { COLUMNS: '80' } };
  const ASSAY = ['analyze', 'fixtures/assay/run-ids.decisions.ndjson', '--caller', 'fixtures/assay/run-ids.caller.jsonl', '--upstream', 'fixtures/assay/run-ids.upstream.jsonl'];
  /** The rows of the table that follows `title` in a table view. */
  const tableAfter = (out: string, title: string) => {
    const lines = out.split('\n');
    const title0 = lines.findIndex((l) => l.startsWith(title));
    const start = lines.findIndex((l, i) => i > title0 && l.startsWith('┌'));
    const end = lines.findIndex((l, i) => i > start && l.startsWith('└'));
    // What follows the table up to the next blank line (a note wraps to the width).
    const blank = lines.findIndex((l, i) => i > end && l.trim() === '');
    return { rows: lines.slice(start, end + 1), after: lines.slice(end + 1, blank < 0 ? undefined : blank).join(' ') };
  };
  const cells = (row: string) => row.split('│').slice(1, -1).map((c) => c.trim());

  it('findings keep their location and severity; the message goes first, and the note says --wide', async () => {
    const r = await runCli(ASSAY, at80);
    const { rows, after } = tableAfter(r.stdout, 'Findings');
    const denied = rows.find((l) => l.includes('DENIED_BUT_DELIVERED'))!;
    expect(cells(denied)[1]).toBe('error');
    expect(cells(denied)[3]).toMatch(/run-ids\.upstream\.jsonl:\d+$/);
    expect(after).toContain('--wide');
    expect(longest(r.stdout)).toBeLessThanOrEqual(80);
  });

  it('--wide shows every column and every message whole', async () => {
    const dir = tmpDir();
    const json = path.join(dir, 'r.json');
    const r = await runCli([...ASSAY, '--wide', '--report', `json=${json}`], at80);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { findings: Array<{ code: string; message: string }> };
    const { rows, after } = tableAfter(r.stdout, 'Findings');
    const denied = cells(rows.find((l) => l.includes('DENIED_BUT_DELIVERED'))!);
    expect(denied[4]).toBe(report.findings.find((f) => f.code === 'DENIED_BUT_DELIVERED')!.message);
    expect(r.stdout).not.toContain(CUT);
    expect(r.stdout).not.toContain('--wide');
    expect(after).toBe('');
  });

  it('--wide never cuts a long message', async () => {
    resetClock();
    const caller = `agent-${'x'.repeat(150)}`;
    const f = writeCapture([amp({ event: 'llm:request', id: 'r-1', provider: 'p', model: 'm', caller })]);
    const json = path.join(tmpDir(), 'r.json');
    const r = await runCli(['analyze', f, '--wide', '--report', `json=${json}`], at80);
    const message = (JSON.parse(readFileSync(json, 'utf8')) as { findings: Array<{ message: string }> }).findings[0]!.message;
    expect(message.length).toBeGreaterThan(150);
    const row = tableAfter(r.stdout, 'Findings').rows.find((l) => l.includes('ORPHAN_REQUEST'))!;
    expect(cells(row)[4]).toBe(message);
  });

  it('compare without ids keeps `at risk` and drops the columns of n/a first', async () => {
    const dir = tmpDir();
    const noIds = path.join(dir, 'no-ids.jsonl');
    writeFileSync(noIds, readFileSync('fixtures/seed-trace.jsonl', 'utf8').replace(/, "request_id": "[^"]*"/g, ''));
    const r = await runCli(['compare', noIds], at80);
    expect(r.code, r.stderr).toBe(0);
    const { rows, after } = tableAfter(r.stdout, 'No ground truth');
    const head = cells(rows[1]!);
    expect(head).toContain('at risk');
    expect(head).not.toContain('crossed');
    expect(head).not.toContain('crossed rate');
    expect(rows.some((l) => cells(l).includes('n/a'))).toBe(false);
    // Columns of n/a hid nothing: the note (when one is needed) never names them.
    expect(after).not.toContain('crossed');
  });

  it('two different scope ids never look alike: they are shortened in the middle', async () => {
    resetClock();
    const long = 'session-2026-09-03T10:00:00-worker-pool-east-1-queue';
    const scopes = [`${long}-0001-a`, `${long}-0002-a`, `${long}-0001-b`];
    const lines = scopes.flatMap((s, k) => [
      amp({ event: 'llm:request', id: `r-${k}`, provider: 'p', model: 'm', caller: 'a', session: s }),
      amp({ event: 'llm:request', id: `q-${k}`, provider: 'p', model: 'm', caller: 'a', session: s }),
      amp({ event: 'llm:response', id: `q-${k}`, provider: 'p', model: 'm', status: 'ok', session: s }),
    ]);
    const f = writeCapture(lines);
    for (const args of [['analyze', f], ['compare', f]]) {
      const r = await runCli(args, at80);
      expect(longest(r.stdout)).toBeLessThanOrEqual(80);
      const title = args[0] === 'analyze' ? 'Worst scopes' : 'Per scope';
      const { rows } = tableAfter(r.stdout, title);
      const shown = rows.slice(2, -1).map((l) => cells(l)[args[0] === 'analyze' ? 1 : 0]!);
      expect(shown).toHaveLength(3);
      expect(new Set(shown).size).toBe(3);
      for (const s of shown) expect(s.length).toBeLessThan(scopes[0]!.length);
    }
  });
});

describe('fittedTable by importance', () => {
  const chalk = new Chalk({ level: 0 });
  it('cuts the message before it drops a column, drops the message before location or severity', () => {
    const head = ['code', 'severity', 'first at', 'message'];
    const rows = [['DENIED_BUT_DELIVERED', 'error', 'fixtures/assay/run-ids.upstream.jsonl:6', 'denied call to github.add_deploy_key arrived upstream anyway']];
    const columns = [{}, { priority: 3 }, { priority: 2, kind: 'location' as const }, { priority: 1, kind: 'message' as const }];
    const wide = fittedTable(head, rows, chalk, { width: 110, columns });
    expect(wide).toContain('message');
    expect(wide).toContain('run-ids.upstream.jsonl:6');
    const narrow = fittedTable(head, rows, chalk, { width: 70, columns });
    expect(narrow).not.toContain('denied call');
    expect(narrow).toContain('error');
    expect(narrow).toMatch(/upstream\.jsonl:6/);
    expect(narrow).toContain('(1 column(s) hidden above to fit: message; --wide shows them)');
  });

  it('an id column is cut in the middle, never below the width that keeps its ids apart', () => {
    const ids = ['tenant-a-0000000000000000-x', 'tenant-a-0000000000000000-y', 'tenant-a-1111111111111111-x'];
    const t = fittedTable(['id', 'n'], ids.map((i) => [i, '1']), chalk, { width: 20, columns: [{ kind: 'id' }] });
    const shown = t.split('\n').slice(2, -1).map((l) => l.split('│')[1]!.trim());
    expect(new Set(shown).size).toBe(3);
    for (const s of shown) expect(s).toMatch(/^tenant.*…/);
  });
});
