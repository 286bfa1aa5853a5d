/**
 * Presentation helpers shared by every human-readable format (terminal tables, Markdown, HTML,
 * compare): numbers, rates and durations written one way everywhere, and the terminal table.
 */
import { stripVTControlCharacters } from 'node:util';
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';

/** Unknown, in every format. */
export const UNKNOWN = '—';

/** A rate 0..1 as a percentage with one decimal (`12.5%`). */
export function pct(r: number | null): string {
  return r === null ? UNKNOWN : `${(r * 100).toFixed(1)}%`;
}

/** Id coverage as every view writes it: `n/a` when the channel's profile declares no id (unknown, never 0 or 100%). */
export function idCoverageText(r: number | null, meaning: { ids?: 'undeclared' }): string {
  return meaning.ids === 'undeclared' ? 'n/a (no id declared)' : r === null ? 'n/a' : pct(r);
}

export function num(n: number | null | undefined): string {
  return n === null || n === undefined ? UNKNOWN : String(n);
}

/** A duration in ms: `4.25 ms`, `120 ms`, `1.50 s`; with `minutes`, `2.5 min` from a minute up. */
export function msText(n: number | null | undefined, opts: { minutes?: boolean } = {}): string {
  if (n === null || n === undefined) return UNKNOWN;
  if (opts.minutes && n >= 60_000) return `${(n / 60_000).toFixed(1)} min`;
  return n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(n < 10 ? 2 : 0)} ms`;
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
 * else its start.
 */
export function cutCell(s: string, w: number): string {
  return s
    .split('\n')
    .map((line) => {
      const plain = [...stripVTControlCharacters(line)];
      if (plain.length <= w) return line;
      const keep = Math.max(0, w - 1);
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

export interface FitOptions {
  /** The terminal width; undefined: no limit (`--wide`, or output to a file or a pipe without COLUMNS). */
  width?: number;
  /** Column indexes to drop when the table cannot fit even with cut cells, the least valuable first. */
  drop?: readonly number[];
}

/** A table line's width: the cells, one space either side of each, and a border between and around them. */
const tableWidth = (w: readonly number[]) => w.reduce((n, x) => n + x + 2, 0) + w.length + 1;
/** Cells are never cut below this. */
const HARD_MIN = 3;

/**
 * A terminal table (as `plainTable`) that fits `opts.width`: first the low-value columns of
 * `opts.drop` are dropped (only as many as needed), then the widest cells are cut with `CUT`; no
 * line is longer than the width (docs/report.md, terminal width).
 */
export function fittedTable(head: readonly string[], rows: readonly (readonly string[])[], chalk: ChalkInstance, opts: FitOptions = {}): string {
  let cols = head.map((_, i) => i);
  const natural = (i: number) => Math.max(visibleWidth(head[i]!), ...rows.map((r) => visibleWidth(r[i] ?? '')));
  let widths = cols.map(natural);
  const width = opts.width;
  if (width !== undefined && tableWidth(widths) > width) {
    // Low-value columns go first, then the widest cells are cut.
    for (const d of opts.drop ?? []) {
      if (cols.length <= 1 || tableWidth(cols.map(natural)) <= width) break;
      cols = cols.filter((i) => i !== d);
    }
    widths = cols.map(natural);
    const mins = cols.map((i) => Math.min(natural(i), HARD_MIN));
    // Cut the widest column one character at a time until the table fits (or nothing can be cut).
    while (tableWidth(widths) > width) {
      let k = -1;
      for (let j = 0; j < widths.length; j++) if (widths[j]! > mins[j]! && (k < 0 || widths[j]! > widths[k]!)) k = j;
      if (k < 0) break;
      widths[k]!--;
    }
  }
  const t = plainTable(
    cols.map((i, j) => cutCell(head[i]!, widths[j]!)),
    chalk,
  );
  for (const r of rows) t.push(cols.map((i, j) => cutCell(r[i] ?? '', widths[j]!)));
  return t.toString();
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
