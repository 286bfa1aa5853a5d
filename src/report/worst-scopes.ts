/**
 * The one "worst scopes" ranking: every format that lists or draws scopes worst first (the
 * report's `--max-scopes`, the HTML timeline, compare's per-scope table) orders them with
 * `worstFirst`. A scope's trouble is a tuple compared left to right, larger is worse; ties go by
 * name, in byte order, so the order never depends on input order.
 */
import type { CounterReport } from './report.js';

/** Trouble, most significant first: each element compared only when the ones before it tie. */
export type Trouble = readonly number[];

/** What a scope's counters say about it: crossed by FIFO, then orphaned, then ambiguous, then duplicated, then busiest. */
export function counterTrouble(c: Pick<CounterReport, 'crossed' | 'orphanRequests' | 'orphanResponses' | 'pairs' | 'duplicateIds' | 'duplicateTerminals' | 'maxInFlight'>): Trouble {
  return [c.crossed.fifo, c.orphanRequests + c.orphanResponses, c.pairs.byConfidence.ambiguous, c.duplicateIds + c.duplicateTerminals, c.maxInFlight];
}

/** Sorts (a copy of) `items` worst first. `names` breaks ties, element by element, in byte order. */
export function worstFirst<T>(items: Iterable<T>, trouble: (x: T) => Trouble, names: (x: T) => readonly string[]): T[] {
  const keyed = [...items].map((x) => ({ x, t: trouble(x), n: names(x) }));
  keyed.sort((a, b) => cmpTuple(b.t, a.t) || cmpNames(a.n, b.n));
  return keyed.map((k) => k.x);
}

function cmpTuple(a: Trouble, b: Trouble): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function cmpNames(a: readonly string[], b: readonly string[]): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
