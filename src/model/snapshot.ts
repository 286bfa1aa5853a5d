/**
 * What the engine hands out at the end of the pass: plain data, no engine classes. The report,
 * the timeline and compare read this snapshot (`PairingEngine.snapshot()`), never the engine's state.
 */
import type { ChannelSpec, Confidence, Loc, Method } from '../model.js';

/** Latency summary of one histogram (ms, rounded to µs); null where there is no latency. */
export interface LatencyStats {
  count: number;
  min: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number;
  minAt: Loc | null;
  maxAt: Loc | null;
}

/**
 * A latency histogram as plain data (src/stats/histogram.ts): `values` (ascending, while there are
 * at most 32), else `buckets` as [index, count, smallest value]; min and max raw, with locations.
 * Two sketches merge into the sketch of one histogram fed both streams (src/merge/sketch.ts).
 */
export interface LatencySketch {
  count: number;
  min: number;
  max: number;
  minAt: Loc | null;
  maxAt: Loc | null;
  values?: number[];
  buckets?: Array<[number, number, number]>;
}

/** The counters of one channel or one scope. */
export interface CountersSnapshot {
  requests: number;
  terminals: number;
  interims: number;
  unattributedInterims: number;
  redundant: number;
  pairs: number;
  byMethod: Record<Method, number>;
  byConfidence: Record<Confidence, number>;
  orphanRequests: number;
  evicted: number;
  orphanResponses: number;
  duplicateTerminals: number;
  duplicateIds: number;
  crossedComparable: number;
  crossedFifo: number;
  crossedSignature: number;
  requestsWithId: number;
  terminalsWithId: number;
  maxInFlight: number;
  negativeLatencies: number;
  /** Pairs whose request and terminal have equal times: latency 0 at the capture's time resolution. */
  zeroLatencies: number;
  latency: LatencyStats | null;
}

export interface ScopeSnapshot {
  scope: string;
  counters: CountersSnapshot;
}

/** Latency of one (provider, model) pair or one tool. */
export interface LatencyGroupSnapshot {
  /** provider (llm) or tool name (assay); `(other groups)` for the overflow group. */
  group: string | null;
  /** model (llm), null otherwise. */
  subgroup: string | null;
  stats: LatencyStats;
  /** The whole histogram, for `callpair merge` (report `mergeData`). */
  sketch: LatencySketch;
  /** Every histogram bucket as [lower bound ms, count], ascending (only when asked for: `distributions`). */
  distribution?: Array<[number, number]>;
}

export interface ChannelSnapshot {
  spec: ChannelSpec;
  counters: CountersSnapshot;
  /** Scopes in first-seen order (those still held: see `scopesFolded`). */
  scopes: ScopeSnapshot[];
  /** Scopes folded into the channel's counters past the engine's scope cap (absent: none). */
  scopesFolded?: number;
  /**
   * Orphan responses with reason `id-not-open` read after the closed-id or evicted-id window had
   * forgotten an id (absent: none): each may be a late repeat of a closed call or answer an evicted
   * request, which a larger window would have said (a note in the report).
   */
  unsureOrphans?: number;
  /** Requests a profile could not check for a repeated id (CallEvent.pastWindow). */
  unsureRepeats?: number;
  /** Latency groups in first-seen order. */
  latencyGroups: LatencyGroupSnapshot[];
  /** The channel's whole latency histogram (null without latencies), for `callpair merge`. */
  latencySketch: LatencySketch | null;
}

export interface EngineSnapshot {
  /** Every declared channel, in declaration order (with or without events). */
  channels: ChannelSnapshot[];
}

export interface SnapshotOptions {
  /** Include each latency group's bucket distribution (for charts). */
  distributions?: boolean;
}

/** Every count of a channel or a scope at zero; the latency summary is the holder's to add. */
export function zeroCounts(): Omit<CountersSnapshot, 'latency'> {
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
    zeroLatencies: 0,
  };
}
