/**
 * Evaluating one batch of whole lines (parallel reading), in a worker or in the main thread: the
 * same LineReader as `--jobs 1` (CR, blank, oversized, classification or needles, JSON.parse with
 * `keep`), with line numbers counted from 1 within the batch, and where each record's bytes lie in
 * the batch's buffer: the buffer comes back with the answer, so the main thread hands the profiles
 * the same bytes as `--jobs 1` (the duplicate-line window compares them), with no hash per line.
 */
import { LineReader, type LineSink } from './lines.js';
import type { SourceRule } from './classify.js';
import type { BatchIn, BatchOut } from './parallel-protocol.js';

/**
 * Values nested deeper than this are not sent from a worker: V8's structured clone recurses, and
 * the main thread's deserializer overflows its stack at a few thousand levels (a `messageerror`,
 * not an exception the worker sees). Each level takes at least 2 bytes, so only lines of
 * 2 × MAX_SEND_DEPTH bytes or more are walked.
 */
export const MAX_SEND_DEPTH = 1000;

/** Whether `v` nests deeper than `max` (iterative). */
export function deeperThan(v: unknown, max: number): boolean {
  if (v === null || typeof v !== 'object') return false;
  const stack: unknown[] = [v];
  const depth: number[] = [1];
  while (stack.length) {
    const x = stack.pop() as object;
    const d = depth.pop()!;
    if (d > max) return true;
    const kids = Array.isArray(x) ? x : Object.values(x);
    for (const k of kids) {
      if (k !== null && typeof k === 'object') {
        stack.push(k);
        depth.push(d + 1);
      }
    }
  }
  return false;
}

export interface BatchOptions {
  needles: readonly Buffer[];
  validateAll: boolean;
  maxLineBytes: number;
  keep: ((value: unknown) => unknown) | null;
  keeps?: ReadonlyMap<string, (value: unknown) => unknown> | null;
  /** In a worker: flag batches whose values cannot be sent (see MAX_SEND_DEPTH). */
  checkDepth?: boolean;
}

export class BatchEvaluator {
  private items: unknown[] = [];
  /** Where the current batch's buffer starts in its ArrayBuffer: a record's range is relative to the buffer. */
  private base = 0;
  private ab: ArrayBufferLike | null = null;
  private len = 0;
  /** In a worker: a record of the current batch nests too deep to be sent. */
  tooDeep = false;
  private readonly sink: LineSink;
  private readonly rules = new Map<string, SourceRule[] | null>();

  constructor(private readonly opts: BatchOptions) {
    const checkDepth = opts.checkDepth ?? false;
    this.sink = {
      record: (value, line, raw) => {
        if (checkDepth && raw!.length >= 2 * MAX_SEND_DEPTH && deeperThan(value, MAX_SEND_DEPTH)) this.tooDeep = true;
        // A line joined from pieces (the last one, without newline) is a copy, not in the batch's buffer: sent as it is.
        if (raw!.buffer !== this.ab || raw!.byteOffset < this.base || raw!.byteOffset + raw!.length > this.base + this.len) this.items.push(line, value, -1, Uint8Array.from(raw!));
        else this.items.push(line, value, raw!.byteOffset - this.base, raw!.byteOffset - this.base + raw!.length);
      },
      malformed: (line, reason, bytes) => {
        this.items.push(-line, reason, bytes, 0);
      },
      oversized: (line, bytes) => {
        this.items.push(0, line, bytes, 0);
      },
      repeatedKey: (line, profile, key, bytes) => {
        this.items.push(-line, { profile, key }, bytes, 0);
      },
    };
  }

  private rulesFor(classify: string): SourceRule[] | null {
    let r = this.rules.get(classify);
    if (r === undefined) {
      r = JSON.parse(classify) as SourceRule[] | null;
      this.rules.set(classify, r);
    }
    return r;
  }

  /** `final`: the batch's last line has no newline (the end of the input). */
  run(m: BatchIn, final = false): BatchOut {
    this.items = [];
    this.tooDeep = false;
    const o = this.opts;
    const reader = new LineReader({
      needles: o.needles,
      maxLineBytes: o.maxLineBytes,
      validateAll: o.validateAll,
      sink: this.sink,
      keep: o.keep,
      keeps: o.keeps ?? null,
      classify: this.rulesFor(m.classify),
      bom: false,
    });
    const buf = Buffer.from(m.buf.buffer, m.buf.byteOffset, m.buf.byteLength);
    this.base = m.buf.byteOffset;
    this.ab = m.buf.buffer;
    this.len = m.buf.byteLength;
    // Every line of the batch ends with a newline (but a final one): nothing is held back.
    reader.push(buf.subarray(m.start, m.end));
    if (final) reader.end();
    const l = reader.ledger;
    return {
      seq: m.seq,
      buf: m.buf,
      items: this.items,
      ledger: { lines: l.lines, blank: l.blank, malformed: l.malformed, oversized: l.oversized, parsed: l.parsed, unparsed: l.unparsed },
    };
  }
}
