/**
 * An arrival-ordered pool of open requests with a signature index (docs/design.md §5, §8).
 *
 * Pairing asks two questions of a pool many times per terminal: "the oldest open request" and "the
 * oldest one whose signature matches". A `Map` scanned from its head answers the second in O(open)
 * (every stale request with another signature is visited on every terminal: 100 000 stale calls
 * made 100 000 id-paired ones take minutes), and even the first degrades, since a `Map` keeps the
 * holes of deleted head entries until it is rehashed. Here both are amortised O(1) per event for a
 * channel with f signature fields (at most 2^f distinct field masks are visited per lookup):
 *
 * - arrival order is an array with lazy deletion (an entry leaves when it reaches the head);
 * - a request whose known signature fields are the set M is filed, for each "shared set" Q ⊆ M a
 *   terminal has asked about, in a bucket keyed by its values on Q. A terminal with known fields T
 *   matches exactly the requests of mask M whose values on Q = M ∩ T equal its own (Q non-empty),
 *   so it reads one bucket per mask. Buckets of a (M, Q) pair are built the first time a terminal
 *   needs them (one pass over the live requests of mask M, which each mask keeps in arrival order),
 *   then kept up to date on every add and delete. A request is covered by at most 2^|M| such builds
 *   in its life, so a build is amortised O(1) per request too — never a pass over the whole pool,
 *   which stale requests of other masks would make O(open) per terminal.
 *
 * The constant 2^f is why a profile has at most MAX_SIGNATURE_FIELDS signature fields
 * (src/profiles/lang/spec.ts, docs/profiles.md).
 */

import { sigMatch } from './signature.js';

type Sig = readonly (string | null)[] | null;

/**
 * A pool with at most this many live entries answers `match` by a scan of its arrival order: most
 * scopes hold a call or two at a time, and building indexes for them costs more than the scan.
 */
const SCAN_BELOW = 16;

interface Entry<T> {
  seq: number;
  item: T;
  sig: Sig;
  mask: string;
  alive: boolean;
  /** Its values on its whole mask, computed once (the usual Q is the whole mask). */
  full?: string;
}

interface Bucket<T> {
  q: Entry<T>[];
  head: number;
  live: number;
}

/** The live requests of one mask, in arrival order (lazy deletion), and how many are live. */
interface MaskList<T> {
  live: number;
  list: Entry<T>[];
  head: number;
}

interface QIndex<T> {
  /** The positions of Q. */
  q: number[];
  buckets: Map<string, Bucket<T>>;
  /**
   * Buckets with no live entry. They stay in the Map until they outnumber the others: deleting and
   * re-adding one key of a large Map over and over lengthens its hash chain with holes until the
   * next rehash, which makes every lookup slow (measured: 60 000 such operations in a 20 000-key
   * Map took 2.2 s).
   */
  empty: number;
}

let lastSig: Sig = null;
let lastMask = '';
/** The known fields of a signature, as text (memoised for the last one: a request enters three pools). */
function maskOf(sig: Sig): string {
  if (!sig) return '';
  if (sig === lastSig) return lastMask;
  let m = '';
  for (let i = 0; i < sig.length; i++) if (sig[i] != null) m += m === '' ? String(i) : `,${i}`;
  lastSig = sig;
  lastMask = m;
  return m;
}

const POSITIONS = new Map<string, number[]>();
/** The positions of a mask (memoised: a channel has at most 2^f masks). */
function positions(mask: string): number[] {
  let p = POSITIONS.get(mask);
  if (!p) {
    p = mask.split(',').map(Number);
    if (POSITIONS.size < 4096) POSITIONS.set(mask, p);
  }
  return p;
}

/**
 * A signature's values on Q as one key: each value length-prefixed (so no value can fake a
 * separator), null as `-`. Built without an intermediate array: it runs for every event.
 */
function project(sig: Sig, q: readonly number[]): string {
  let k = '';
  for (let j = 0; j < q.length; j++) {
    const v = sig![q[j]!];
    k += v == null ? '-|' : `${v.length}:${v}|`;
  }
  return k;
}

interface Shared {
  q: number[];
  /** Q as text: the key of its index. */
  qk: string;
}
const SHARED = new Map<string, Shared>();
/** The fields a request mask and a terminal mask share (memoised: at most 4^f pairs per channel). */
function shared(mask: string, t: string): Shared {
  const key = `${mask}|${t}`;
  let s = SHARED.get(key);
  if (!s) {
    const tset = positions(t);
    const q = positions(mask).filter((i) => tset.includes(i));
    s = { q, qk: q.join(',') };
    if (SHARED.size < 4096) SHARED.set(key, s);
  }
  return s;
}

