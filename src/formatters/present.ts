/**
 * Presentation helpers shared by every human-readable format (terminal tables, Markdown, HTML,
 * compare): numbers, rates and durations written one way everywhere, and the terminal table.
 */
import { stripVTControlCharacters } from 'node:util';
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';

export { UNKNOWN, NOT_APPLICABLE, msText, beforeEndText } from './duration.js';
import { UNKNOWN, NOT_APPLICABLE } from './duration.js';

/** A rate 0..1 as a percentage with one decimal (`12.5%`). */
export function pct(r: number | null): string {
  return r === null ? UNKNOWN : `${(r * 100).toFixed(1)}%`;
}

/** Id coverage as every view writes it: `n/a` when the channel's profile declares no id (unknown, never 0 or 100%). */
export function idCoverageText(r: number | null, meaning: { ids?: 'undeclared' }): string {
  return meaning.ids === 'undeclared' ? 'n/a (no id declared)' : r === null ? UNKNOWN : pct(r);
}

export function num(n: number | null | undefined): string {
  return n === null || n === undefined ? UNKNOWN : String(n);
}

/** A terminal table with a bold head and no row separators. */
export function plainTable(head: readonly string[], chalk: ChalkInstance): Table.Table {
  return new Table({
    head: head.map((h) => chalk.bold(h)),
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
}

/** Characters a string takes on a terminal line (colour codes take none). */
export function visibleWidth(s: string): number {
  let w = 0;
  for (const line of stripVTControlCharacters(s).split('\n')) w = Math.max(w, [...line].length);
  return w;
}

/** The cut marker: a cell cut to fit the terminal ends with it. */
export const CUT = '…';

/**
 * `s` cut to `w` visible characters (each of its lines) with the cut marker; colour is dropped from
 * a cut line. A `path:line` keeps its end (the file name, the line number and what follows), anything
 * else its start; with `middle` (ids) both ends are kept and the middle goes.
 */
export function cutCell(s: string, w: number, how: 'end' | 'middle' = 'end'): string {
  return s
    .split('\n')
    .map((line) => {
      const plain = [...stripVTControlCharacters(line)];
      if (plain.length <= w) return line;
      const keep = Math.max(0, w - 1);
      if (how === 'middle') return middleCut(plain, w);
      // `path:line` or `path:line caller`: the path is cut from its start, the rest kept when it fits.
      const m = /^(\S+?)(:\d+(?: .*)?)$/.exec(plain.join(''));
      if (m) {
        const tail = [...m[2]!];
        if (tail.length + 4 <= keep) return CUT + [...m[1]!].slice(-(keep - tail.length)).join('') + m[2];
      }
      return plain.slice(0, keep).join('') + CUT;
    })
    .join('\n');
}

/** `abcdef…uvwxyz`: the start and the end of an id, its middle replaced by the cut marker. */
function middleCut(chars: readonly string[], w: number): string {
  if (chars.length <= w) return chars.join('');
  const keep = Math.max(0, w - 1);
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  return chars.slice(0, head).join('') + CUT + (tail > 0 ? chars.slice(-tail).join('') : '');
}

/** How one column fits a narrow terminal (docs/report.md, terminal width). */
export interface ColumnFit {
  /**
   * Columns are dropped in ascending priority when the table cannot fit with cut cells; a column
   * without one is never dropped. Columns whose every cell is empty or unknown (`n/a`, `—`) go first.
   */
  priority?: number;
  /**
   * `message`: free text, cut (down to a readable minimum) before any column is dropped; `id`:
   * shortened in the middle, never so far that two different ids look alike; `location`: a
   * `path:line`, cut from the path's start.
   */
  kind?: 'message' | 'id' | 'location';
}

export interface FitOptions {
  /** The terminal width; undefined: no limit (`--wide`, or output to a file or a pipe without COLUMNS). */
  width?: number;
  /** Column indexes to drop when the table cannot fit even with cut cells, the least valuable first (priorities 0, 1, …). */
  drop?: readonly number[];
  /** Per column (aligned with the head): its priority and kind. */
  columns?: readonly (ColumnFit | undefined)[];
  /**
   * An output's collector of hidden column names: when given, the table adds the names of the
   * columns it lost here instead of writing the note under itself, so an output of many tables
   * writes `hiddenNote` once (docs/report.md, terminal width).
   */
  hidden?: string[];
}

/** The one `--wide` note of an output: the columns its tables hid (each name once), or '' when none was hidden. */
export function hiddenNote(hidden: readonly string[], chalk: ChalkInstance): string {
  const names = [...new Set(hidden)];
  return names.length === 0 ? '' : chalk.dim(`(${names.length} column(s) hidden above to fit: ${names.join(', ')}; --wide shows them)`);
}

/** A table line's width: the cells, one space either side of each, and a border between and around them. */
const tableWidth = (w: readonly number[]) => w.reduce((n, x) => n + x + 2, 0) + w.length + 1;
/** Cells are never cut below this. */
const HARD_MIN = 3;
/** Messages and locations are cut to this before a column is dropped. */
const SOFT_MIN = 24;
const UNINFORMATIVE = new Set(['', UNKNOWN, NOT_APPLICABLE, '-']);

/** The narrowest width at which the middle-cut forms of a column's distinct values stay distinct. */
function distinctWidth(values: readonly string[], natural: number): number {
  const distinct = [...new Set(values.map((v) => stripVTControlCharacters(v)))];
  for (let w = HARD_MIN; w < natural; w++) {
    const seen = new Set(distinct.map((v) => middleCut([...v], w)));
    if (seen.size === distinct.length) return w;
  }
  return natural;
}

/**
 * A terminal table (as `plainTable`) that fits `opts.width` by importance: messages are cut first
 * (to a readable minimum), then whole columns go — those with nothing to say (every cell empty or
 * `n/a`), then by ascending priority — then the widest cells are cut with `CUT`; ids are shortened
 * in the middle and never until two look alike. No line is longer than the width, and a table that
 * lost columns says so under it, with `--wide` (or adds them to `opts.hidden`, for the output's
 * one note: docs/report.md, terminal width).
 */
export function fittedTable(head: readonly string[], rows: readonly (readonly string[])[], chalk: ChalkInstance, opts: FitOptions = {}): string {
  const fit: ColumnFit[] = head.map((_, i) => ({ ...(opts.columns?.[i] ?? {}) }));
  (opts.drop ?? []).forEach((d, k) => {
    if (fit[d] && fit[d]!.priority === undefined) fit[d]!.priority = k;
  });
  let cols = head.map((_, i) => i);
  const natural = (i: number) => Math.max(visibleWidth(head[i]!), ...rows.map((r) => visibleWidth(r[i] ?? '')));
  const idMin = (i: number) => distinctWidth(rows.map((r) => r[i] ?? ''), natural(i));
  const soft = (i: number) => (fit[i]!.kind === 'message' || fit[i]!.kind === 'location' ? Math.min(natural(i), SOFT_MIN) : fit[i]!.kind === 'id' ? idMin(i) : natural(i));
  const hard = (i: number) => (fit[i]!.kind === 'id' ? idMin(i) : Math.min(natural(i), HARD_MIN));
  /** Widths for `cols`, the widest cut first down to `min`; fits the width when that is possible. */
  const shrink = (min: (i: number) => number, width: number) => {
    const ws = cols.map(natural);
    const mins = cols.map(min);
    while (tableWidth(ws) > width) {
      let k = -1;
      for (let j = 0; j < ws.length; j++) if (ws[j]! > mins[j]! && (k < 0 || ws[j]! > ws[k]!)) k = j;
      if (k < 0) break;
      ws[k]!--;
    }
    return ws;
  };
  let widths = cols.map(natural);
  const dropped: number[] = [];
  const width = opts.width;
  if (width !== undefined && tableWidth(widths) > width) {
    const empty = (i: number) => rows.length > 0 && rows.every((r) => UNINFORMATIVE.has(stripVTControlCharacters(r[i] ?? '').trim()));
    const order = [
      ...cols.filter((i) => fit[i]!.priority !== undefined && empty(i)),
      ...cols.filter((i) => fit[i]!.priority !== undefined && !empty(i)).sort((a, b) => fit[a]!.priority! - fit[b]!.priority! || a - b),
    ];
    // Messages cut first, then columns dropped (only as many as needed), then every cell cut.
    widths = shrink(soft, width);
    for (const d of order) {
      if (tableWidth(widths) <= width || cols.length <= 1) break;
      cols = cols.filter((i) => i !== d);
      dropped.push(d);
      widths = shrink(soft, width);
    }
    if (tableWidth(widths) > width) widths = shrink(hard, width);
  }
  const how = (i: number) => (fit[i]!.kind === 'id' ? 'middle' : 'end');
  const t = plainTable(
    cols.map((i, j) => cutCell(head[i]!, widths[j]!)),
    chalk,
  );
  for (const r of rows) t.push(cols.map((i, j) => cutCell(r[i] ?? '', widths[j]!, how(i))));
  // A column with nothing in it hid nothing: only columns that said something are named.
  const lost = dropped.filter((i) => !rows.every((r) => UNINFORMATIVE.has(stripVTControlCharacters(r[i] ?? '').trim())));
  if (lost.length === 0) return t.toString();
  const names = lost.sort((a, b) => a - b).map((i) => (head[i] !== '' ? stripVTControlCharacters(head[i]!) : fit[i]!.kind === 'message' ? 'message' : `column ${i + 1}`));
  if (opts.hidden) {
    opts.hidden.push(...names);
    return t.toString();
  }
  return `${t.toString()}\n${hiddenNote(names, chalk)}`;
}

/**
 * Lines of text (not tables) wrapped to `width` at spaces, a long word cut with `CUT`; continuation
 * lines are indented by two spaces. Undefined width: the text as it is.
 */
export function fitText(text: string, width: number | undefined): string {
  if (width === undefined) return text;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (visibleWidth(line) <= width) {
      out.push(line);
      continue;
    }
    const plain = stripVTControlCharacters(line);
    let cur = '';
    for (const word of plain.split(' ')) {
      const next = cur === '' ? word : `${cur} ${word}`;
      if ([...next].length <= width) cur = next;
      else {
        if (cur.trim() !== '') out.push(cur);
        cur = `  ${word}`;
        if ([...cur].length > width) {
          out.push(cutCell(cur, width));
          cur = '';
        }
      }
    }
    if (cur.trim() !== '') out.push(cur);
  }
  return out.join('\n');
}

/** Crossed pairs of a report by baseline (FIFO, signature-FIFO): the `CROSSED_PAIR` count is their sum. */
export function crossedByBaseline(channels: readonly { crossed: { fifo: number; signature: number } }[]): { fifo: number; signature: number } {
  return channels.reduce((a, c) => ({ fifo: a.fifo + c.crossed.fifo, signature: a.signature + c.crossed.signature }), { fifo: 0, signature: 0 });
}

/** A finding code's count as every view writes it: `CROSSED_PAIR` split by baseline, `41 (FIFO 31, signature-FIFO 10)`. */
export function findingCountText(report: { channels: readonly { crossed: { fifo: number; signature: number } }[]; findingCounts: Partial<Record<string, number>> }, code: string): string {
  const n = report.findingCounts[code] ?? 0;
  if (code !== 'CROSSED_PAIR') return String(n);
  const c = crossedByBaseline(report.channels);
  return `${n} (FIFO ${c.fifo}, signature-FIFO ${c.signature})`;
}

/** Scopes listed in the worst-scopes views (table, Markdown, HTML). */
export const WORST_SCOPES_SHOWN = 10;

/** The head of a worst-scopes table. */
export const SCOPE_HEAD = ['channel', 'scope', 'calls', 'orphans', 'ambiguous', 'crossed (FIFO)', 'crossed (signature-FIFO)'] as const;

/** One worst-scopes row; `text` makes capture strings safe for the medium. */
export function scopeRow(r: { channel: string; scope: { scope: string; requests: number; orphanRequests: number; orphanResponses: number; pairs: { byConfidence: { ambiguous: number } }; crossed: { fifo: number; signature: number } } }, text: (s: string) => string): string[] {
  const s = r.scope;
  return [text(r.channel), text(s.scope === '' ? '(none)' : s.scope), String(s.requests), String(s.orphanRequests + s.orphanResponses), String(s.pairs.byConfidence.ambiguous), String(s.crossed.fifo), String(s.crossed.signature)];
}

/** How the worst-scopes ranking orders scopes, in words (docs/report.md). */
export const RANKING_TEXT = 'orphans and ambiguous first, then crossed';
