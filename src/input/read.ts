/**
 * Reading one source: bytes (gzip detected by magic bytes, not by name), then either the JSONL
 * fast path (lines.ts) or a JSON document (documents.ts). A read that fails mid-input keeps what
 * was read and reports the failure with its byte offset.
 */
import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Source } from './sources.js';
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
  constructor(readonly size: number) {}
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
async function* fileChunks(file: string, recycler: ChunkRecycler): AsyncGenerator<Buffer> {
  const fh = await open(file, 'r');
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

function rawStream(source: Source, opts: ReadOptions, recycler: ChunkRecycler): AsyncIterable<Buffer> {
  if (source.file === null) return (opts.stdin ?? process.stdin) as AsyncIterable<Buffer>;
  return fileChunks(source.file, recycler);
}

export async function readSource(source: Source, sink: LineSink, opts: ReadOptions): Promise<ReadResult> {
  const pool = usePool(source, opts);
  const recycler = new ChunkRecycler(CHUNK);
  const raw = rawStream(source, opts, recycler);
  const it = raw[Symbol.asyncIterator]();
  let compressedBytes = 0;
  let first: IteratorResult<Buffer>;
  try {
    first = await it.next();
  } catch (e) {
    const ledger: LineLedger = { lines: 0, blank: 0, malformed: 0, oversized: 0, parsed: 0, unparsed: 0, bytes: 0 };
    return { format: 'jsonl', gzip: false, ledger, error: { message: errText(e), byteOffset: 0 } };
  }
  const head = first.done ? Buffer.alloc(0) : toBuf(first.value);
  const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;

  async function* rest(): AsyncGenerator<Buffer> {
    if (head.length) {
      compressedBytes += head.length;
      yield head;
    }
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      const b = toBuf(r.value);
      compressedBytes += b.length;
      yield b;
    }
  }

  let bytes: AsyncIterable<Buffer>;
  if (gzip) {
    const gunzip = createGunzip({ chunkSize: 256 * 1024 });
    const src = Readable.from(rest());
    src.on('error', (e) => gunzip.destroy(e));
    src.pipe(gunzip);
    bytes = gunzip;
  } else {
    bytes = rest();
  }

  let reader: { push(b: Buffer): void | Promise<void>; end(): void | Promise<void>; ledger: LineLedger } | null = null;
  let format: 'jsonl' | 'json' = 'jsonl';
  let error: ReadResult['error'] = null;
  try {
    for await (const chunk of bytes) {
      if (!reader) {
        format = looksLikeDocument(chunk, source.path) ? 'json' : 'jsonl';
        reader =
          format === 'json'
            ? new (await loadDocumentReader())({ sink, maxValueBytes: opts.maxLineBytes })
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
      }
      const wait = reader.push(chunk);
      if (wait) await wait;
      // The single-threaded line reader is done with the chunk (it copies what it keeps).
      if (!gzip && reader instanceof LineReader && chunk.buffer instanceof ArrayBuffer) recycler.give(chunk.buffer);
      opts.progress?.(reader.ledger.bytes);
      const drained = opts.drain?.();
      if (drained) await drained;
    }
  } catch (e) {
    const decoded = reader?.ledger.bytes ?? 0;
    error = { message: errText(e), byteOffset: gzip ? compressedBytes : decoded };
  } finally {
    // Also after a gzip error: the file under a failed gunzip would otherwise stay open.
    if (source.file !== null) await it.return?.(undefined)?.catch(() => undefined);
  }
  if (!reader) reader = new LineReader({ needles: opts.needles, maxLineBytes: opts.maxLineBytes, validateAll: opts.validateAll, sink });
  await reader.end();
  return { format, gzip, ledger: reader.ledger, error };
}

/** stream-json is loaded only for JSON documents: it costs startup time on every JSONL run otherwise. */
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

/**
 * A JSON document (a top-level array, or concatenated pretty-printed values) rather than JSONL:
 * the first non-blank byte is `[`, or a `.json` file whose first line is not a complete value.
 */
export function looksLikeDocument(chunk: Buffer, name: string): boolean {
  let i = 0;
  if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
  while (i < chunk.length && (chunk[i] === 0x20 || chunk[i] === 0x0a || chunk[i] === 0x0d || chunk[i] === 0x09)) i++;
  if (i >= chunk.length) return false;
  if (chunk[i] === 0x5b) return true;
  if (chunk[i] !== 0x7b || !/\.json(\.gz)?$/i.test(name)) return false;
  const nl = chunk.indexOf(0x0a, i);
  if (nl === -1) return false;
  try {
    JSON.parse(chunk.toString('utf8', i, nl));
    return false;
  } catch {
    return true;
  }
}
