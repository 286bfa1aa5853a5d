/**
 * The engine's own state: counters, open requests per scope, per-channel bookkeeping. Lives only
 * inside src/engine/; everything outside reads the plain-data snapshot (src/model/snapshot.ts).
 */
import type { CallEvent, ChannelSpec, Loc } from '../model.js';
import type { CountersSnapshot } from '../model/snapshot.js';
import { LatencyHistogram } from '../stats/histogram.js';

/** Counters of one channel or one scope. */
export type Counters = Omit<CountersSnapshot, 'latency'> & { latency: LatencyHistogram };

export function newCounters(): Counters {
  return {
    requests: 0,
    terminals: 0,
    interims: 0,
    unattributedInterims: 0,
    redundant: 0,
    pairs: 0,
    byMethod: { id: 0, signature: 0, fifo: 0, record: 0 },
    byConfidence: { exact: 0, unambiguous: 0, ambiguous: 0 },
    orphanRequests: 0,
    evicted: 0,
    orphanResponses: 0,
    duplicateTerminals: 0,
    duplicateIds: 0,
    crossedComparable: 0,
    crossedFifo: 0,
    crossedSignature: 0,
    requestsWithId: 0,
    terminalsWithId: 0,
    maxInFlight: 0,
    negativeLatencies: 0,
    latency: new LatencyHistogram(),
  };
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

/** The open requests of one scope, in order; dropped when empty so idle scopes stay small. */
export interface OpenSet {
  all: Map<number, OpenReq>;
  noId: Map<number, OpenReq>;
  byId: Map<string, OpenReq[]>;
  fifo: Map<number, ShadowReq>;
  sigShadow: Map<number, ShadowReq>;
}

export interface ScopeState {
  scope: string;
  counters: Counters;
  open: OpenSet | null;
  lastTime: number | null;
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
