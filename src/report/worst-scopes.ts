/**
 * The one "worst scopes" ranking: every format that lists or draws scopes worst first (the
 * report's `--max-scopes`, the HTML timeline, the worst-scopes tables of the table, Markdown and
 * HTML views, compare's per-scope table) orders them with
 * `worstFirst`. A scope's trouble is a tuple compared left to right, larger is worse; ties go by
 * name, in byte order, so the order never depends on input order.
 */
import type { CounterReport, ScopeReport } from './parts.js';

/** Trouble, most significant first: each element compared only when the ones before it tie. */
export type Trouble = readonly number[];

/**
 * What a scope's counters say about it, by the severity of what they count: first the warnings
 * (orphans, ambiguous pairs, duplicate ids, together), then the notes (crossed by FIFO), then
 * duplicate terminals, then the busiest. A scope with an orphan ranks above one with only crossed pairs.
 */
export function counterTrouble(c: Pick<CounterReport, 'crossed' | 'orphanRequests' | 'orphanResponses' | 'pairs' | 'duplicateIds' | 'duplicateTerminals' | 'maxInFlight'>): Trouble {
  return [c.orphanRequests + c.orphanResponses + c.pairs.byConfidence.ambiguous + c.duplicateIds, c.crossed.fifo, c.duplicateTerminals, c.maxInFlight];
}

/** Does a scope have anything the ranking counts as trouble (everything but its busyness)? */
export function hasTrouble(c: Parameters<typeof counterTrouble>[0]): boolean {
  return counterTrouble(c).slice(0, -1).some((n) => n > 0);
}

/** One scope of one channel, as the worst-scopes views list it. */
export interface RankedScope {
  channel: string;
  scope: ScopeReport;
}

/** The worst `n` troubled scopes over every channel of a report (the views' one ranking: table, Markdown, HTML). */
export function worstScopes(channels: readonly { channel: string; scopes: readonly ScopeReport[] }[], n: number): { list: RankedScope[]; troubled: number } {
  const all: RankedScope[] = [];
  for (const ch of channels) for (const s of ch.scopes) if (hasTrouble(s)) all.push({ channel: ch.channel, scope: s });
  return { list: worstFirst(all, (x) => counterTrouble(x.scope), (x) => [x.channel, x.scope.scope]).slice(0, n), troubled: all.length };
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
