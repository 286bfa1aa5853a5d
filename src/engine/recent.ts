/**
 * The last `limit` distinct keys remembered, oldest forgotten first (a key remembered again counts as
 * new): the engine's window of recently closed ids (docs/design.md §8).
 *
 * Not a `Map` used as a queue: evicting its oldest key by `keys().next()` walks every deleted entry
 * at the front of V8's table, so once the window is full each eviction costs more than the last.
 * Here the order is two arrays with a head index and lazy deletion (an entry whose stamp is no
 * longer its key's is stale), compacted when stale entries outnumber live ones; a key remembered
 * again is updated in place (no delete, so no hole in its hash chain). Every operation is amortised
 * O(1) and the window holds at most `limit` keys and about twice as many queue entries.
 */
export class RecentKeys {
  private readonly stamps = new Map<string, number>();
  private keys: string[] = [];
  private keyStamps: number[] = [];
  private head = 0;
  private tick = 0;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.stamps.size;
  }

  has(key: string): boolean {
    return this.stamps.has(key);
  }

  remember(key: string): void {
    const stamp = ++this.tick;
    this.stamps.set(key, stamp);
    this.keys.push(key);
    this.keyStamps.push(stamp);
    if (this.stamps.size > this.limit) this.forgetOldest();
    if (this.keys.length - this.head > 2 * this.stamps.size + 64) this.compact();
  }

  private forgetOldest(): void {
    while (this.head < this.keys.length) {
      const key = this.keys[this.head]!;
      const stamp = this.keyStamps[this.head]!;
      this.keys[this.head++] = '';
      if (this.head > 64 && this.head * 2 > this.keys.length) {
        this.keys = this.keys.slice(this.head);
        this.keyStamps = this.keyStamps.slice(this.head);
        this.head = 0;
      }
      if (this.stamps.get(key) === stamp) {
        this.stamps.delete(key);
        return;
      }
    }
  }

  private compact(): void {
    const keys: string[] = [];
    const keyStamps: number[] = [];
    for (let i = this.head; i < this.keys.length; i++) {
      const key = this.keys[i]!;
      if (this.stamps.get(key) !== this.keyStamps[i]) continue;
      keys.push(key);
      keyStamps.push(this.keyStamps[i]!);
    }
    this.keys = keys;
    this.keyStamps = keyStamps;
    this.head = 0;
  }
}

/**
 * A bounded map in two generations: writes go to the current one; when it is full it becomes the
 * previous one and the old previous one is dropped. O(1) per operation, no Map deletions (deleting
 * and re-adding keys of a large Map slows its lookups until the next rehash). Holds the last
 * `size` to `2 × size` keys written; `dropped` tells whether any key was ever forgotten.
 */
export class Generations<V> {
  private cur = new Map<string, V>();
  private prev = new Map<string, V>();
  /** A generation holding keys was dropped: a key not found may have been forgotten. */
  dropped = false;
  constructor(private readonly size: number) {}
  get(k: string): V | undefined {
    return this.cur.get(k) ?? this.prev.get(k);
  }
  has(k: string): boolean {
    return this.cur.has(k) || this.prev.has(k);
  }
  set(k: string, v: V): void {
    if (!this.cur.has(k) && this.cur.size >= this.size) {
      if (this.prev.size > 0) this.dropped = true;
      this.prev = this.cur;
      this.cur = new Map();
    }
    this.cur.set(k, v);
  }
}
