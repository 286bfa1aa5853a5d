/**
 * Parallel reading (`--jobs N`): each chunk read is cut at its first and last newline. The whole
 * lines between go, as they are, to a worker (a file's read buffer is transferred, not copied: no
 * line offsets, no byte copies), which frames and evaluates them with the same LineReader as
 * `--jobs 1` (CR, blank, oversized, classification, JSON.parse with `keep`), numbering lines from
 * 1. This thread joins the line cut between two chunks (and skips one that grows too long), and
 * evaluates a batch itself when every worker is busy. Results are applied strictly in order, line
 * numbers offset by the lines before them, so the profiles and the pairing see the same records,
 * in the same order, with the same line numbers as with `--jobs 1`: same report, byte for byte.
 */
import { existsSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { workerThreads } from '../builtins.js';
import { addLineCounts, LineCarry, type LineLedger, type LineSink } from './lines.js';
import type { BatchIn, BatchOut, WorkerInit } from './parallel-protocol.js';
import { BatchEvaluator } from './batch.js';
import type { SourceRule } from './classify.js';

export type { WorkerInit } from './parallel-protocol.js';

/** A reader worker failed (crashed, or sent what cannot be read): the run ends with one line, exit 2. */
export class ReaderWorkerError extends Error {
  override name = 'ReaderWorkerError';
}

function workerUrl(): URL {
  // Beside this file (tsc's dist/input/); beside the bundle when this code sits in one of its
  // chunks (dist/cli/chunks/ → dist/cli/worker.js); under a TypeScript test runner this file is
  // src/input/parallel.ts: the built worker.
  for (const rel of ['./worker.js', '../worker.js', '../../dist/input/worker.js']) {
    const u = new URL(rel, import.meta.url);
    if (existsSync(u)) return u;
  }
  throw new ReaderWorkerError('the reader worker (worker.js) is missing from this build');
}

interface Slot {
  worker: Worker;
  pending: number;
  /** Booted (its modules loaded): until then it gets no batch, and this thread does the work. */
  ready: boolean;
}

/** A pool of workers for one analysis; `close()` ends them. */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly handlers = new Map<number, (out: BatchOut) => void>();
  private failure: Error | null = null;
  private onFailure: ((e: Error) => void) | null = null;

  constructor(
    readonly size: number,
    private readonly init: WorkerInit,
  ) {}

  /** Starts the workers (they boot while this thread already reads). */
  start(): void {
    if (this.slots.length) return;
    for (let i = 0; i < this.size; i++) {
      const worker = new (workerThreads().Worker)(workerUrl(), { workerData: this.init });
      const slot: Slot = { worker, pending: 0, ready: false };
      worker.on('message', (out: BatchOut | { ready: true }) => {
        if ('ready' in out) {
          slot.ready = true;
          return;
        }
        slot.pending--;
        if (out.fault !== undefined) return this.fail(new ReaderWorkerError(`a reader worker failed: ${out.fault}`));
        const h = this.handlers.get(out.seq);
        this.handlers.delete(out.seq);
        h?.(out);
      });
      // A message the main thread cannot deserialize would otherwise be dropped: a batch never answered.
      worker.on('messageerror', (e) => this.fail(new ReaderWorkerError(`a reader worker sent an unreadable batch: ${e.message}`)));
      worker.on('error', (e) => this.fail(new ReaderWorkerError(`a reader worker failed: ${e.message}`)));
      worker.on('exit', (code) => {
        if (code !== 0) this.fail(new ReaderWorkerError(`a reader worker exited with code ${code}`));
      });
      this.slots.push(slot);
    }
  }

  private fail(e: Error): void {
    if (this.failure) return;
    // One line: a worker's message may hold newlines or terminal escapes from the capture.
    this.failure = new ReaderWorkerError(e.message.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').slice(0, 300));
    this.onFailure?.(this.failure);
  }

  /** Batches waiting in the least busy worker. */
  minPending(): number {
    this.start();
    let m = Infinity;
    for (const s of this.slots) if (s.ready) m = Math.min(m, s.pending);
    return m;
  }

  /** Sends a batch to the least busy worker. */
  submit(batch: BatchIn, transfer: ArrayBuffer[], done: (out: BatchOut) => void, failed: (e: Error) => void): void {
    this.start();
    if (this.failure) return failed(this.failure);
    this.onFailure = failed;
    let best: Slot | null = null;
    for (const s of this.slots) if (s.ready && (!best || s.pending < best.pending)) best = s;
    best ??= this.slots[0]!;
    best.pending++;
    this.handlers.set(batch.seq, done);
    best.worker.postMessage(batch, transfer);
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

/** Batches queued in every worker before the main thread evaluates one itself. */
const LOCAL_WHEN_PENDING = 1;
const NL = 0x0a;
const NO_LINES = { lines: 0, blank: 0, malformed: 0, oversized: 0, parsed: 0, unparsed: 0 };

/** Same interface as LineReader, but `push` may return a promise (back-pressure) and `end` does. */
export class ParallelLineReader {
  readonly ledger: LineLedger = { lines: 0, blank: 0, malformed: 0, oversized: 0, parsed: 0, unparsed: 0, bytes: 0 };
  /** The unfinished line at the end of the last chunk. */
  private readonly tail: LineCarry;
  private seq = 0;
  private applied = 0;
  private readonly done = new Map<number, BatchOut>();
  private inFlight = 0;
  private readonly maxInFlight: number;
  private wake: (() => void) | null = null;
  private error: Error | null = null;
  private readonly sink: LineSink;
  private readonly recycle: ((ab: ArrayBuffer) => void) | null;
  private readonly local: BatchEvaluator;
  private readonly classify: string;
  private readonly max: number;
  private readonly owns: boolean;

  constructor(
    private readonly pool: WorkerPool,
    opts: {
      maxLineBytes: number;
      sink: LineSink;
      recycle?: (ab: ArrayBuffer) => void;
      /**
       * The chunks pushed are this reader's to give away (a file's read buffers): whole lines are
       * transferred to workers without a copy. Otherwise (stdin, gunzip) they are copied.
       */
      ownsChunks?: boolean;
      /**
       * This thread evaluates the lines cut between chunks, a batch when every worker already has
       * LOCAL_WHEN_PENDING, and any batch a worker hands back (`redo`).
       */
      local: {
        needles: readonly Buffer[];
        validateAll: boolean;
        keep: ((value: unknown) => unknown) | null;
        keeps?: ReadonlyMap<string, (value: unknown) => unknown> | null;
      };
      /** The source's classify rules (classify.ts), or null. */
      classify?: readonly SourceRule[] | null;
    },
  ) {
    this.max = opts.maxLineBytes;
    this.tail = new LineCarry(opts.maxLineBytes);
    this.owns = opts.ownsChunks ?? false;
    this.sink = opts.sink;
    this.recycle = opts.recycle ?? null;
    this.local = new BatchEvaluator({ ...opts.local, maxLineBytes: opts.maxLineBytes });
    this.classify = JSON.stringify(opts.classify ?? null);
    this.maxInFlight = pool.size * 3 + 1;
  }

  push(chunk: Buffer): Promise<void> | void {
    if (this.error) return;
    this.ledger.bytes += chunk.length;
    const pos = this.tail.bom >= 0 ? this.tail.skipBom(chunk) : 0;
    const len = chunk.length;
    const f = chunk.indexOf(NL, pos);
    if (f === -1) {
      this.tail.hold(chunk, pos, len);
      this.giveBack(chunk);
      return;
    }
    this.headLine(chunk, pos, f);
    const l = chunk.lastIndexOf(NL);
    if (l + 1 < len) this.tail.hold(chunk, l + 1, len);
    if (l > f) this.submit(chunk, f + 1, l + 1);
    else this.giveBack(chunk);
    if (this.inFlight >= this.maxInFlight) return this.drain(this.maxInFlight - 1);
  }

  async end(): Promise<void> {
    const tail = this.tail;
    if (tail.skipping) {
      this.enqueue(oversized(tail.lineLen(null, 0, 0)));
      tail.skipping = false;
    } else if (tail.carryLen > 0) {
      // A last line without newline: evaluated as it is (truncated if it does not parse).
      const line = Buffer.concat(tail.carry, tail.carryLen);
      tail.clear();
      this.enqueue(this.local.run({ seq: 0, classify: this.classify, buf: line, start: 0, end: line.length }, true));
    }
    await this.drain(0);
    if (this.error) throw this.error;
  }

  /** A chunk this reader keeps nothing of goes back to the reader's buffers. */
  private giveBack(chunk: Buffer): void {
    const ab = chunk.buffer;
    if (this.recycle && ab instanceof ArrayBuffer && chunk.byteOffset === 0) this.recycle(ab);
  }

  /** The line that ends at the chunk's first newline (`pos..f`), completing any carried piece. */
  private headLine(chunk: Buffer, pos: number, f: number): void {
    const tail = this.tail;
    if (tail.skipping) {
      this.enqueue(oversized(tail.lineLen(chunk, pos, f)));
      tail.skipping = false;
      tail.skippedLen = 0;
      return;
    }
    const n = tail.carryLen + (f - pos);
    if (tail.carryLen > 0 && tail.lineLen(chunk, pos, f) > this.max) {
      this.enqueue(oversized(tail.lineLen(chunk, pos, f)));
    } else {
      // A copy with its newline: the chunk itself is handed to a worker.
      const line = Buffer.allocUnsafe(n + 1);
      let at = 0;
      for (const c of tail.carry) {
        c.copy(line, at);
        at += c.length;
      }
      chunk.copy(line, at, pos, f);
      line[n] = NL;
      this.enqueue(this.local.run({ seq: 0, classify: this.classify, buf: line, start: 0, end: n + 1 }));
    }
    tail.clear();
  }

  private enqueue(out: BatchOut): void {
    out.seq = this.seq++;
    this.inFlight++;
    this.done.set(out.seq, out);
    this.applyReady();
  }

  /** Whole lines `start..end` of `chunk`: to a worker (transferred when the chunk owns its memory), or evaluated here. */
  private submit(chunk: Buffer, start: number, end: number): void {
    const seq = this.seq++;
    this.inFlight++;
    const ab = chunk.buffer;
    let batch: BatchIn;
    if (this.owns && ab instanceof ArrayBuffer && chunk.byteOffset === 0) {
      batch = { seq, classify: this.classify, buf: new Uint8Array(ab), start, end };
    } else {
      // Memory the stream may reuse (stdin, gunzip): the lines are copied.
      const copy = new Uint8Array(end - start);
      copy.set(chunk.subarray(start, end));
      batch = { seq, classify: this.classify, buf: copy, start: 0, end: copy.length };
      this.giveBack(chunk);
    }
    if (this.pool.minPending() >= LOCAL_WHEN_PENDING) {
      // Every worker has work queued (or none has started yet): this thread takes this batch.
      this.done.set(seq, this.local.run(batch));
      this.applyReady();
      return;
    }
    this.pool.submit(
      batch,
      [batch.buf.buffer as ArrayBuffer],
      (out) => {
        // A batch the worker could not send back: evaluated here, as `--jobs 1` would.
        this.done.set(out.seq, out.redo ? this.local.run({ seq: out.seq, classify: this.classify, buf: out.buf, start: out.redo.start, end: out.redo.end }) : out);
        this.applyReady();
      },
      (e) => {
        this.error = e;
        this.wake?.();
      },
    );
  }

  private drain(limit: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        // On a failure, stop waiting: end() reports it.
        if (this.error || this.inFlight <= limit) {
          this.wake = null;
          resolve();
        }
      };
      this.wake = check;
      check();
    });
  }

  /** Applies finished batches in order, their line numbers offset by the lines before them. */
  private applyReady(): void {
    try {
      for (;;) {
        const out = this.done.get(this.applied);
        if (!out) break;
        this.done.delete(this.applied);
        this.applied++;
        this.inFlight--;
        const base = this.ledger.lines;
        addLineCounts(this.ledger, out.ledger);
        const it = out.items;
        // The batch's bytes, back from the worker: each record is handed over with its own, as `--jobs 1` does.
        const bytes = Buffer.from(out.buf.buffer, out.buf.byteOffset, out.buf.byteLength);
        for (let i = 0; i < it.length; i += 4) {
          const k = it[i] as number;
          if (k > 0) {
            const at = it[i + 2] as number;
            this.sink.record(it[i + 1], base + k, at < 0 ? Buffer.from(it[i + 3] as Uint8Array) : bytes.subarray(at, it[i + 3] as number));
          }
          else if (k < 0) {
            const r = it[i + 1] as 'invalid-json' | 'truncated' | { profile: string; key: string };
            if (typeof r === 'string') this.sink.malformed(base - k, r, it[i + 2] as number);
            else this.sink.repeatedKey?.(base - k, r.profile, r.key, it[i + 2] as number);
          }
          else this.sink.oversized(base + (it[i + 1] as number), it[i + 2] as number);
        }
        // Only now: the records' bytes were views of it.
        if (this.recycle && out.buf.byteLength > 0 && out.buf.buffer instanceof ArrayBuffer) this.recycle(out.buf.buffer);
      }
    } catch (e) {
      this.error = e as Error;
    }
    this.wake?.();
  }
}

/** One line over the limit, found by this thread (it spans chunks). */
function oversized(bytes: number): BatchOut {
  return { seq: 0, buf: new Uint8Array(0), items: [0, 1, bytes, 0], ledger: { ...NO_LINES, lines: 1, oversized: 1 } };
}
