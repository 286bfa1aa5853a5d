/**
 * The JSONL fast path (DESIGN §2): a byte-level reader that finds newlines in Buffers, keeps the
 * physical line number of every record, and tests the profile's needles on bytes before any decode
 * or JSON.parse. Lines without a needle are counted, never decoded.
 *
 * Every physical line lands in exactly one counter: blank, malformed, oversized, or a record
 * (either handed to `onRecord`, or counted as `unparsed` when no needle matched).
 */

export interface LineLedger {
  lines: number;
  blank: number;
  malformed: number;
  oversized: number;
  /** Records handed to the profile (they passed a needle, or --validate-all). */
  parsed: number;
  /** Records without a needle: counted, never parsed. */
  unparsed: number;
  bytes: number;
}

export interface LineSink {
  /**
   * A parsed record. `raw` is the line's bytes (a view valid only during the call), or null when
   * the bytes were read elsewhere (a worker, `--jobs`); `digest` is then a SHA-256 of those bytes.
   */
  record(value: unknown, line: number, raw: Buffer | null, digest?: string): void;
  malformed(line: number, reason: 'invalid-json' | 'truncated', bytes: number): void;
  oversized(line: number, bytes: number): void;
}

export interface LineReaderOptions {
  needles: readonly Buffer[];
  maxLineBytes: number;
  /** Parse every line, needle or not. */
  validateAll: boolean;
  sink: LineSink;
  /** Strip a UTF-8 BOM at the start of the first chunk (default true). */
  bom?: boolean;
  /**
   * Parallel reading (`--jobs`): a non-blank, not oversized line is handed here instead of being
   * evaluated (needles, JSON.parse) in this thread. `buf` is the chunk (`inChunk`) or a line of its own.
   */
  dispatch?: (buf: Buffer, s: number, e: number, line: number, inChunk: boolean, terminated: boolean, bytes: number) => void;
}

const NL = 0x0a;
const CR = 0x0d;

export class LineReader {
  readonly ledger: LineLedger = { lines: 0, blank: 0, malformed: 0, oversized: 0, parsed: 0, unparsed: 0, bytes: 0 };
  private readonly eval: LineEvaluator | null;
  private readonly dispatch: LineReaderOptions['dispatch'] | null;
  private readonly max: number;
  private readonly sink: LineSink;
  /** Pieces of a line that spans chunks. */
  private carry: Buffer[] = [];
  private carryLen = 0;
  /** Skipping the rest of an oversized line. */
  private skipping = false;
  private skippedLen = 0;
  private first = true;

  constructor(opts: LineReaderOptions) {
    this.max = opts.maxLineBytes;
    this.sink = opts.sink;
    this.dispatch = opts.dispatch ?? null;
    this.eval = this.dispatch ? null : new LineEvaluator(opts.needles, opts.validateAll, opts.sink, this.ledger);
    if (opts.bom === false) this.first = false;
  }

  push(chunk: Buffer): void {
    this.ledger.bytes += chunk.length;
    let pos = 0;
    if (this.first && chunk.length > 0) {
      this.first = false;
      if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) pos = 3;
    }
    this.eval?.newChunk();
    const len = chunk.length;
    while (pos < len) {
      const nl = chunk.indexOf(NL, pos);
      if (nl === -1) {
        this.hold(chunk, pos, len);
        return;
      }
      if (this.skipping) {
        this.ledger.lines++;
        this.ledger.oversized++;
        this.sink.oversized(this.ledger.lines, this.skippedLen + (nl - pos));
        this.skipping = false;
        this.skippedLen = 0;
      } else if (this.carryLen > 0) {
        const piece = chunk.subarray(pos, nl);
        if (this.carryLen + piece.length > this.max) {
          this.ledger.lines++;
          this.ledger.oversized++;
          this.sink.oversized(this.ledger.lines, this.carryLen + piece.length);
        } else {
          this.carry.push(piece);
          const line = Buffer.concat(this.carry, this.carryLen + piece.length);
          this.line(line, 0, line.length, false, true);
        }
        this.carry = [];
        this.carryLen = 0;
      } else {
        this.line(chunk, pos, nl, true, true);
      }
      pos = nl + 1;
    }
  }

  /** Keeps the unfinished tail of a chunk, or starts skipping it when it is already too long. */
  private hold(chunk: Buffer, pos: number, end: number): void {
    const n = end - pos;
    if (this.skipping) {
      this.skippedLen += n;
      return;
    }
    if (this.carryLen + n > this.max) {
      this.skipping = true;
      this.skippedLen = this.carryLen + n;
      this.carry = [];
      this.carryLen = 0;
      return;
    }
    // Copy: the stream may reuse the chunk's memory.
    this.carry.push(Buffer.from(chunk.subarray(pos, end)));
    this.carryLen += n;
  }

  /** End of input: a last line without newline is still a line (truncated if it does not parse). */
  end(): void {
    if (this.skipping) {
      this.ledger.lines++;
      this.ledger.oversized++;
      this.sink.oversized(this.ledger.lines, this.skippedLen);
      this.skipping = false;
    } else if (this.carryLen > 0) {
      const line = Buffer.concat(this.carry, this.carryLen);
      this.carry = [];
      this.carryLen = 0;
      this.line(line, 0, line.length, false, false);
    }
  }

  private line(buf: Buffer, start: number, end: number, inChunk: boolean, terminated: boolean): void {
    const n = ++this.ledger.lines;
    let e = end;
    if (e > start && buf[e - 1] === CR) e--;
    if (e - start > this.max) {
      this.ledger.oversized++;
      this.sink.oversized(n, e - start);
      return;
    }
    // Blank: only ASCII whitespace.
    let s = start;
    while (s < e) {
      const c = buf[s]!;
      if (c !== 0x20 && c !== 0x09 && c !== CR) break;
      s++;
    }
    if (s === e) {
      this.ledger.blank++;
      return;
    }
    if (this.dispatch) this.dispatch(buf, s, e, n, inChunk, terminated, e - start);
    else this.eval!.line(buf, s, e, n, inChunk, terminated, e - start);
  }
}

