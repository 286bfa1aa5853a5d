/** Messages between the parallel reader (parallel.ts) and its workers (worker.ts). */

export interface WorkerInit {
  profile: string;
  profileOptions: Record<string, unknown>;
  needles: string[];
  validateAll: boolean;
}

/** One op is OP_SIZE numbers: kind, buffer index, start, end, line, bytes, flags (1 in chunk, 2 terminated). */
export const OP_SIZE = 7;
export const OP_LINE = 1;
export const OP_OVERSIZED = 2;

export interface BatchIn {
  seq: number;
  /** The source's classify rules as JSON (`null`: needles only). */
  classify: string;
  bufs: Uint8Array[];
  ops: Float64Array;
}

/**
 * `items` in line order, three entries each: `line, value, digest` (a record), `-line, reason,
 * bytes` (a malformed line), `0, line, bytes` (an oversized line).
 */
export interface BatchOut {
  seq: number;
  /**
   * Set when the worker could not send this batch's values (nested deeper than a structured clone
   * survives): `bufs` and `ops` come back as they were sent, and the main thread evaluates the
   * batch itself, so the report is the one `--jobs 1` gives.
   */
  redo?: { ops: Float64Array };
  /** Set when the worker failed on this batch: the run ends with this message. */
  fault?: string;
  /** The batch's buffers, handed back for reuse. */
  bufs: Uint8Array[];
  items: unknown[];
  parsed: number;
  unparsed: number;
  malformed: number;
}
