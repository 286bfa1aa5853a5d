/**
 * The last `limit` distinct (scope, id) keys remembered, oldest forgotten first (a key remembered
 * again counts as new): the engine's window of recently closed ids (docs/design.md §8).
 *
 * Keyed in two levels, scope then id, both strings the engine has already looked up in its own
 * maps (so V8 has their hashes): no `scope\0id` string is built and hashed per call.
 *
 * Not a `Map` used as a queue: evicting its oldest key by `keys().next()` walks every deleted entry
 * at the front of V8's table, so once the window is full each eviction costs more than the last.
 * Here the order is parallel arrays with a head index and lazy deletion (an entry whose stamp is no
 * longer its key's is stale), compacted when stale entries outnumber live ones; a key remembered
 * again is updated in place (no delete, so no hole in its hash chain). Every operation is amortised
 * O(1) and the window holds at most `limit` keys and about twice as many queue entries.
 *
 * A scope holding one or two keys keeps them in a `FewKeys` slot, not a Map of its own: with many
 * sessions each closing a call or two, a Map per scope was most of the window's memory (about 300
 * bytes a scope against about 40; docs/performance.md, "Memory"). A third key turns the slot into a
 * Map.
 *
 * Remembering is lazy: a key is only queued as pending (two array pushes) and the window takes it
 * on the next `has` or `size`, or once `limit` keys are pending, in the order they came, so the
 * window is the one eager remembering makes. Most runs ask `has` rarely (a terminal nothing takes):
 * until then no Map is written per call.
 */
export class RecentKeys {
  /** Per scope, each remembered id's stamp (one or two ids: a `FewKeys`); a scope with none left is dropped. */
  private readonly stamps = new Map<string, FewKeys | Map<string, number>>();
  private count = 0;
  private scopes: string[] = [];
  private keys: string[] = [];
  private keyStamps: number[] = [];
  private head = 0;
  private tick = 0;
  /** Remembered, not yet in the window (at most `limit`). */
  private pendScopes: string[] = [];
  private pendKeys: string[] = [];
  /** Some key was forgotten (the window was full): a key not found may have been remembered once. */
  private forgot = false;

  constructor(private readonly limit: number) {}

  /** Whether any key was forgotten so far (the keys remembered are applied first). */
  get forgotten(): boolean {
    if (this.pendKeys.length !== 0) this.apply();
    return this.forgot;
  }

  get size(): number {
    if (this.pendKeys.length !== 0) this.apply();
    return this.count;
  }

  has(scope: string, key: string): boolean {
    if (this.pendKeys.length !== 0) this.apply();
    return this.stampOf(scope, key) !== undefined;
  }

  remember(scope: string, key: string): void {
    this.pendScopes.push(scope);
    this.pendKeys.push(key);
    if (this.pendKeys.length >= this.limit) this.apply();
  }

  /** The pending keys enter the window, oldest first. */
  private apply(): void {
    const scopes = this.pendScopes;
    const keys = this.pendKeys;
    this.pendScopes = [];
    this.pendKeys = [];
    for (let i = 0; i < keys.length; i++) this.rememberNow(scopes[i]!, keys[i]!);
  }

  private rememberNow(scope: string, key: string): void {
    const stamp = ++this.tick;
    const m = this.stamps.get(scope);
    if (m === undefined) {
      this.stamps.set(scope, new FewKeys(key, stamp));
      this.count++;
    } else if (m instanceof FewKeys) {
      if (m.k0 === key) m.s0 = stamp;
      else if (m.k1 === key) m.s1 = stamp;
      else {
        this.count++;
        if (m.k1 === null) {
          m.k1 = key;
          m.s1 = stamp;
        } else this.stamps.set(scope, new Map([[m.k0, m.s0], [m.k1, m.s1], [key, stamp]]));
      }
    } else {
      const before = m.size;
      m.set(key, stamp);
      if (m.size !== before) this.count++;
    }
    this.scopes.push(scope);
    this.keys.push(key);
    this.keyStamps.push(stamp);
    if (this.count > this.limit) this.forgetOldest();
    if (this.keys.length - this.head > 2 * this.count + 64) this.compact();
  }