/**
 * What happens to one non-blank line that fits: the needle test on bytes, then (on a hit, or with
 * --validate-all) decode and JSON.parse. Shared by the single-threaded reader and the workers.
 */
export class LineEvaluator {
  private readonly needles: readonly Buffer[];
  private readonly next: number[];
  private readonly all: boolean;

  constructor(
    needles: readonly Buffer[],
    validateAll: boolean,
    private readonly sink: LineSink,
    private readonly ledger: Pick<LineLedger, 'parsed' | 'unparsed' | 'malformed'>,
  ) {
    this.needles = needles;
    this.next = needles.map(() => -1);
    this.all = validateAll || needles.length === 0;
  }

  /** Call before the lines of a new buffer (the needle positions cached are per buffer). */
  newChunk(): void {
    for (let i = 0; i < this.next.length; i++) this.next[i] = -1;
  }

  /** `s..e` is the line without CR and leading blanks; `bytes` its length as reported. */
  line(buf: Buffer, s: number, e: number, n: number, inChunk: boolean, terminated: boolean, bytes: number): void {
    if (!this.all && !(inChunk ? this.hasNeedleInChunk(buf, s, e) : this.hasNeedle(buf, s, e))) {
      if (!terminated && !looksComplete(buf, s, e)) {
        // A crash mid-write: the last line is cut. Counted as malformed, whatever it held.
        this.ledger.malformed++;
        this.sink.malformed(n, 'truncated', bytes);
        return;
      }
      this.ledger.unparsed++;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(buf.toString('utf8', s, e));
    } catch {
      this.ledger.malformed++;
      this.sink.malformed(n, terminated ? 'invalid-json' : 'truncated', bytes);
      return;
    }
    this.ledger.parsed++;
    this.sink.record(value, n, buf.subarray(s, e));
  }

  /** Needle test for a line inside the current chunk: each needle's next occurrence is reused until passed. */
  private hasNeedleInChunk(buf: Buffer, s: number, e: number): boolean {
    const needles = this.needles;
    for (let i = 0; i < needles.length; i++) {
      const nd = needles[i]!;
      let at = this.next[i]!;
      if (at !== Infinity && at < s) {
        at = buf.indexOf(nd, s);
        if (at === -1) at = Infinity;
        this.next[i] = at;
      }
      if (at + nd.length <= e) return true;
    }
    return false;
  }

  private hasNeedle(buf: Buffer, s: number, e: number): boolean {
    const view = s === 0 && e === buf.length ? buf : buf.subarray(s, e);
    for (const nd of this.needles) if (view.indexOf(nd) !== -1) return true;
    return false;
  }
}

/** A cheap completeness test for an unterminated, needle-less last line: it must end a JSON value. */
function looksComplete(buf: Buffer, s: number, e: number): boolean {
  let i = e - 1;
  while (i > s && (buf[i] === 0x20 || buf[i] === 0x09)) i--;
  const c = buf[i];
  const o = buf[s];
  if (o === 0x7b) return c === 0x7d; // {…}
  if (o === 0x5b) return c === 0x5d; // […]
  return true;
}
