/**
 * The report's `timeline` field (src/report/timeline.ts collects it; the html format draws it), as
 * plain data shared by the collector and its layout and latency-chart helpers.
 */
import type { Confidence, Loc, Method } from '../../model.js';

export interface TimelinePoint {
  loc: Loc;
  /** ms since the scope's axis start (axis `time`) or the rank in input order (axis `input-order`). */
  t: number;
}

export interface TimelineCall {
  kind: 'pair' | 'orphan-request' | 'orphan-response';
  /** Index into the scope's `lanes`. */
  lane: number;
  caller: string;
  method: Method | null;
  confidence: Confidence | null;
  /** Terminal status as the capture states it (`ok`, `error`, `cancelled`, …), null when unknown. */
  status: string | null;
  error: boolean;
  timeout: boolean;
  /** Capture-supplied error text (cut to 200 characters), null when none. */
  errorText: string | null;
  /** A valid correlation id, never an invalid one. */
  id: string | null;
  provider: string | null;
  model: string | null;
  tool: string | null;
  request: TimelinePoint | null;
  terminal: TimelinePoint | null;
  /** Where the bar ends: the terminal, or the end of the scope for an orphan request. */
  end: number;
  latencyMs: number | null;
  /** For a pair FIFO crossed: index into `calls` of the request plain FIFO would have given this terminal (null: not kept, or FIFO had nothing open). */
  fifoPartner: number | null;
  crossed: boolean;
  /** Orphan request: why it was never closed. Orphan response: why nothing took it. */
  reason: string | null;
}

export interface TimelineScope {
  channel: string;
  scope: string;
  axis: 'time' | 'input-order';
  /** Epoch ms of t = 0 (axis `time`), null otherwise. */
  start: number | null;
  /** Length of the axis (ms, or input-order ranks). */
  span: number;
  lanes: string[];
  /** The scope's counters from the report (what made it rank where it does). */
  counts: { pairs: number; orphanRequests: number; orphanResponses: number; crossedFifo: number; ambiguous: number; maxInFlight: number };
  calls: TimelineCall[];
  /** Calls of this scope not drawn, and why. */
  omittedCalls: { count: number; reason: string } | null;
  /** Crossed pairs whose FIFO partner request is not among the kept calls. */
  unlinkedCrossed: number;
  /** The scope's calls were kept only from part-way through the pass (it was let go once to bound memory). */
  partial: boolean;
}

export interface LatencyDistribution {
  channel: string;
  group: string | null;
  subgroup: string | null;
  /** [lower bound ms, count], ascending; bins a quarter of a power of two wide (zero has its own bin). */
  buckets: Array<[number, number]>;
}

export interface TimelineReport {
  maxScopes: number;
  maxCallsPerScope: number;
  scopesTotal: number;
  scopes: TimelineScope[];
  /** Scopes not drawn, by reason. */
  omittedScopes: Array<{ count: number; reason: 'past-limit' | 'not-kept' | 'no-calls'; withProblems: number }>;
  latency: LatencyDistribution[];
}
