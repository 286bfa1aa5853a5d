/**
 * The engine's own state: counters, open requests per scope, per-channel bookkeeping. Lives only
 * inside src/engine/; everything outside reads the plain-data snapshot (src/model/snapshot.ts).
 */
import type { CallEvent, ChannelSpec } from '../model.js';
import { zeroCounts, type CountersSnapshot } from '../model/snapshot.js';
import { LatencyHistogram } from '../stats/histogram.js';
import { overfull, SigPool, type PoolEntry } from './pool.js';
import type { RecentKeys } from './recent.js';

/** Counters of one channel or one scope. */
export type Counters = Omit<CountersSnapshot, 'latency'> & { latency: LatencyHistogram };

export function newCounters(): Counters {
  // Not a spread of zeroCounts(): a spread gave every scope's counters a shape of its own (about
  // 500 bytes a scope); one added property leads every scope to the same shape.
  const c = zeroCounts() as Counters;
  c.latency = new LatencyHistogram();
  return c;
}

export function countersSnapshot(c: Counters): CountersSnapshot {
  // A spread (V8 clones the shape; not a rest copy with excluded keys, a slow runtime call that
  // would run for every scope of the report): the counts are those of zeroCounts() (src/model/snapshot.ts),
  // their one list. The nested counts are copied too, so a snapshot shares nothing with live counters.
  return { ...c, byMethod: { ...c.byMethod }, byConfidence: { ...c.byConfidence }, latency: c.latency.stats() };
}

/**
 * An open request: one object in every pool it is in (src/engine/pool.ts), the FIFO and
 * signature-FIFO shadows included, each pool owning one bit of `live`.
 */
export interface OpenReq extends PoolEntry {
  readonly ev: CallEvent;
  interims: number;
  /** Its scope (eviction takes the channel's oldest request, wherever it is). */
  readonly sc: ScopeState;
}

/** A shadow's copy of a request is the request itself, live in the shadow's pool until the shadow takes it. */
export type ShadowReq = OpenReq;

/** The bit of `OpenReq.live` each pool of an open set owns. */
export const IN_ALL = 1;
export const IN_NO_ID = 2;
export const IN_FIFO = 4;
export const IN_SIG_SHADOW = 8;

/**
 * The open requests of one scope, in order; dropped when empty so idle scopes stay small. The pools
 * answer "oldest" and "oldest with this signature" in amortised O(1) (src/engine/pool.ts).
 */
export interface OpenSet {
  all: SigPool<OpenReq>;
  noId: SigPool<OpenReq>;
  /**
   * The open requests with an id: the request, or the requests oldest first when the id is open more
   * than once. Only while `all` is large: a small `all` (a few requests, src/engine/pool.ts) is
   * scanned instead — most scopes hold a call or two, and a Map that fills and empties on every
   * call costs more (it is resized as it empties). Null otherwise; made from `all` the first time a
   * large `all` needs it, then kept up to date until `all` is empty (it is the requests of `all`
   * with an id, so it can always be made again from them).
   */
  byId: Map<string, OpenReq | IdList> | null;
  fifo: SigPool<ShadowReq>;
  sigShadow: SigPool<ShadowReq>;
}

export function newOpenSet(): OpenSet {
  return { all: new SigPool(IN_ALL), noId: new SigPool(IN_NO_ID), byId: null, fifo: new SigPool(IN_FIFO), sigShadow: new SigPool(IN_SIG_SHADOW) };
}

/**
 * The requests open under one id, oldest first, when there are several. A request that closes
 * stays in `items` until it reaches the head or the dead outnumber the living (then the list is
 * compacted): closing is O(1) amortised, however many requests share the id (a client that sends
 * every call with `id: 1` holds them all here). Dead means out of `all` (its IN_ALL bit is clear):
 * the engine takes a request out of `all` before it leaves this list.
 */
export class IdList {
  private items: OpenReq[];
  private head = 0;
  /** Requests in `items` still open. */
  size: number;

