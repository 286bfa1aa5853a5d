/**
 * The shape of `report.records.assay` (docs/design.md §3.2): written by the assay profile's summary(),
 * read by formatters. Types and a guard only.
 */

export interface AssaySummary {
  /** `assay.enforcement_decision.*` records (any version). */
  records: number;
  valid: number;
  malformed: number;
  unsupportedSchema: number;
  inconsistent: number;
  /** Other `assay.*` records (sibling carriers: observations, establish, …): counted, not read. */
  otherAssayRecords: number;
  byDecision: { allow: number; deny: number; other: number };
  byReason: Array<{ reason: string; count: number }>;
  byTool: Array<{ tool: string; count: number }>;
  toolsOmitted: number;
  /** `duplicated` is null (unknown) once more distinct ids were seen than the assay window holds. */
  correlationIds: { present: number; absent: number; invalid: number; duplicated: number | null };
  /**
   * Signs of several runs in one file set: `initialize` requests per log, and caller calls that
   * reuse a JSON-RPC id (null: more distinct ids than the window holds). Absent in older reports.
   */
  runs?: { callerHandshakes: number; upstreamHandshakes: number; callerIdsReused: number | null };
  /** JSON-RPC `tools/call` messages read per log (null: that log was not given). */
  calls: { caller: number | null; upstream: number | null; establishSkipped: number };
  /** JSON-RPC lines whose method is `tools/call` spelled in another case: ignored, counted; `first` is the first one's location. Absent: none. */
  methodSpellings?: { count: number; first: { path: string; line: number } };
  /** The delivery audit matrix (null: no upstream log, delivery not evaluated). */
  delivery: {
    allow: { records: number; arrived: number; notArrived: number };
    /** `unchecked`: deny records with no id to recognise an arrival by (bypass undetectable). */
    deny: { records: number; arrived: number | null; notArrived: number | null; unchecked: number };
    /** Arrivals of denied calls (DENIED_BUT_DELIVERED) and arrivals no decision covers (UNRECORDED_DELIVERY). */
    deniedArrivals: number;
    unrecordedArrivals: number;
  } | null;
}

/** Is this `report.records.assay` value an assay summary? (Formatters read the report as data.) */
export function isAssaySummary(v: unknown): v is AssaySummary {
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return typeof o.records === 'number' && typeof o.valid === 'number' && Array.isArray(o.byTool) && typeof o.correlationIds === 'object';
}
