/**
 * Parallel reading (`--jobs N`): this thread frames lines exactly as the single-threaded reader
 * does (the same LineReader: BOM, CRLF, blank, oversized, chunk-spanning lines, line numbers) and
 * hands the non-blank lines, in batches, to worker threads that test the needles, decode and
 * JSON.parse. Results are applied strictly in batch order, so the profiles and the pairing see the
 * same records, in the same order, with the same line numbers as with `--jobs 1`: same report,
 * byte for byte.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { LineReader, type LineLedger, type LineSink } from './lines.js';
import { OP_LINE, OP_OVERSIZED, OP_SIZE, type BatchIn, type BatchOut, type WorkerInit } from './parallel-protocol.js';
import { BatchEvaluator } from './batch.js';
import type { SourceRule } from './classify.js';

export type { WorkerInit } from './parallel-protocol.js';

/** A reader worker failed (crashed, or sent what cannot be read): the run ends with one line, exit 2. */
export class ReaderWorkerError extends Error {
  override name = 'ReaderWorkerError';
}

function workerUrl(): URL {
  const u = new URL('./worker.js', import.meta.url);
  // Under a TypeScript test runner this file is src/input/parallel.ts: use the built worker.
  return existsSync(u) ? u : new URL('../../dist/input/worker.js', import.meta.url);
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
      const worker = new Worker(workerUrl(), { workerData: this.init });
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
const LOCAL_WHEN_PENDING = 2;

/** Same interface as LineReader, but `push` may return a promise (back-pressure) and `end` does. */
export class ParallelLineReader {
  readonly ledger: LineLedger;
  private readonly framer: LineReader;
  private ops: number[] = [];
  private bufs: Buffer[] = [];
  /** The chunk being framed, and the range of it that lines use. */
  private chunk: Buffer | null = null;
  private chunkIdx = -1;
  private chunkLo = 0;
  private chunkHi = 0;
  private rebase = 0;
  private seq = 0;
  private applied = 0;
  private readonly done = new Map<number, BatchOut>();
  private inFlight = 0;
  private readonly maxInFlight: number;
  private wake: (() => void) | null = null;
  private error: Error | null = null;

  constructor(
    private readonly pool: WorkerPool,
    opts: {
      maxLineBytes: number;
      sink: LineSink;
      recycle?: (ab: ArrayBuffer) => void;
      /**
       * This thread evaluates a batch itself when every worker already has LOCAL_WHEN_PENDING, and
       * any batch a worker hands back (`redo`).
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
    this.recycle = opts.recycle ?? null;
    this.local = new BatchEvaluator(opts.local.needles, opts.local.validateAll, opts.local.keep, false, opts.local.keeps ?? null);
    this.classify = JSON.stringify(opts.classify ?? null);
    this.maxInFlight = pool.size * 3 + 1;
    this.framer = new LineReader({
      needles: [],
      maxLineBytes: opts.maxLineBytes,
      validateAll: false,
      sink: {
        record() {},
        malformed() {},
        oversized: (line, bytes) => this.ops.push(OP_OVERSIZED, 0, 0, 0, line, bytes, 0),
      },
      dispatch: (buf, s, e, line, inChunk, terminated, bytes) => this.line(buf, s, e, line, inChunk, terminated, bytes),
    });
    this.ledger = this.framer.ledger;
    this.sink = opts.sink;
  }

  private readonly sink: LineSink;
  private readonly recycle: ((ab: ArrayBuffer) => void) | null;
  private readonly local: BatchEvaluator;
  private readonly classify: string;

  private line(buf: Buffer, s: number, e: number, line: number, inChunk: boolean, terminated: boolean, bytes: number): void {
    let idx: number;
    let off = 0;
    if (inChunk && buf === this.chunk) {
      if (this.chunkIdx < 0) {
        this.chunkIdx = this.bufs.length;
        this.bufs.push(buf);
        this.chunkLo = s;
      }
      idx = this.chunkIdx;
      this.chunkHi = e;
    } else {
      idx = this.bufs.length;
      this.bufs.push(buf.subarray(s, e));
      off = s;
    }
    this.ops.push(OP_LINE, idx, s - off, e - off, line, bytes, (inChunk ? 1 : 0) | (terminated ? 2 : 0));
  }

  push(chunk: Buffer): Promise<void> | void {
    if (this.error) return;
    this.chunk = chunk;
    this.chunkIdx = -1;
    this.framer.push(chunk);
    this.chunk = null;
    this.flush();
    if (this.inFlight >= this.maxInFlight) return this.drain(this.maxInFlight - 1);
  }

  async end(): Promise<void> {
    this.framer.end();
    this.flush();
    await this.drain(0);
    if (this.error) throw this.error;
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

  /** Ships the ops framed so far as one batch; copies the bytes they use into fresh memory. */
  private flush(): void {
    if (this.ops.length === 0) return;
    const bufs: Uint8Array[] = [];
    const transfer: ArrayBuffer[] = [];
    for (let i = 0; i < this.bufs.length; i++) {
      let b = this.bufs[i]!;
      if (i === this.chunkIdx) {
        // A chunk that owns its whole memory (file reads do) is handed over without a copy:
        // the framer is done with it (it copies the unfinished tail it keeps).
        const ab = b.buffer;
        if (ab instanceof ArrayBuffer && b.byteOffset === 0 && b.byteLength === ab.byteLength && !transfer.includes(ab)) {
          bufs.push(new Uint8Array(ab));
          transfer.push(ab);
          continue;
        }
        b = b.subarray(this.chunkLo, this.chunkHi);
        this.rebase = this.chunkLo;
      }
      const copy = new Uint8Array(new ArrayBuffer(b.length));
      copy.set(b);
      bufs.push(copy);
      transfer.push(copy.buffer);
    }
    if (this.rebase) {
      // The chunk was copied from chunkLo on: shift its lines' offsets.
      for (let i = 0; i < this.ops.length; i += OP_SIZE) {
        if (this.ops[i] === OP_LINE && this.ops[i + 1] === this.chunkIdx) {
          this.ops[i + 2]! -= this.rebase;
          this.ops[i + 3]! -= this.rebase;
        }
      }
      this.rebase = 0;
    }
    const ops = Float64Array.from(this.ops);
    transfer.push(ops.buffer);
    const batch: BatchIn = { seq: this.seq++, classify: this.classify, bufs, ops };
    this.ops = [];
    this.bufs = [];
    this.chunkIdx = -1;
    this.inFlight++;
    if (this.pool.minPending() >= LOCAL_WHEN_PENDING) {
      // Every worker has work queued: this thread takes this batch itself.
      const out = this.local.run(batch);
      this.done.set(out.seq, out);
      this.applyReady();
      return;
    }
    this.pool.submit(
      batch,
      transfer,
      (out) => {
        // A batch the worker could not send back: evaluated here, as `--jobs 1` would.
        this.done.set(out.seq, out.redo ? this.local.run({ seq: out.seq, classify: this.classify, bufs: out.bufs, ops: out.redo.ops }) : out);
        this.applyReady();
      },
      (e) => {
        this.error = e;
        this.wake?.();
      },
    );
  }

  /** Applies finished batches in order. */
  private applyReady(): void {
    try {
      for (;;) {
        const out = this.done.get(this.applied);
        if (!out) break;
        this.done.delete(this.applied);
        this.applied++;
        this.inFlight--;
        if (this.recycle) for (const b of out.bufs) this.recycle(b.buffer as ArrayBuffer);
        this.ledger.parsed += out.parsed;
        this.ledger.unparsed += out.unparsed;
        this.ledger.malformed += out.malformed;
        const it = out.items;
        for (let i = 0; i < it.length; i += 3) {
          const k = it[i] as number;
          if (k > 0) this.sink.record(it[i + 1], k, null, it[i + 2] as string);
          else if (k < 0) this.sink.malformed(-k, it[i + 1] as 'invalid-json' | 'truncated' | 'duplicate-key', it[i + 2] as number);
          else this.sink.oversized(it[i + 1] as number, it[i + 2] as number);
        }
      }
    } catch (e) {
      this.error = e as Error;
    }
    this.wake?.();
  }
}
