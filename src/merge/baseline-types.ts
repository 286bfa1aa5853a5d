/**
 * A baseline comparison's shapes (`report.baseline`; src/merge/diff.ts makes them), as plain data,
 * below the report model that holds them.
 */
import type { Finding, FindingCode } from '../report/findings.js';

export type BaselineState = 'new' | 'unchanged';

export interface Delta {
  base: number | null;
  head: number | null;
  /** head − base (rates to 1e-6), null when either side is unknown. */
  delta: number | null;
}

export interface BaselineReport {
  /** Counts of the listed findings (see `complete`). */
  counts: { new: number; fixed: number; unchanged: number };
  /** Aligned with the head report's `findings`. */
  states: BaselineState[];
  /** Base findings no head finding matches. */
  fixed: Finding[];
  /** New findings per code (what `--fail-on-new` gates on). */
  newCounts: Partial<Record<FindingCode, number>>;
  /** False when either report left findings out (--max-findings): only listed findings are matched. */
  complete: boolean;
  deltas: {
    crossedRate: Delta;
    orphanRequests: Delta;
    orphanResponses: Delta;
    ambiguous: Delta;
    idCoverage: Delta;
  };
}

/** `report.baseline`: the comparison with a base report, and whether the gate counted new findings only. */
export interface ReportBaseline extends BaselineReport {
  failOnNew: boolean;
}
