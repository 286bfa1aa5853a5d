/**
 * The report's parts (docs/design.md §7): an input's ledger and the counters of a channel or a
 * scope, as plain data. The modules that read them (gate, worst-scopes, timeline) import them from
 * here, below src/report/report.ts, so that none of them imports the whole report.
 */
import type { ChannelMeaning } from '../model.js';
import type { LatencyStats } from '../model/snapshot.js';

export interface InputLedgerReport {
  path: string;
  format: 'jsonl' | 'json';
  gzip: boolean;
  profile: string;
  lines: number;
  records: number;
  blank: number;
  malformed: number;
  oversized: number;
  ignored: number;
  /**
   * Of `ignored`: lines no profile's needle or kind key is on, skipped without JSON.parse
   * (docs/inputs.md#lines-no-profile-reads): counted as records, never checked as JSON (0 with
   * --validate-all). Absent in reports of versions before it.
   */
  unparsed: number;
  duplicates: number;
  /** Records mapped to events. */
  used: number;
  bytes: number;
  /** A read that failed part-way (what was read is kept). */
  error: { message: string; byteOffset: number } | null;
}

export interface CounterReport {
  requests: number;
  terminals: number;
  interims: number;
  unattributedInterims: number;
  redundant: number;
  pairs: {
    total: number;
    /** `record`: pairs of whole-call records (present only when there are some). */
    byMethod: { id: number; signature: number; fifo: number; record?: number };
    byConfidence: { exact: number; unambiguous: number; ambiguous: number };
  };
  orphanRequests: number;
  evictedRequests: number;
  orphanResponses: number;
  duplicateTerminals: number;
  duplicateIds: number;
  crossed: { comparable: number; fifo: number; signature: number; fifoRate: number | null; signatureRate: number | null };
  idCoverage: { requests: number | null; terminals: number | null };
  maxInFlight: number;
  negativeLatencies: number;
  /** Pairs whose request and terminal have equal times (latency 0 at the capture's time resolution); absent in reports of versions before it. */
  zeroLatencies: number;
  latencyMs: LatencyStats | null;
}

export interface ScopeReport extends CounterReport {
  scope: string;
}

export interface LatencyGroupReport extends LatencyStats {
  /** provider (llm) or tool name (assay). */
  group: string | null;
  /** model (llm), null otherwise. */
  subgroup: string | null;
}

export interface ChannelReport extends CounterReport {
  channel: string;
  ordered: boolean;
  /** What the channel's rows, groups and failed outcomes are (its declaration; formatters read only this). */
  meaning: ChannelMeaning;
  /** Pairs whose terminal is a failed outcome under `meaning.failure` (the one count every format shows). */
  failed: number;
  scopeCount: number;
  /** Scopes left out of `scopes` by `--max-scopes` or folded (absent when every scope is listed). */
  scopesOmitted?: number;
  /** Scopes folded into the channel's counters past the scope cap (docs/design.md §8); absent: none. A folded scope seen again counts again. */
  scopesFolded?: number;
  /**
   * Orphan responses `id-not-open` read after the engine's closed-id or evicted-id window forgot
   * ids (absent: none): each may be a late repeat of a closed call; `--fail-on DUPLICATE_TERMINAL`
   * cannot be evaluated then (docs/ci.md).
   */
  unsureOrphans?: number;
  /** Requests read after a profile's window of ids forgot some, unchecked for a repeated id (absent when none). */
  unsureRepeats?: number;
  latencyByGroup: LatencyGroupReport[];
  scopes: ScopeReport[];
}