  private forgetOldest(): void {
    while (this.head < this.keys.length) {
      const scope = this.scopes[this.head]!;
      const key = this.keys[this.head]!;
      const stamp = this.keyStamps[this.head]!;
      this.scopes[this.head] = '';
      this.keys[this.head++] = '';
      if (this.head > 64 && this.head * 2 > this.keys.length) {
        this.scopes = this.scopes.slice(this.head);
        this.keys = this.keys.slice(this.head);
        this.keyStamps = this.keyStamps.slice(this.head);
        this.head = 0;
      }
      const m = this.stamps.get(scope);
      if (m === undefined) continue;
      if (m instanceof FewKeys) {
        if (m.stampOf(key) !== stamp) continue;
        if (!m.forget(key)) this.stamps.delete(scope);
      } else {
        if (m.get(key) !== stamp) continue;
        m.delete(key);
        if (m.size === 0) this.stamps.delete(scope);
      }
      this.count--;
      this.forgot = true;
      return;
    }
  }

  private stampOf(scope: string, key: string): number | undefined {
    const m = this.stamps.get(scope);
    if (m === undefined) return undefined;
    if (m instanceof FewKeys) return m.stampOf(key);
    return m.get(key);
  }

  private compact(): void {
    const scopes: string[] = [];
    const keys: string[] = [];
    const keyStamps: number[] = [];
    for (let i = this.head; i < this.keys.length; i++) {
      const scope = this.scopes[i]!;
      const key = this.keys[i]!;
      if (this.stampOf(scope, key) !== this.keyStamps[i]) continue;
      scopes.push(scope);
      keys.push(key);
      keyStamps.push(this.keyStamps[i]!);
    }
    this.scopes = scopes;
    this.keys = keys;
    this.keyStamps = keyStamps;
    this.head = 0;
  }
}

/** A scope's one or two remembered keys and their stamps (RecentKeys); `k1` null: one key. */
class FewKeys {
  k1: string | null = null;
  s1 = 0;
  constructor(
    public k0: string,
    public s0: number,
  ) {}

  stampOf(key: string): number | undefined {
    return this.k0 === key ? this.s0 : this.k1 === key ? this.s1 : undefined;
  }

  /** Forgets `key` (held); false when no key is left. */
  forget(key: string): boolean {
    if (this.k1 === null) return false;
    if (this.k0 === key) {
      this.k0 = this.k1;
      this.s0 = this.s1;
    }
    this.k1 = null;
    return true;
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

/**
 * `Generations` keyed in two levels, scope then key (as `RecentKeys`): no `scope\0key` string is
 * built and hashed per operation, and the key strings are those the profile already holds. Holds
 * the last `size` to `2 × size` (scope, key) pairs written; `dropped` as in `Generations`.
 */
export class ScopedGenerations<V> {
  private cur = new Map<string, Map<string, V>>();
  private prev = new Map<string, Map<string, V>>();
  private curSize = 0;
  private prevSize = 0;
  /** A generation holding keys was dropped: a key not found may have been forgotten. */
  dropped = false;
  constructor(private readonly size: number) {}
  get(scope: string, k: string): V | undefined {
    const v = this.cur.get(scope)?.get(k);
    return v !== undefined ? v : this.prev.get(scope)?.get(k);
  }
  set(scope: string, k: string, v: V): void {
    let m = this.cur.get(scope);
    if (m === undefined || !m.has(k)) {
      if (this.curSize >= this.size) {
        if (this.prevSize > 0) this.dropped = true;
        this.prev = this.cur;
        this.prevSize = this.curSize;
        this.cur = new Map();
        this.curSize = 0;
        m = undefined;
      }
      if (m === undefined) this.cur.set(scope, (m = new Map()));
      this.curSize++;
    }
    m.set(k, v);
  }
}
