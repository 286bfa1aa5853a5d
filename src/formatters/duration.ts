/**
 * Unknown values and durations, written one way in every text view and in finding messages
 * (src/report/messages.ts). No imports: the report layer uses it too.
 */

/**
 * An unknown number in every text view (JSON holds `null`); `—` is kept for a cell that holds no
 * number because none applies (no location, no scope, crossed where terminal order is arbitrary).
 */
export const UNKNOWN = 'n/a';
/** A cell where no value applies (docs/report.md). */
export const NOT_APPLICABLE = '—';

/** A duration in ms: `4.25 ms`, `120 ms`, `1.50 s`; with `minutes`, `2.5 min` from a minute up. */
export function msText(n: number | null | undefined, opts: { minutes?: boolean } = {}): string {
  if (n === null || n === undefined) return UNKNOWN;
  if (opts.minutes && n >= 60_000) return `${(n / 60_000).toFixed(1)} min`;
  return n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(n < 10 ? 2 : 0)} ms`;
}

/** How long an orphan request stayed open before its scope ended, in every format (the same words and number). */
export function beforeEndText(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? 'unknown time before the end of its scope' : `${msText(ms)} before the end of its scope`;
}
