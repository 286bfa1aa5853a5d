/**
 * Presentation helpers shared by every human-readable format (terminal tables, Markdown, HTML,
 * compare): numbers, rates and durations written one way everywhere, and the terminal table.
 */
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';

/** Unknown, in every format. */
export const UNKNOWN = '—';

/** A rate 0..1 as a percentage with one decimal (`12.5%`). */
export function pct(r: number | null): string {
  return r === null ? UNKNOWN : `${(r * 100).toFixed(1)}%`;
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
