/**
 * Bounded counting and remembering (capture-supplied keys never grow memory without bound). Every
 * bound here refuses rather than forgets: what was remembered stays until the end of the run, and
 * a refusal is reported (docs/design.md §8; the delivery audit fails closed on it). Nothing
 * is used as a queue: each operation is O(1) amortised.
 */

export function bump<K>(m: Map<K, number>, k: K): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/**
 * Stores `v` under `k` when `k` is already held or fewer than `bound` keys are: true. A new key
 * over the bound is refused (false), and nothing held is forgotten.
 */
export function rememberBounded<V>(m: Map<string, V>, k: string, v: V, bound: number): boolean {
  if (m.size >= bound && !m.has(k)) return false;
  m.set(k, v);
  return true;
}

/**
 * Lists by name whose entries are taken oldest first, once each (`taken` tells): each list
 * keeps the index of its first entry not yet taken, and drops the taken ones in blocks, so that
 * finding the oldest untaken entry is O(1) amortised (a scan from the start was quadratic).
 */
export class TakeLists<T> {
  private readonly lists = new Map<string, { items: T[]; head: number }>();
  private held = 0;

  constructor(
    private readonly bound: number,
    private readonly taken: (item: T) => boolean,
  ) {}

  get size(): number {
    return this.lists.size;
  }

  /** False when `bound` entries are held already (the entry is refused). */
  push(name: string, item: T): boolean {
    if (this.held >= this.bound) return false;
    this.held++;
    const l = this.lists.get(name);
    if (l) l.items.push(item);
    else this.lists.set(name, { items: [item], head: 0 });
    return true;
  }

  /** The oldest entry of `name` not yet taken. */
  first(name: string): T | undefined {
    const l = this.lists.get(name);
    if (!l) return undefined;
    while (l.head < l.items.length && this.taken(l.items[l.head]!)) l.head++;
    if (l.head >= 1024 && l.head * 2 >= l.items.length) {
      l.items.splice(0, l.head);
      l.head = 0;
    }
    return l.items[l.head];
  }
}
