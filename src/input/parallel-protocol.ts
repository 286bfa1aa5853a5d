/** Messages between the parallel reader (parallel.ts) and its workers (worker.ts). */

import type { KeepSpec } from '../profiles/keep.js';
import type { LineCounts } from './lines.js';

export interface WorkerInit {
  /** What the profiles read (plain data): the worker prunes values with it, building no profile. */
  keep: KeepSpec | null;
  /** Each profile's own spec, by name: a line the first handler's classify rule claims is pruned by it. */
  keeps: Record<string, KeepSpec>;
  needles: string[];
  validateAll: boolean;
  maxLineBytes: number;
}

/**
 * A run of whole lines: `buf[start..end)`, every line ending with a newline. The buffer is
 * transferred (a file's read buffer: no copy) and handed back with the answer for reuse.
 */
export interface BatchIn {
  seq: number;
  /** The source's classify rules as JSON (`null`: needles only). */
  classify: string;
  buf: Uint8Array;
  start: number;
  end: number;
}

/**
 * `items` in line order, four entries each, line numbers counted from 1 within the batch:
 * `line, value, start, end` (a record, whose bytes are `buf[start..end)`, or `line, value, -1, bytes`
 * when they are a copy outside `buf`: a last line joined from pieces), `-line, reason, bytes, 0`
 * (a malformed line), `-line, {profile, key}, bytes, 0` (a repeated key, before its record),
 * `0, line, bytes, 0` (an oversized line). `ledger`: the batch's counts.
 */
export interface BatchOut {
  seq: number;
  /** The batch's buffer, handed back for reuse. */
  buf: Uint8Array;
  items: unknown[];
  ledger: LineCounts;
  /**
   * Set when the worker could not send this batch's values (nested deeper than a structured clone
   * survives): the buffer comes back as it was sent, and the main thread evaluates the batch
   * itself, so the report is the one `--jobs 1` gives.
   */
  redo?: { start: number; end: number };
  /** Set when the worker failed on this batch: the run ends with this message. */
  fault?: string;
}