/** An entry's key in the index of Q (Q ⊆ its mask). */
function keyOf<T>(e: Entry<T>, q: readonly number[]): string {
  if (q.length === positions(e.mask).length) return (e.full ??= project(e.sig, q));
  return project(e.sig, q);
}

export class SigPool<T> {
  private order: Entry<T>[] = [];
  private head = 0;
  private readonly bySeq = new Map<number, Entry<T>>();
  /** Live entries per signature mask (non-empty masks only: an all-unknown signature matches nothing). */
  private readonly byMask = new Map<string, MaskList<T>>();
  /** Per request mask M: its indexes, by shared set Q. */
  private readonly indexes = new Map<string, Map<string, QIndex<T>>>();
  /**
   * Small: at most SCAN_BELOW entries, all live, in `order` alone (no Map, no mask, no index: most
   * pools hold a call or two, and every request passes through three or four pools). The pool
   * turns indexed when it grows past that, and small again once it is empty.
   */
  private small = true;

  get size(): number {
    return this.small ? this.order.length : this.bySeq.size;
  }

  /** Empty, with no index or stale entry left: reusable as a new pool. */
  isPristine(): boolean {
    return this.small ? this.order.length === 0 : this.bySeq.size === 0 && this.order.length === 0 && this.byMask.size === 0 && this.indexes.size === 0;
  }

  private smallAt(seq: number): number {
    const o = this.order;
    for (let i = 0; i < o.length; i++) if (o[i]!.seq === seq) return i;
    return -1;
  }

  get(seq: number): T | undefined {
    if (this.small) {
      const i = this.smallAt(seq);
      return i < 0 ? undefined : this.order[i]!.item;
    }
    return this.bySeq.get(seq)?.item;
  }

  has(seq: number): boolean {
    return this.small ? this.smallAt(seq) >= 0 : this.bySeq.has(seq);
  }

  add(seq: number, item: T, sig: Sig): void {
    if (this.small) {
      if (this.order.length < SCAN_BELOW) {
        this.order.push({ seq, item, sig, mask: '', alive: true });
        return;
      }
      this.promote();
    }
    const e: Entry<T> = { seq, item, sig, mask: maskOf(sig), alive: true };
    this.order.push(e);
    // Entries deleted behind a long-lived oldest one are dropped once they outnumber the live ones.
    if (this.order.length - this.head > 2 * this.bySeq.size + 64) this.compact();
    this.bySeq.set(seq, e);
    if (e.mask === '') return;
    let ml = this.byMask.get(e.mask);
    if (!ml) this.byMask.set(e.mask, (ml = { live: 0, list: [], head: 0 }));
    ml.live++;
    ml.list.push(e);
    if (ml.list.length - ml.head > 2 * ml.live + 64) {
      ml.list = ml.list.slice(ml.head).filter((x) => x.alive);
      ml.head = 0;
    }
    const idx = this.indexes.get(e.mask);
    if (idx) for (const x of idx.values()) file(x, e);
  }

  /** Small to indexed: the live entries get their masks and mask lists (no index exists yet). */
  private promote(): void {
    this.small = false;
    const live = this.order;
    this.order = [];
    this.head = 0;
    for (const e of live) {
      e.mask = maskOf(e.sig);
      this.order.push(e);
      this.bySeq.set(e.seq, e);
      if (e.mask === '') continue;
      let ml = this.byMask.get(e.mask);
      if (!ml) this.byMask.set(e.mask, (ml = { live: 0, list: [], head: 0 }));
      ml.live++;
      ml.list.push(e);
    }
  }

  delete(seq: number): boolean {
    if (this.small) {
      const i = this.smallAt(seq);
      if (i < 0) return false;
      this.order[i]!.alive = false;
      if (i === 0) this.order.shift();
      else this.order.splice(i, 1);
      return true;
    }
    const e = this.bySeq.get(seq);
    if (!e) return false;
    e.alive = false;
    this.bySeq.delete(seq);
    if (e.mask !== '') {
      const ml = this.byMask.get(e.mask)!;
      const m = --ml.live;
      if (m === 0) {
        this.byMask.delete(e.mask);
        // Nothing of this mask is open: its buckets hold only dead entries.
        this.indexes.delete(e.mask);
      } else {
        const idx = this.indexes.get(e.mask);
        if (idx) {
          for (const x of idx.values()) {
            const b = x.buckets.get(keyOf(e, x.q));
            if (b && --b.live === 0) {
              b.q = [];
              b.head = 0;
              if (++x.empty > 1024 && x.empty * 2 > x.buckets.size) sweep(x);
            }
          }
        }
      }
    }
    if (this.bySeq.size === 0) {
      this.order = [];
      this.head = 0;
      // Every mask left with its last entry, so no list or index is left: small again.
      this.small = true;
    }
    return true;
  }