  constructor(a: OpenReq, b: OpenReq) {
    this.items = [a, b];
    this.size = 2;
  }

  /** The oldest open request (the list is never empty: it leaves the index when its last one closes). */
  first(): OpenReq {
    return this.items[this.head]!;
  }

  push(r: OpenReq): void {
    this.items.push(r);
    this.size++;
  }

  /** The open requests, oldest first. */
  *values(): Generator<OpenReq> {
    const items = this.items;
    for (let i = this.head; i < items.length; i++) if ((items[i]!.live & IN_ALL) !== 0) yield items[i]!;
  }

  /** One of its requests (already out of `all`) has closed. */
  closed(): void {
    this.size--;
    const items = this.items;
    while (this.head < items.length && (items[this.head]!.live & IN_ALL) === 0) items[this.head++] = undefined as never;
    const dead = items.length - this.head - this.size;
    if (this.head > 32 && this.head * 2 > items.length) {
      this.items = items.slice(this.head);
      this.head = 0;
    } else if (dead > 32 && dead > this.size) {
      this.items = [...this.values()];
      this.head = 0;
    }
  }
}

/** The id index of a large `all` (made from its live requests, oldest first, when first needed). */
export function idIndex(open: OpenSet): Map<string, OpenReq | IdList> {
  let m = open.byId;
  if (m === null) {
    m = open.byId = new Map();
    for (const r of open.all.values()) if (r.ev.id !== null) fileId(m, r.ev.id, r);
  }
  return m;
}

function fileId(m: Map<string, OpenReq | IdList>, id: string, req: OpenReq): OpenReq | undefined {
  const held = m.get(id);
  if (held === undefined) {
    m.set(id, req);
    return undefined;
  }
  if (held instanceof IdList) {
    const first = held.first();
    held.push(req);
    return first;
  }
  m.set(id, new IdList(held, req));
  return held;
}

/** The oldest open request with this id. */
export function firstWithId(open: OpenSet, id: string): OpenReq | undefined {
  const small = open.all.smallEntries();
  if (small !== null) {
    for (let i = 0; i < small.length; i++) if (small[i]!.ev.id === id) return small[i];
    return undefined;
  }
  const held = idIndex(open).get(id);
  return held instanceof IdList ? held.first() : held;
}

/**
 * Files an open request under its id, before it joins `all`; returns the oldest request already
 * open with it, if any.
 */
export function addWithId(open: OpenSet, id: string, req: OpenReq): OpenReq | undefined {
  // A small `all` holds no index: the scan finds the oldest (an index, if `all` grows, is made from it).
  if (open.all.smallEntries() !== null) return firstWithId(open, id);
  return fileId(idIndex(open), id, req);
}

/**
 * After the request left `all`: it leaves its id's entry (most ids are open once; several: IdList,
 * no search), and an `all` small again (it empties first) keeps no index.
 */
export function removeWithId(open: OpenSet, req: OpenReq): void {
  const m = open.byId;
  if (m === null) return;
  if (open.all.smallEntries() !== null) {
    open.byId = null;
    return;
  }
  const id = req.ev.id;
  if (id === null) return;
  const held = m.get(id);
  if (held === req) m.delete(id);
  else if (held instanceof IdList) {
    held.closed();
    if (held.size === 0) m.delete(id);
  }
}

/** Holds nothing at all, not even an index or a stale entry: as good as a new one. */
export function isEmptyOpenSet(o: OpenSet): boolean {
  return o.byId === null && o.all.isPristine() && o.noId.isPristine() && o.fifo.isPristine() && o.sigShadow.isPristine();
}

export interface ScopeState {
  scope: string;
  counters: Counters;
  open: OpenSet | null;
  lastTime: number | null;
  /** Its place in the channel's idle queue (0: not queued); see `ChannelState.idle`. */
  idleStamp: number;
}

/** One latency group: its label parts and its histogram. */
export interface LatencyGroupState {
  label: [string | null, string | null];
  hist: LatencyHistogram;
}

