/** The assay profile's options, fixed names and bounds. */
import type { Loc } from '../../model.js';

export const DEFAULT_CORRELATION_KEY = 'assay.correlation_id';
/** The proxy's own upstream traffic (pre-call establish). */
export const RESERVED_ID_PREFIX = 'assay-establish-';
/** One run per invocation (decision files carry no run delimiter). */
export const RUN_SCOPE = 'run';
/**
 * The bound of each assay window (deny-record keys, deny records without a key, suspects, seen
 * correlation ids, caller JSON-RPC ids): by default the run's --max-open-calls (analyze() passes
 * it), else this. A window never forgets; past its bound the audit is DELIVERY_UNVERIFIED
 * (docs/design.md §8).
 */
export const DEFAULT_WINDOW = 100_000;
/** Locations a DELIVERY_UNVERIFIED finding lists (its `count` has them all). */
export const MAX_UNVERIFIED_LOCATIONS = 5;
/** Distinct tool names counted by name; the rest are counted in `toolsOmitted`. */
export const MAX_TOOLS = 10_000;
/** Schema strings are capture strings: kept bounded in findings. */
export const MAX_SCHEMA_CHARS = 128;

export const NOTE_ALLOWED_NOT_OBSERVED = 'allowed, not observed upstream';
export const NOTE_NO_DECISION_RECORD = 'caller call with no decision record';
export const CALLER_LOG = '(caller log)';
export const UPSTREAM_LOG = '(upstream)';

export interface AssayOptions {
  /** Which input roles exist (set by analyze() before reading). */
  roles?: { capture?: boolean; caller?: boolean; upstream?: boolean };
  /** The `_meta` key holding the correlation id on JSON-RPC requests. */
  correlationKey?: string;
  /** Size of the bounded windows (deny keys, deny records without a key, suspects, seen ids). */
  window?: number;
  /** Files per input role (set by analyze()): pairing by order across files is no evidence. */
  roleFiles?: { capture?: number; caller?: number; upstream?: number };
  /** Caller/upstream logs holding no JSON-RPC message (set by analyze()): that side is missing. */
  unusableLogs?: ReadonlyArray<{ role: string; path: string }>;
  /** Files of a --caller/--upstream directory not read, not named as a log (set by analyze()): a call may be in them. */
  skippedLogs?: ReadonlyArray<{ role: string; path: string }>;
  /** The engine's open-call bound (--max-open-calls), named when a call is evicted. */
  maxOpenCalls?: number;
}


/** A deny record, remembered by its keys for the delivery audit. */
export interface DenyEntry {
  loc: Loc;
  tool: string | null;
  reason: string | null;
  arrived: boolean;
  /** No key recognises its arrival (counted in `denyUnchecked` until an arrival is attributed to it). */
  unchecked: boolean;
}

/** A paired arrival a deny record could explain: its key is a deny's, or it has none (docs/assay.md). */
export interface Suspect {
  loc: Loc;
  key: string | null;
  /** The tool name as the producer sanitises it. */
  tool: string;
}

