/**
 * The engine's own state: counters, open requests per scope, per-channel bookkeeping. Lives only
 * inside src/engine/; everything outside reads the plain-data snapshot (src/model/snapshot.ts).
 */
import type { CallEvent, ChannelSpec, Loc } from '../model.js';
import { zeroCounts, type CountersSnapshot } from '../model/snapshot.js';
import { LatencyHistogram } from '../stats/histogram.js';
import { SigPool } from './pool.js';

/** Counters of one channel or one scope. */
export type Counters = Omit<CountersSnapshot, 'latency'> & { latency: LatencyHistogram };

export function newCounters(): Counters {
  return { ...zeroCounts(), latency: new LatencyHistogram() };
}

export function countersSnapshot(c: Counters): CountersSnapshot {
  const { latency, byMethod, byConfidence, ...plain } = c;
  return { ...plain, byMethod: { ...byMethod }, byConfidence: { ...byConfidence }, latency: latency.stats() };
}

export interface OpenReq {
  seq: number;
  ev: CallEvent;
  interims: number;
}

export interface ShadowReq {
  seq: number;
  sig: readonly (string | null)[] | null;
  loc: Loc;
  caller: string;
  ev: CallEvent;
}

/**
 * The open requests of one scope, in order; dropped when empty so idle scopes stay small. The pools
 * answer "oldest" and "oldest with this signature" in amortised O(1) (src/engine/pool.ts).
 */
export interface OpenSet {
  all: SigPool<OpenReq>;
  noId: SigPool<OpenReq>;
  byId: Map<string, OpenReq[]>;
  fifo: SigPool<ShadowReq>;
  sigShadow: SigPool<ShadowReq>;
}

export function newOpenSet(): OpenSet {
  return { all: new SigPool(), noId: new SigPool(), byId: new Map(), fifo: new SigPool(), sigShadow: new SigPool() };
}

export interface ScopeState {
  scope: string;
  counters: Counters;
  open: OpenSet | null;
  lastTime: number | null;
  /** Its place in the channel's idle queue (0: not queued); see `ChannelState.idle`. */
  idleStamp: number;
}

/** Per channel: its scopes, counters, and per-group latency. */
export interface ChannelState {
  spec: ChannelSpec;
  counters: Counters;
  scopes: Map<string, ScopeState>;
  /** Latency per (provider, model) or per tool: key → histogram; label parts kept beside. */
  groups: Map<string, { label: [string | null, string | null]; hist: LatencyHistogram }>;
  openTotal: number;
  /** Open requests of the channel in arrival order, so eviction takes the channel's oldest. */
  openQueue: OpenQueue;
  closed: Map<string, true>;
  /**
   * Scopes with no open request, in the order they became idle: the ones folded first when the
   * channel holds more scopes than its cap (docs/design.md §8). An entry is stale when its stamp is
   * no longer the scope's; stale entries leave at the head or when the queue is compacted.
   */
  idle: Array<{ sc: ScopeState; stamp: number }>;
  idleHead: number;
  /** Scopes folded into the channel's totals: their counters live on only there. */
  folded: number;
}

/**
 * The arrival order of a channel's open requests: a queue with lazy deletion (a closed request
 * stays until it reaches the head or the queue is compacted), so push and evict are amortised O(1)
 * — a Map used as a queue would rescan its deleted head entries on every eviction. Compacted when
 * stale entries outnumber live ones, so it holds at most about twice the open requests.
 */
export class OpenQueue {
  private items: Array<{ req: OpenReq; sc: ScopeState } | undefined> = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(req: OpenReq, sc: ScopeState, open: number): void {
    this.items.push({ req, sc });
    if (this.length > 2 * open + 1024) this.compact();
  }

  /** Removes and returns the oldest entry still open, or null. */
  shiftLive(): { req: OpenReq; sc: ScopeState } | null {
    while (this.head < this.items.length) {
      const it = this.items[this.head];
      this.items[this.head++] = undefined;
      if (this.head > 4096 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      if (it && isOpen(it)) return it;
    }
    return null;
  }

  private compact(): void {
    const live: Array<{ req: OpenReq; sc: ScopeState }> = [];
    for (let i = this.head; i < this.items.length; i++) {
      const it = this.items[i];
      if (it && isOpen(it)) live.push(it);
    }
    this.items = live;
    this.head = 0;
  }
}

function isOpen(it: { req: OpenReq; sc: ScopeState }): boolean {
  return it.sc.open?.all.get(it.req.seq) === it.req;
}