  /** The oldest live item. */
  first(): T | undefined {
    const e = this.firstEntry();
    return e?.item;
  }

  /** Removes and returns the oldest live item. */
  shift(): T | undefined {
    const e = this.firstEntry();
    if (!e) return undefined;
    this.delete(e.seq);
    return e.item;
  }

  /** Live items, oldest first. */
  *values(): IterableIterator<T> {
    for (let i = this.head; i < this.order.length; i++) {
      const e = this.order[i]!;
      if (e.alive) yield e.item;
    }
  }

  /**
   * The oldest item whose signature matches `sig` (docs/design.md §5: every field known on both
   * sides equal, at least one known on both), and how many match.
   */
  match(sig: Sig): { first: T | null; count: number } {
    let best: Entry<T> | null = null;
    let count = 0;
    if (!sig) return { first: null, count };
    if (this.size <= SCAN_BELOW) {
      // The same answer as the indexes (docs/design.md §5: every field known on both sides equal,
      // at least one known on both), read off the few live entries.
      for (let i = this.head; i < this.order.length; i++) {
        const e = this.order[i]!;
        if (!e.alive || !sigMatch(sig, e.sig)) continue;
        count++;
        if (!best || e.seq < best.seq) best = e;
      }
      return { first: best ? best.item : null, count };
    }
    const t = maskOf(sig);
    if (t === '') return { first: null, count };
    for (const mask of this.byMask.keys()) {
      const { q, qk } = shared(mask, t);
      if (q.length === 0) continue;
      const x = this.index(mask, q, qk);
      const b = x.buckets.get(project(sig, q));
      if (!b) continue;
      count += b.live;
      const e = headOf(b);
      if (e && (!best || e.seq < best.seq)) best = e;
    }
    return { first: best ? best.item : null, count };
  }

  private index(mask: string, q: number[], qk: string): QIndex<T> {
    let byQ = this.indexes.get(mask);
    if (!byQ) this.indexes.set(mask, (byQ = new Map()));
    let x = byQ.get(qk);
    if (!x) {
      x = { q, buckets: new Map(), empty: 0 };
      // Built once for this (mask, Q), in arrival order (one pass over this mask's requests), then kept up to date.
      const ml = this.byMask.get(mask)!;
      for (let i = ml.head; i < ml.list.length; i++) {
        const e = ml.list[i]!;
        if (e.alive) file(x, e);
      }
      byQ.set(qk, x);
    }
    return x;
  }

  private compact(): void {
    const live: Entry<T>[] = [];
    for (let i = this.head; i < this.order.length; i++) if (this.order[i]!.alive) live.push(this.order[i]!);
    this.order = live;
    this.head = 0;
  }

  private firstEntry(): Entry<T> | undefined {
    if (this.small) return this.order[0];
    while (this.head < this.order.length) {
      const e = this.order[this.head]!;
      if (e.alive) return e;
      this.head++;
      if (this.head > 64 && this.head * 2 > this.order.length) {
        this.order = this.order.slice(this.head);
        this.head = 0;
      }
    }
    return undefined;
  }
}

function file<T>(x: QIndex<T>, e: Entry<T>): void {
  const key = keyOf(e, x.q);
  let b = x.buckets.get(key);
  if (!b) x.buckets.set(key, (b = { q: [], head: 0, live: 0 }));
  else if (b.live === 0) x.empty--;
  b.q.push(e);
  b.live++;
  if (b.q.length - b.head > 2 * b.live + 64) {
    b.q = b.q.slice(b.head).filter((x) => x.alive);
    b.head = 0;
  }
}

/** Drops the empty buckets: a fresh Map, so no hash chain keeps the holes of deleted keys. */
function sweep<T>(x: QIndex<T>): void {
  const kept = new Map<string, Bucket<T>>();
  for (const [k, b] of x.buckets) if (b.live > 0) kept.set(k, b);
  x.buckets = kept;
  x.empty = 0;
}

function headOf<T>(b: Bucket<T>): Entry<T> | undefined {
  while (b.head < b.q.length) {
    const e = b.q[b.head]!;
    if (e.alive) return e;
    b.head++;
    if (b.head > 64 && b.head * 2 > b.q.length) {
      b.q = b.q.slice(b.head);
      b.head = 0;
    }
  }
  return undefined;
}