/** Per channel: its scopes, counters, and per-group latency. */
export interface ChannelState {
  spec: ChannelSpec;
  /**
   * The shadows are kept: something reads them (a shadow listener, or crossed pairs on a channel
   * whose terminal order is evidence). Otherwise no request enters the shadow pools.
   */
  shadows: boolean;
  counters: Counters;
  scopes: Map<string, ScopeState>;
  /** Latency per (provider, model) or per tool: key → histogram; label parts kept beside. */
  groups: Map<string, LatencyGroupState>;
  /** The group the last latency went to, by its two labels (groups are never dropped). */
  lastGroup: { a: string | null; b: string | null; group: LatencyGroupState } | null;
  openTotal: number;
  /** Open requests of the channel in arrival order, so eviction takes the channel's oldest. */
  openQueue: OpenQueue;
  /** Recently closed (scope, id) keys (DUPLICATE_TERMINAL): a bounded window, src/engine/recent.ts. */
  closed: RecentKeys;
  /**
   * Recently evicted (scope, id) keys (made at the first eviction, bounded like `closed`): a terminal
   * for one is an orphan response with reason `id-evicted`, not `id-not-open`.
   */
  evicted: RecentKeys | null;
  /** Orphan responses `id-not-open` read after `closed` or `evicted` forgot an id (ChannelSnapshot.unsureOrphans). */
  unsureOrphans: number;
  /** Requests a profile could not check for a repeated id (ChannelSnapshot.unsureRepeats). */
  unsureRepeats: number;
  /**
   * Scopes with no open request, in the order they became idle: the ones folded first when the
   * channel holds more scopes than its cap (docs/design.md §8). An entry is stale when its stamp is
   * no longer the scope's; stale entries leave at the head or when the queue is compacted.
   */
  idle: ScopeState[];
  /** The stamp of each entry of `idle` (two arrays: no object per entry). */
  idleStamps: number[];
  idleHead: number;
  /** Scopes folded into the channel's totals: their counters live on only there. */
  folded: number;
}

/**
 * The arrival order of a channel's open requests: a queue with lazy deletion (a closed request
 * stays until it reaches the head or the queue is compacted), so push and evict are amortised O(1)
 * — a Map used as a queue would rescan its deleted head entries on every eviction. Compacted when
 * it holds a quarter more entries than open requests (a closed request it still holds keeps its
 * event alive): at most 1.25× the open requests, each compaction paid by the open/4 pushes or
 * closes before it.
 */
export class OpenQueue {
  private reqs: Array<OpenReq | undefined> = [];
  private head = 0;

  get length(): number {
    return this.reqs.length - this.head;
  }

  push(req: OpenReq, open: number): void {
    this.reqs.push(req);
    if (overfull(this.length, open)) this.compact();
  }

  /** A request closed (`open` are left): the queue is compacted once it is `overfull`. */
  closed(open: number): void {
    if (overfull(this.length, open)) this.compact();
  }

  /** Removes and returns the oldest entry still open, or null. */
  shiftLive(): OpenReq | null {
    while (this.head < this.reqs.length) {
      const req = this.reqs[this.head];
      this.reqs[this.head++] = undefined;
      if (this.head > 64 && this.head * 2 > this.reqs.length) {
        this.reqs = this.reqs.slice(this.head);
        this.head = 0;
      }
      if (req && isOpen(req)) return req;
    }
    return null;
  }

  private compact(): void {
    const reqs: OpenReq[] = [];
    for (let i = this.head; i < this.reqs.length; i++) {
      const req = this.reqs[i];
      if (req && isOpen(req)) reqs.push(req);
    }
    this.reqs = reqs;
    this.head = 0;
  }
}

/** Still open: live in its scope's pool of open requests (every request is, from its arrival until it closes). */
function isOpen(req: OpenReq): boolean {
  return (req.live & IN_ALL) !== 0;
}
