/**
 * The engine's own state: counters, open requests per scope, per-channel bookkeeping. Lives only
 * inside src/engine/; everything outside reads the plain-data snapshot (src/model/snapshot.ts).
 */
import type { CallEvent, ChannelSpec, Loc } from '../model.js';
import { zeroCounts, type CountersSnapshot } from '../model/snapshot.js';
import { LatencyHistogram } from '../stats/histogram.js';
import { SigPool } from './pool.js';
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
  // Written out, not `{ latency, ...plain } = c` (a rest copy with excluded keys is a slow runtime
  // call, and it runs for every scope of the report); the key order is the spread's.
  const m = c.byMethod;
  const k = c.byConfidence;
  return {
    requests: c.requests,
    terminals: c.terminals,
    interims: c.interims,
    unattributedInterims: c.unattributedInterims,
    redundant: c.redundant,
    pairs: c.pairs,
    orphanRequests: c.orphanRequests,
    evicted: c.evicted,
    orphanResponses: c.orphanResponses,
    duplicateTerminals: c.duplicateTerminals,
    duplicateIds: c.duplicateIds,
    crossedComparable: c.crossedComparable,
    crossedFifo: c.crossedFifo,
    crossedSignature: c.crossedSignature,
    requestsWithId: c.requestsWithId,
    terminalsWithId: c.terminalsWithId,
    maxInFlight: c.maxInFlight,
    negativeLatencies: c.negativeLatencies,
    zeroLatencies: c.zeroLatencies,
    byMethod: { id: m.id, signature: m.signature, fifo: m.fifo, record: m.record },
    byConfidence: { exact: k.exact, unambiguous: k.unambiguous, ambiguous: k.ambiguous },
    latency: c.latency.stats(),
  };
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

/** Holds nothing at all, not even an index or a stale entry: as good as a new one. */
export function isEmptyOpenSet(o: OpenSet): boolean {
  return o.byId.size === 0 && o.all.isPristine() && o.noId.isPristine() && o.fifo.isPristine() && o.sigShadow.isPristine();
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
  /** Recently closed (scope, id) keys (DUPLICATE_TERMINAL): a bounded window, src/engine/recent.ts. */
  closed: RecentKeys;
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
 * stale entries outnumber live ones, so it holds at most about twice the open requests.
 */
export class OpenQueue {
  // Two arrays, not an object per entry: every request passes through here.
  private reqs: Array<OpenReq | undefined> = [];
  private scs: Array<ScopeState | undefined> = [];
  private head = 0;

  get length(): number {
    return this.reqs.length - this.head;
  }

  push(req: OpenReq, sc: ScopeState, open: number): void {
    this.reqs.push(req);
    this.scs.push(sc);
    if (this.length > 2 * open + 64) this.compact();
  }

  /** Removes and returns the oldest entry still open, or null. */
  shiftLive(): { req: OpenReq; sc: ScopeState } | null {
    while (this.head < this.reqs.length) {
      const req = this.reqs[this.head];
      const sc = this.scs[this.head];
      this.reqs[this.head] = undefined;
      this.scs[this.head++] = undefined;
      if (this.head > 64 && this.head * 2 > this.reqs.length) {
        this.reqs = this.reqs.slice(this.head);
        this.scs = this.scs.slice(this.head);
        this.head = 0;
      }
      if (req && sc && isOpen(req, sc)) return { req, sc };
    }
    return null;
  }

  private compact(): void {
    const reqs: OpenReq[] = [];
    const scs: ScopeState[] = [];
    for (let i = this.head; i < this.reqs.length; i++) {
      const req = this.reqs[i];
      const sc = this.scs[i];
      if (req && sc && isOpen(req, sc)) {
        reqs.push(req);
        scs.push(sc);
      }
    }
    this.reqs = reqs;
    this.scs = scs;
    this.head = 0;
  }
}

function isOpen(req: OpenReq, sc: ScopeState): boolean {
  return sc.open?.all.get(req.seq) === req;
}
