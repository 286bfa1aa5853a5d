/** Messages between the parallel reader (parallel.ts) and its workers (worker.ts). */

import type { KeepSpec } from '../profiles/keep.js';

export interface WorkerInit {
  /** What the profiles read (plain data): the worker prunes values with it, building no profile. */
  keep: KeepSpec | null;
  needles: string[];
  validateAll: boolean;
}

/** One op is OP_SIZE numbers: kind, buffer index, start, end, line, bytes, flags (1 in chunk, 2 terminated). */
export const OP_SIZE = 7;
export const OP_LINE = 1;
export const OP_OVERSIZED = 2;

export interface BatchIn {
  seq: number;
  bufs: Uint8Array[];
  ops: Float64Array;
}

/**
 * `items` in line order, three entries each: `line, value, digest` (a record), `-line, reason,
 * bytes` (a malformed line), `0, line, bytes` (an oversized line).
 */
export interface BatchOut {
  seq: number;
  /** The batch's buffers, handed back for reuse. */
  bufs: Uint8Array[];
  items: unknown[];
  parsed: number;
  unparsed: number;
  malformed: number;
}
