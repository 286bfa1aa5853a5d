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
  /** Every histogram bucket as [lower bound ms, count], ascending (only when asked for: `distributions`). */
  distribution?: Array<[number, number]>;
}

export interface ChannelSnapshot {
  spec: ChannelSpec;
  counters: CountersSnapshot;
  /** Scopes in first-seen order. */
  scopes: ScopeSnapshot[];
  /** Latency groups in first-seen order. */
  latencyGroups: LatencyGroupSnapshot[];
}

export interface EngineSnapshot {
  /** Every declared channel, in declaration order (with or without events). */
  channels: ChannelSnapshot[];
}

export interface SnapshotOptions {
  /** Include each latency group's bucket distribution (for charts). */
  distributions?: boolean;
}
