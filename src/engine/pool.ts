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
 * - arrival order is an array with lazy deletion (an entry leaves when it reaches the head, or when
 *   the dead ones are a quarter of the live ones, `overfull`: every list here is compacted then, on
 *   add and on delete, so what a pool holds is bounded by its open requests, never by the calls that
 *   came and went);
 * - a request whose known signature fields are the set M is filed, for each "shared set" Q ⊆ M a
 *   terminal has asked about, in a bucket keyed by its values on Q. A terminal with known fields T
 *   matches exactly the requests of mask M whose values on Q = M ∩ T equal its own (Q non-empty),
 *   so it reads one bucket per mask. Buckets of a (M, Q) pair are built the first time a terminal
 *   needs them (one pass over the live requests of mask M, which each mask keeps in arrival order),
 *   then kept up to date on every add and delete. A request is covered by at most 2^|M| such builds
 *   in its life, so a build is amortised O(1) per request too — never a pass over the whole pool,
 *   which stale requests of other masks would make O(open) per terminal.
 * - the mask lists themselves are made only when a signature lookup first needs them (one pass over
 *   the pool's live requests; the pool then keeps them until it is empty again). A pool no terminal
 *   asks by signature — the requests a terminal takes by id, the FIFO shadow — is an arrival-ordered
 *   array and a count, nothing more.
 *
 * Entries are shared: one object per request sits in every pool it belongs to (the engine's four,
 * src/engine/state.ts), each pool owning one bit of its `live` field, so a request's mask and its
 * whole-mask key are computed once, and a pool deletes by reference (no lookup by number).
 *
 * The constant 2^f is why a profile has at most MAX_SIGNATURE_FIELDS signature fields
 * (src/profiles/lang/spec.ts, docs/profiles.md).
 */

import { sigMatch } from './signature.js';

type Sig = readonly (string | null)[] | null;

/** What a pool holds: one object per request, shared by every pool it is in. */
export interface PoolEntry {
  /** Arrival number: entries are added in increasing order. */
  readonly seq: number;
  readonly sig: Sig;
  /** One bit per pool (the pool's `bit`): set while the entry is live there. */
  live: number;
  /** The known fields of `sig` as text (`0,2`; '' for none), made when a pool first indexes the entry. */
  mask: string | undefined;
  /** Its values on its whole mask, made once (the usual Q is the whole mask). */
  full: string | undefined;
}

/**
 * A pool with at most this many live entries answers `match` by a scan of its arrival order: most
 * scopes hold a call or two at a time, and building indexes for them costs more than the scan.
 */
const SCAN_BELOW = 16;

interface Bucket<T> {
  q: T[];
  head: number;
  live: number;
}

/** The live requests of one mask, in arrival order (lazy deletion), and how many are live. */
interface MaskList<T> {
  live: number;
  list: T[];
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

/** The known fields of a signature, as text. */
function maskText(sig: Sig): string {
  if (!sig) return '';
  let m = '';
  for (let i = 0; i < sig.length; i++) if (sig[i] != null) m += m === '' ? String(i) : `,${i}`;
  return m;
}

let lastSig: Sig = null;
let lastMask = '';
/** A terminal's mask (memoised for the last one: a terminal asks the shadow and the cascade). */
function termMask(sig: Sig): string {
  if (sig === lastSig) return lastMask;
  lastMask = maskText(sig);
  lastSig = sig;
  return lastMask;
}

function maskOf(e: PoolEntry): string {
  return (e.mask ??= maskText(e.sig));
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
function keyOf(e: PoolEntry, q: readonly number[]): string {
  if (q.length === positions(e.mask!).length) return (e.full ??= project(e.sig, q));
  return project(e.sig, q);
}

export class SigPool<T extends PoolEntry> {
  private order: T[] = [];
  private head = 0;
  private count = 0;
  /** Live entries per signature mask (non-empty masks only: an all-unknown signature matches nothing). */
  private readonly byMask = new Map<string, MaskList<T>>();
  /** Per request mask M: its indexes, by shared set Q. */
  private readonly indexes = new Map<string, Map<string, QIndex<T>>>();
  /**
   * Small: at most SCAN_BELOW entries, all live, in `order` alone (most pools hold a call or two).
   * Past that the order is lazily deleted; and once a lookup by signature needs them (`indexed`),
   * the pool keeps mask lists and indexes. Empty, it is small again.
   */
  private small = true;
  private indexed = false;
  /** How many entries the last `match` found. */
  matched = 0;

  /** `bit`: the bit of `PoolEntry.live` this pool owns (one per pool an entry can be in at once). */
  constructor(private readonly bit: number = 1) {}

  get size(): number {
    return this.count;
  }

  /** Empty, with no index or stale entry left: reusable as a new pool. */
  isPristine(): boolean {
    return this.count === 0 && this.small && this.order.length === 0;
  }

  /**
   * While the pool is small, its live entries in arrival order (the array itself: read, never
   * change it); null once it is large.
   */
  smallEntries(): readonly T[] | null {
    return this.small ? this.order : null;
  }

  /** The entry is live in this pool. */
  has(e: T): boolean {
    return (e.live & this.bit) !== 0;
  }

  add(e: T): void {
    e.live |= this.bit;
    this.count++;
    if (this.small) {
      if (this.order.length < SCAN_BELOW) {
        this.order.push(e);
        return;
      }
      // Small to large: every entry of `order` is live, so it is the arrival order as it stands.
      this.small = false;
    }
    this.order.push(e);
    // Entries deleted behind a long-lived oldest one are dropped once they are a quarter of the live ones.
    if (overfull(this.order.length - this.head, this.count)) this.compact();
    if (this.indexed) this.fileMask(e, true);
  }

  /** Files a live entry in its mask's list, and with `indexes`, in the indexes that mask has. */
  private fileMask(e: T, indexes: boolean): void {
    const mask = maskOf(e);
    if (mask === '') return;
    let ml = this.byMask.get(mask);
    if (!ml) this.byMask.set(mask, (ml = { live: 0, list: [], head: 0 }));
    ml.live++;
    ml.list.push(e);
    if (overfull(ml.list.length - ml.head, ml.live)) {
      const bit = this.bit;
      ml.list = ml.list.slice(ml.head).filter((x) => (x.live & bit) !== 0);
      ml.head = 0;
    }
    if (!indexes) return;
    const idx = this.indexes.get(mask);
    if (idx) for (const x of idx.values()) file(x, e, this.bit);
  }

  /** The first lookup by signature of a large pool: the live entries get their mask lists (no index exists yet). */
  private buildMasks(): void {
    this.indexed = true;
    const o = this.order;
    for (let i = this.head; i < o.length; i++) {
      const e = o[i]!;
      if ((e.live & this.bit) !== 0) this.fileMask(e, false);
    }
  }

  delete(e: T): boolean {
    const bit = this.bit;
    if ((e.live & bit) === 0) return false;
    e.live &= ~bit;
    this.count--;
    if (this.small) {
      const o = this.order;
      if (o[0] === e) o.shift();
      else o.splice(o.indexOf(e), 1);
      return true;
    }
    if (this.indexed && e.mask !== '') {
      const mask = e.mask!;
      const ml = this.byMask.get(mask)!;
      const m = --ml.live;
      if (m === 0) {
        this.byMask.delete(mask);
        // Nothing of this mask is open: its buckets hold only dead entries.
        this.indexes.delete(mask);
      } else {
        if (overfull(ml.list.length - ml.head, m)) {
          ml.list = ml.list.slice(ml.head).filter((x) => (x.live & bit) !== 0);
          ml.head = 0;
        }
        const idx = this.indexes.get(mask);
        if (idx) {
          for (const x of idx.values()) {
            const b = x.buckets.get(keyOf(e, x.q));
            if (!b) continue;
            if (--b.live === 0) {
              b.q = [];
              b.head = 0;
              if (++x.empty > 1024 && x.empty * 2 > x.buckets.size) sweep(x);
            } else if (overfull(b.q.length - b.head, b.live)) {
              b.q = b.q.slice(b.head).filter((y) => (y.live & bit) !== 0);
              b.head = 0;
            }
          }
        }
      }
    }
    if (this.count === 0) {
      this.order = [];
      this.head = 0;
      // Every mask left with its last entry, so no list or index is left: small again.
      this.small = true;
      this.indexed = false;
    } else if (overfull(this.order.length - this.head, this.count)) {
      // Closed requests are dropped once they are a quarter of the open ones, adds or not: a run of
      // terminals keeps no closed call alive (amortised O(1): a pass over L entries follows L/5 deletions).
      this.compact();
    }
    return true;
  }

  /** The oldest live item. */
  first(): T | undefined {
    return this.firstEntry();
  }

  /** Removes and returns the oldest live item. */
  shift(): T | undefined {
    const e = this.firstEntry();
    if (!e) return undefined;
    this.delete(e);
    return e;
  }

  /** Live items, oldest first. */
  *values(): IterableIterator<T> {
    for (let i = this.head; i < this.order.length; i++) {
      const e = this.order[i]!;
      if ((e.live & this.bit) !== 0) yield e;
    }
  }

  /**
   * The oldest item whose signature matches `sig` (docs/design.md §5: every field known on both
   * sides equal, at least one known on both), or null; `matched` is then how many match.
   */
  match(sig: Sig): T | null {
    let best: T | null = null;
    let count = 0;
    this.matched = 0;
    if (!sig || this.count === 0) return null;
    if (this.count <= SCAN_BELOW) {
      // The same answer as the indexes (docs/design.md §5: every field known on both sides equal,
      // at least one known on both), read off the few live entries.
      const o = this.order;
      for (let i = this.head; i < o.length; i++) {
        const e = o[i]!;
        if ((e.live & this.bit) === 0 || !sigMatch(sig, e.sig)) continue;
        count++;
        if (!best || e.seq < best.seq) best = e;
      }
      this.matched = count;
      return best;
    }
    const t = termMask(sig);
    if (t === '') return null;
    if (!this.indexed) this.buildMasks();
    for (const mask of this.byMask.keys()) {
      const { q, qk } = shared(mask, t);
      if (q.length === 0) continue;
      const x = this.index(mask, q, qk);
      const b = x.buckets.get(project(sig, q));
      if (!b) continue;
      count += b.live;
      const e = headOf(b, this.bit);
      if (e && (!best || e.seq < best.seq)) best = e;
    }
    this.matched = count;
    return best;
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
        if ((e.live & this.bit) !== 0) file(x, e, this.bit);
      }
      byQ.set(qk, x);
    }
    return x;
  }

  private compact(): void {
    const live: T[] = [];
    const o = this.order;
    for (let i = this.head; i < o.length; i++) if ((o[i]!.live & this.bit) !== 0) live.push(o[i]!);
    this.order = live;
    this.head = 0;
  }

  private firstEntry(): T | undefined {
    if (this.small) return this.order[0];
    while (this.head < this.order.length) {
      const e = this.order[this.head]!;
      if ((e.live & this.bit) !== 0) return e;
      this.head++;
      if (this.head > 64 && this.head * 2 > this.order.length) {
        this.order = this.order.slice(this.head);
        this.head = 0;
      }
    }
    return undefined;
  }
}

/**
 * A list of `length` entries, `live` of them open, holds too many dead ones: compacted once they are
 * a quarter of the live ones (plus a constant). The pass over the list is paid by the live/4 adds
 * or deletes before it; a closed request a list still holds keeps its event alive, so the bound is
 * memory (docs/performance.md, "Memory").
 */
export function overfull(length: number, live: number): boolean {
  return length > live + (live >> 2) + 64;
}

function file<T extends PoolEntry>(x: QIndex<T>, e: T, bit: number): void {
  const key = keyOf(e, x.q);
  let b = x.buckets.get(key);
  if (!b) x.buckets.set(key, (b = { q: [], head: 0, live: 0 }));
  else if (b.live === 0) x.empty--;
  b.q.push(e);
  b.live++;
  if (overfull(b.q.length - b.head, b.live)) {
    b.q = b.q.slice(b.head).filter((y) => (y.live & bit) !== 0);
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

function headOf<T extends PoolEntry>(b: Bucket<T>, bit: number): T | undefined {
  while (b.head < b.q.length) {
    const e = b.q[b.head]!;
    if ((e.live & bit) !== 0) return e;
    b.head++;
    if (b.head > 64 && b.head * 2 > b.q.length) {
      b.q = b.q.slice(b.head);
      b.head = 0;
    }
  }
  return undefined;
}
