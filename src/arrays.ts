/**
 * Array helpers for lists of any length. `a.push(...b)`, `Math.max(...b)` and the like pass every
 * element as a call argument, and past roughly 100 000 of them Node throws "Maximum call stack size
 * exceeded" (docs/guarantees.md: any number of inputs, findings or calls is reported, never a
 * crash). These loop instead.
 */

/** Appends every item to `into` (in order) and returns `into`. */
export function append<T>(into: T[], items: Iterable<T>): T[] {
  for (const x of items) into.push(x);
  return into;
}

/** The smallest value, or `empty` when there is none. */
export function minOf(values: Iterable<number>, empty = Infinity): number {
  let m = empty;
  let any = false;
  for (const v of values) {
    if (!any || v < m) m = v;
    any = true;
  }
  return m;
}

/** The largest value, or `empty` when there is none. */
export function maxOf(values: Iterable<number>, empty = -Infinity): number {
  let m = empty;
  let any = false;
  for (const v of values) {
    if (!any || v > m) m = v;
    any = true;
  }
  return m;
}
