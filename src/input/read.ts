/**
 * Reading one source: bytes (gzip detected by magic bytes, not by name), then either the JSONL
 * fast path (lines.ts) or a JSON document (documents.ts). A read that fails mid-input keeps what
 * was read and reports the failure with its byte offset.
 */
import { constants, fstatSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { fileKind, type Source } from './sources.js';
import { blockingOpen } from './blocking.js';
import { ByteSource, gunzipMembers, type GzipFault } from './gunzip.js';
import { sniff, SNIFF_MAX, type Sniffed } from './sniff.js';
import { LineReader, type LineLedger, type LineSink } from './lines.js';
import type { DocumentReader } from './documents.js';
import { ParallelLineReader, type WorkerPool } from './parallel.js';
import type { SourceRule } from './classify.js';

export interface ReadOptions {
  needles: readonly Buffer[];
  maxLineBytes: number;
  validateAll: boolean;
  /** For stdin. */
  stdin?: NodeJS.ReadableStream;
  /** Called after each chunk; reading waits for the promise it returns (backpressure downstream). */
  drain?: () => Promise<void> | undefined;
  /** Called after each chunk with the bytes read so far (decompressed): progress reporting. */
  progress?: (bytes: number) => void;
  /** Parallel reading (`--jobs`): JSONL files of at least `parallelMinBytes` (default 4 MiB) use it. */
  pool?: WorkerPool | null;
  /** The profiles' combined `keep` (null: whole values). */
  keep?: ((value: unknown) => unknown) | null;
  parallelMinBytes?: number;
  /** Where this source's profiles keep a record's kind (classify.ts), or null: needles only. */
  classify?: readonly SourceRule[] | null;
  /** Each profile's own `keep`, by name (see LineEvaluator). */
  keeps?: ReadonlyMap<string, (value: unknown) => unknown> | null;
  /** JSON documents: key paths of arrays whose elements are read one by one when the document outgrows maxLineBytes (documents.ts). */
  splits?: ReadonlyArray<readonly string[]>;
  /**
   * Chunk buffers shared by the sources of one run (read one after another): without it every
   * source allocates a fresh 4 MiB buffer, and 150 000 small files spend their time collecting them.
   */
  recycler?: ChunkRecycler;
}

export interface ReadResult {
  format: 'jsonl' | 'json';
  gzip: boolean;
  ledger: LineLedger;
  /** Set when the read failed part-way. */
  error: { message: string; byteOffset: number } | null;
}

/** Read size: few thread-pool round trips per file, and few lines cut between chunks. */
const CHUNK = 4 << 20;
const PARALLEL_MIN_BYTES = 4 << 20;

/** Workers only pay off on files of some size (stdin: always, when a pool is given). */
function usePool(source: Source, opts: ReadOptions): WorkerPool | null {
  if (!opts.pool) return null;
  if (source.file === null) {
    opts.pool.start();
    return opts.pool;
  }
  try {
    if (statSync(source.file).size < (opts.parallelMinBytes ?? PARALLEL_MIN_BYTES)) return null;
    opts.pool.start();
    return opts.pool;
  } catch {
    return null;
  }
}

/**
 * Chunk memory handed back once the line reader is done with it: a file is read into the same few
 * buffers over and over instead of fresh memory per MiB (whose page faults cost more system time
 * than the read itself).
 */
export class ChunkRecycler {
  private readonly free: ArrayBuffer[] = [];
  constructor(readonly size: number = CHUNK) {}
  take(): Buffer {
    const ab = this.free.pop();
    return ab ? Buffer.from(ab, 0, this.size) : Buffer.allocUnsafeSlow(this.size);
  }
  give(ab: ArrayBuffer): void {
    if (ab.byteLength === this.size && this.free.length < 16) this.free.push(ab);
  }
}

/**
 * A file's bytes in chunks, with one read ahead: the next read runs in the thread pool while the
 * current chunk is processed (so a busy machine's scheduling delays do not add up per chunk).
 */
async function* fileChunks(file: string | Buffer, recycler: ChunkRecycler, regularOnly: boolean): AsyncGenerator<Buffer> {
  // A file found by walking a directory or a glob is read only if it is a regular file: opened
  // without blocking (a FIFO would wait for a writer) and checked on the descriptor itself, so a
  // link to /dev/zero or a FIFO swapped in after the walk is skipped too (docs/inputs.md).
  const fh = regularOnly ? await open(file, constants.O_RDONLY | constants.O_NONBLOCK) : await blockingOpen(() => open(file, 'r'));
  if (regularOnly) {
    const st = await fh.stat().catch(async (e: unknown) => {
      await fh.close();
      throw e;
    });
    if (!st.isFile()) {
      await fh.close();
      throw new Error(`skipped, ${fileKind(st)}, not a regular file`);
    }
  }
  // Sequential reads (position null), one at a time: works for FIFOs and process substitution too,
  // where a positioned read fails (ESPIPE).
  const next = () => {
    const buf = recycler.take();
    const p = fh.read(buf, 0, buf.length, null).then((r) => (r.bytesRead === buf.length ? buf : buf.subarray(0, r.bytesRead)));
    p.catch(() => undefined); // awaited below; never an unhandled rejection
    return p;
  };
  let pending: Promise<Buffer> | null = null;
  try {
    pending = next();
    for (;;) {
      const chunk = await pending;
      pending = null;
      if (chunk.length === 0) return;
      pending = next();
      yield chunk;
    }
  } finally {
    if (pending) await pending.catch(() => undefined);
    await fh.close();
  }
}

/**
 * The process's stdin. Node ends it quietly when fd 0 is a directory (`< /`): the read failure
 * (EISDIR) is raised here instead, so it is an INPUT_ERROR naming `-`, as for a file
 * (docs/inputs.md).
 */
async function* processStdin(): AsyncGenerator<Buffer> {
  let dir = false;
  try {
    dir = fstatSync(0).isDirectory();
  } catch {
    // fd 0 closed or not a file: Node's stream says what it is
  }
  if (dir) throw Object.assign(new Error('EISDIR: stdin (-) is a directory, not a capture'), { code: 'EISDIR' });
  yield* process.stdin as AsyncIterable<Buffer>;
}

function rawStream(source: Source, opts: ReadOptions, recycler: ChunkRecycler): AsyncIterable<Buffer> {
  if (source.file === null) return opts.stdin ? (opts.stdin as AsyncIterable<Buffer>) : processStdin();
  return fileChunks(source.file, recycler, source.regularOnly === true);
}

export async function readSource(source: Source, sink: LineSink, opts: ReadOptions): Promise<ReadResult> {
  const pool = usePool(source, opts);
  const recycler = opts.recycler ?? new ChunkRecycler(CHUNK);
  const raw = rawStream(source, opts, recycler);
  const it = raw[Symbol.asyncIterator]();
  const src = new ByteSource(it);
  let gzip = false;
  let format: 'jsonl' | 'json' = 'jsonl';
  let error: ReadResult['error'] = null;
  let reader: { push(b: Buffer): void | Promise<void>; end(): void | Promise<void>; ledger: LineLedger } | null = null;
  const gz: { value: GzipFault | null } = { value: null };
  let bytes: AsyncIterator<Buffer> | null = null;
  try {
    await src.fill(2);
    gzip = src.length >= 2 && src.peek(2)[0] === 0x1f && src.peek(2)[1] === 0x8b;
    bytes = gzip ? gunzipMembers(src, gz) : src.rest();

    // The first bytes decide the format (sniff.ts); they are held until it is decided.
    const head: Buffer[] = [];
    let headLen = 0;
    let ended = false;
    let tried = 0;
    let kind: Sniffed | null = null;
    try {
      for (;;) {
        if (headLen === 0 || ended || headLen >= tried * 2 || headLen >= SNIFF_MAX) {
          tried = headLen;
          kind = sniff(head.length === 1 ? head[0]! : Buffer.concat(head, headLen), source.path, ended);
          if (kind) break;
        }
        const r = await bytes!.next();
        if (r.done) ended = true;
        else if (r.value.length > 0) {
          head.push(r.value);
          headLen += r.value.length;
        }
      }
    } catch (e) {
      // A read failure before the format is known: what was read is still read.
      error = { message: errText(e), byteOffset: gzip ? src.offset : headLen };
      kind = sniff(Buffer.concat(head, headLen), source.path, true);
      ended = true;
    }
    if (kind!.kind === 'unsupported') {
      // Not read as lines: one INPUT_ERROR says what it is.
      error ??= { message: `${gzip ? 'gzip holding ' : ''}${(kind as { what: string }).what}; not read`, byteOffset: 0 };
    } else {
      format = kind!.kind;
      reader =
        format === 'json'
          ? new (await loadDocumentReader())({ sink, maxValueBytes: opts.maxLineBytes, splits: opts.splits })
          : pool
            ? new ParallelLineReader(pool, {
                maxLineBytes: opts.maxLineBytes,
                sink,
                recycle: gzip || source.file === null ? undefined : (ab) => recycler.give(ab),
                ownsChunks: !gzip && source.file !== null,
                local: { needles: opts.needles, validateAll: opts.validateAll, keep: opts.keep ?? null, keeps: opts.keeps ?? null },
                classify: opts.classify ?? null,
              })
            : new LineReader({
                needles: opts.needles,
                maxLineBytes: opts.maxLineBytes,
                validateAll: opts.validateAll,
                sink,
                keep: opts.keep,
                classify: opts.classify ?? null,
                keeps: opts.keeps ?? null,
              });
      const feed = async (chunk: Buffer) => {
        const wait = reader!.push(chunk);
        if (wait) await wait;
        // The single-threaded line reader and the document reader are done with the chunk (they copy what they keep).
        if (!gzip && (reader instanceof LineReader || format === 'json') && chunk.buffer instanceof ArrayBuffer && chunk.byteOffset === 0) recycler.give(chunk.buffer);
        opts.progress?.(reader!.ledger.bytes);
        const drained = opts.drain?.();
        if (drained) await drained;
      };
      for (const chunk of head) await feed(chunk);
      head.length = 0;
      if (!ended) {
        for (;;) {
          const r = await bytes!.next();
          if (r.done) break;
          await feed(r.value);
        }
      }
    }
  } catch (e) {
    error ??= { message: errText(e), byteOffset: gzip ? src.offset : (reader?.ledger.bytes ?? 0) };
  } finally {
    // Also after a failure: the file (and an inflater) would otherwise stay open.
    await bytes?.return?.(undefined)?.catch(() => undefined);
    if (source.file !== null) await it.return?.(undefined)?.catch(() => undefined);
  }
  if (gz.value && !error) error = gz.value;
  if (!reader) reader = new LineReader({ needles: opts.needles, maxLineBytes: opts.maxLineBytes, validateAll: opts.validateAll, sink });
  await reader.end();
  return { format, gzip, ledger: reader.ledger, error };
}

/** The document reader is loaded only for JSON documents: it costs startup time on every JSONL run otherwise. */
async function loadDocumentReader(): Promise<typeof DocumentReader> {
  return (await import('./documents.js')).DocumentReader;
}

function toBuf(v: unknown): Buffer {
  return Buffer.isBuffer(v) ? v : Buffer.from(v as string);
}

function errText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err === 'object') {
    if (err.code === 'Z_DATA_ERROR' || err.code === 'Z_BUF_ERROR') return `corrupt gzip data (${err.message})`;
    if (err.message === 'unexpected end of file') return 'truncated gzip stream (unexpected end of file)';
    return err.code && !String(err.message).startsWith(err.code) ? `${err.code}: ${err.message}` : String(err.message);
  }
  return String(e);
}
