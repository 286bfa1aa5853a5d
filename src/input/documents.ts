/**
 * JSON documents (a top-level array of records, or a stream of concatenated pretty-printed
 * values): a byte scanner finds where each record starts and ends (strings, escapes, bracket
 * nesting) without building anything, and each record's bytes are parsed on their own, as a JSONL
 * line is. So a record is bounded like a JSONL line (docs/inputs.md): one longer than
 * `maxValueBytes` (e.g. a 400 MB string) is never held, only counted as oversized, and reading goes
 * on after it; memory is that of the largest record kept, not of the document.
 *
 * A top-level array's elements are the records; otherwise each top-level value is one. A well-formed
 * document reads exactly as `JSON.parse` reads it (docs/inputs.md): no recovery heuristic ever
 * applies to valid text. A record that does not parse is one malformed record at the line it starts
 * on; where the structure itself breaks (a closing bracket that does not match, a raw newline inside
 * a string, a record that never closes, junk between records), the scanner counts one malformed
 * record and resumes at the next line that starts with `{`, so a syntax error never silently drops
 * the rest of the document.
 *
 * A record that began at column 0 and is still open when a later line starts with `{` at column 0
 * may have lost its closing bracket, or may hold nested objects printed at column 0 (Python's
 * `json.dump(…, indent=0)`). The scanner cannot tell until the record ends, so it only notes the first
 * such line (`restart`) and reads on: if the record closes, it was valid and nothing happens; if its
 * structure breaks (or it never closes), the record is malformed up to that line and its bytes from
 * that line are scanned again, this time ending a record at every `{` at column 0 (`eager`). A
 * record already over `maxValueBytes` is not held, so it cannot be re-scanned: it is oversized.
 *
 * A record over `maxValueBytes` holding a split array (docs/inputs.md, "Large documents") is read
 * element by element. Whether it is split is decided on exactly its first `maxValueBytes` + 1 bytes,
 * whatever the chunk boundaries; from then on its skeleton (the bytes outside the elements, bounded)
 * is kept, and at its end the record is JSON.parse's only if the skeleton parses, the array's commas
 * are JSON's and each element parsed; otherwise its elements read stay and it is unverified
 * (DOCUMENT_UNVERIFIED), failing closed.
 *
 * Ledger for documents: `lines` are physical lines, `parsed` the records.
 */
import { bomMatched, type LineLedger, type LineSink, type UnverifiedReason } from './lines.js';

const NL = 0x0a;
const CR = 0x0d;
const SP = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;
const BSLASH = 0x5c;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACK = 0x5b;
const RBRACK = 0x5d;

const isWs = (c: number) => c === SP || c === NL || c === CR || c === TAB;
/** Ends a bare token (number, true, false, null, or junk). */
const endsToken = (c: number) => isWs(c) || c === COMMA || c === RBRACK || c === RBRACE || c === LBRACK || c === LBRACE || c === QUOTE;

function find(chunk: Buffer, byte: number, from: number): number {
  const p = chunk.indexOf(byte, from);
  return p === -1 ? chunk.length : p;
}

interface Element {
  line: number;
  /** Pieces from earlier chunks (copies), unless skipping. */
  pieces: Buffer[];
  size: number;
  /** Over the limit: no longer held, only measured. */
  skipping: boolean;
  /** A bare token (number, literal, junk) rather than an object, array or string. */
  token: boolean;
  /** Starts at column 0 of its line. */
  col0: boolean;
  /** The first later line that starts with `{` at column 0 (outside strings), while this record is open. */
  restart: Restart | null;
}

/**
 * A record (an object) that may hold one of the `splits` arrays (docs/inputs.md, "Large
 * documents"): the path it is on, and that array's elements, so that if the record outgrows
 * `maxValueBytes` each element becomes a record of its own instead of the whole being oversized.
 */
interface SplitTrack {
  /** Per on-path object (stack depth 1, 2, …): the splits whose keys matched down to it (a bit each). */
  masks: number[];
  /** The deepest on-path object expects a key next (after `{` or `,`). */
  expectKey: boolean;
  /** Splits whose next key is the key just read at the deepest on-path object (its value comes next). */
  keyMask: number;
  inKey: boolean;
  keyFrom: number;
  keyPieces: Buffer[];
  keyLen: number;
  /** The key is too long to be any split's key, even written with escapes: it matches none. */
  keyBad: boolean;
  /** The key has an escape: decoded (as JSON.parse reads it) before it is compared. */
  keyEsc: boolean;
  /** Per on-path object: the splits whose key at that depth it already held (a repeat is caught). */
  seen: number[];
  /**
   * The first key on a split path read twice in one on-path object (`log` twice, or `entries` twice
   * in `log`): JSON.parse keeps the last, this reader meets the first, so a split document holding
   * one is not read exactly (DUPLICATE_KEY, docs/inputs.md "Large documents").
   */
  repeat: { line: number; key: string; reported: boolean } | null;
  /** Stack depth directly inside the split array (0: not in it). */
  arrayDepth: number;
  /** Record offsets of the split array's `[` and `]` (-1: not met yet). */
  arrayS: number;
  arrayE: number;
  /** In the split array, the last thing met: 0 its `[`, 1 an element, 2 a comma (a comma after `[` or a comma, or `]` after a comma, is no JSON). */
  sep: 0 | 1 | 2;
  /** The split array is no JSON between its elements: JSON.parse rejects the record. */
  invalid: boolean;
  /** An element did not parse (a malformed record at its line): JSON.parse rejects the record. */
  badElement: boolean;
  /**
   * Splitting: an element passed the bound and was skipped unread, so its syntax and the separators
   * around it (a missing comma merges two elements into one) are not checked: the record cannot be verified.
   */
  overElement: boolean;
  /** Elements read as records. */
  records: number;
  /** Splitting: the skeleton (every byte outside the array's elements, compacted), or null past its bound. */
  skel: Skeleton | null;
  /** Splitting: where in this chunk the skeleton's next bytes start (-1: inside the split array). */
  skelFrom: number;
  /** The split array was read to its end (a second one is not split). */
  done: boolean;
  pointer: string;
  index: number;
  /** The element being read: its start as a record offset and line. */
  open: { s: number; line: number } | null;
  /** Elements read while the record was held whole. */
  spans: Array<{ s: number; e: number; line: number; index: number }>;
  /** Splitting: the record is no longer held, each element is (bounded by maxValueBytes). */
  split: boolean;
  sub: Buffer[];
  subSize: number;
  subFrom: number;
  subSkipping: boolean;
}

/** Where to resume if the record turns out broken: byte offset in the record, and the line state there. */
interface Restart {
  offset: number;
  line: number;
  lines: number;
}

/** A raw control character (U+0000–U+001F), which JSON.parse refuses inside a string. */
const CONTROL = /[\x00-\x1f]/;
const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
/** A byte JSON allows after a backslash: `" \\ / b f n r t u`. */
const isEscape = (c: number) => c === QUOTE || c === BSLASH || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74 || c === 0x75;

/**
 * The skeleton of a record read element by element (docs/design.md §8): its bytes outside the split
 * array's elements, kept so that at the record's end `JSON.parse` decides whether the whole record
 * is JSON, as it would reading it whole. The array is kept as `[]` (its separators are checked by
 * the tracker, its elements each parsed), each string as `""` once its content is checked here as
 * JSON.parse checks it (no raw control character, only JSON's escapes), each run of whitespace as one
 * space; the rest as is. Past `limit` bytes nothing more is kept and the record cannot be verified.
 */
class Skeleton {
  private pieces: Buffer[] = [];
  size = 0;
  /** Over the limit: no longer kept. */
  over = false;
  /** A string JSON.parse rejects. */
  bad = false;
  private inStr = false;
  private esc = false;
  /** Hex digits still due after `\u`. */
  private hex = 0;
  private ws = false;

  constructor(private readonly limit: number) {}

  add(buf: Buffer, from: number, to: number): void {
    if (this.bad) return;
    let keep = this.inStr ? -1 : from;
    let nq = -1;
    let nb = -1;
    for (let i = from; i < to; i++) {
      if (this.inStr && this.hex === 0 && !this.esc) {
        // A string's plain content, up to its next quote or backslash: only a raw control byte matters.
        if (nq < i) nq = Math.min(find(buf, QUOTE, i), to);
        if (nb < i) nb = Math.min(find(buf, BSLASH, i), to);
        const stop = nq < nb ? nq : nb;
        for (let j = i; j < stop; j += 1 << 16) if (CONTROL.test(buf.toString('latin1', j, Math.min(stop, j + (1 << 16))))) return void (this.bad = true);
        i = stop;
        if (i >= to) break;
      }
      const c = buf[i]!;
      if (this.inStr) {
        if (this.hex > 0) {
          if (!isHex(c)) return void (this.bad = true);
          this.hex--;
        } else if (this.esc) {
          if (!isEscape(c)) return void (this.bad = true);
          this.esc = false;
          if (c === 0x75) this.hex = 4;
        } else if (c === BSLASH) this.esc = true;
        else if (c === QUOTE) {
          this.inStr = false;
          keep = i;
        } else if (c < SP) return void (this.bad = true);
        continue;
      }
      if (isWs(c)) {
        if (this.ws) {
          this.keep(buf, keep, i);
          keep = i + 1;
        } else this.ws = true;
        continue;
      }
      this.ws = false;
      if (c === QUOTE) {
        this.inStr = true;
        this.keep(buf, keep, i + 1);
        keep = -1;
      }
    }
    if (keep >= 0) this.keep(buf, keep, to);
  }

  private keep(buf: Buffer, from: number, to: number): void {
    if (to <= from || this.over) return;
    this.size += to - from;
    if (this.size > this.limit) {
      this.over = true;
      this.pieces = [];
    } else this.pieces.push(Buffer.from(buf.subarray(from, to)));
  }

  /** At the record's end: whether JSON.parse accepts it (`over`: not known). */
  verdict(): 'json' | 'invalid' | 'over' {
    if (this.bad) return 'invalid';
    if (this.over) return 'over';
    try {
      JSON.parse(Buffer.concat(this.pieces, this.size).toString('utf8'));
      return 'json';
    } catch {
      return 'invalid';
    }
  }
}

export class DocumentReader {
  readonly ledger: LineLedger = { lines: 0, blank: 0, malformed: 0, oversized: 0, parsed: 0, unparsed: 0, bytes: 0 };
  private readonly sink: LineSink;
  private readonly maxValueBytes: number;
  /** Line of the byte being scanned (1-based). */
  private line = 1;
  /** The current line has a byte that is not its newline (for the count of physical lines). */
  private lineOpen = false;
  /** Bytes of a UTF-8 BOM the input has started with so far, not yet scanned; -1 once it is known whether it starts with one. */
  private bom = 0;
  /** The first value of the input is an array: its elements are the records. */
  private arrayMode: boolean | null = null;
  /** Inside a top-level array (between or in its elements). */
  private outer = false;
  /** In the top-level array, the last thing met: 0 its `[` (or a broken element), 1 an element, 2 a comma. */
  private outerSep: 0 | 1 | 2 = 0;
  /** Records parsed before the top-level array opened. */
  private outerParsed = 0;
  /** Records parsed before the first top-level array opened (-1: none has opened yet). */
  private firstParsed = -1;
  /** The first top-level array has closed. */
  private arrayClosed = false;
  /**
   * Where the first value after the closed top-level array starts (`[a][b]`, `[a]{b}`, `[a] x`):
   * `JSON.parse` rejects the file, so every record read from it is kept, not verified (docs/inputs.md).
   */
  private trailing = 0;
  /**
   * The first place the top-level array is no JSON between its elements (two elements with no comma
   * between them, a comma after `[` or after a comma, `]` after a comma): `JSON.parse` rejects the
   * document, so the records read from the array are kept but unverified (docs/inputs.md).
   */
  private outerBad = 0;
  /** Brackets open inside the current record (their bytes). */
  private stack: number[] = [];
  private inString = false;
  private escaped = false;
  private elem: Element | null = null;
  /** After a structural error: skipping to a line that starts with `{`. */
  private recovering = false;
  private atLineStart = true;
  /** The previous chunk ended with a newline (or there was none: the input starts a line). */
  private prevEndedLine = true;
  /** Re-scanning the bytes of a broken record: a `{` at column 0 ends the open record at once. */
  private eager = false;
  /**
   * A record held whole that reached a split array (a HAR's `log.entries`) and is no JSON: the
   * document JSON.parse rejects. Records read from its bytes or after it are not JSON.parse's, so,
   * as in split mode, the document is unverified at its end (`parsed`: the records read before it).
   */
  private broken: { line: number; reason: 'invalid-json' | 'truncated'; parsed: number } | null = null;

  /** Key paths (`["log", "entries"]`) of arrays whose elements may be records of their own. */
  private readonly splits: Buffer[][];
  /** Raw bytes past which a key cannot be a split's key (an escape is at most 6 bytes per byte it stands for). */
  private readonly maxKeyRaw: number;
  private sp: SplitTrack | null = null;

  constructor(opts: { sink: LineSink; maxValueBytes: number; splits?: ReadonlyArray<readonly string[]> }) {
    this.sink = opts.sink;
    this.maxValueBytes = opts.maxValueBytes;
    this.splits = (opts.splits ?? []).filter((k) => k.length > 0).slice(0, 30).map((k) => k.map((x) => Buffer.from(x, 'utf8')));
    this.maxKeyRaw = 6 * Math.max(0, ...this.splits.flatMap((k) => k.map((x) => x.length)));
  }

  push(chunk: Buffer): void {
    this.ledger.bytes += chunk.length;
    let i = 0;
    if (this.bom >= 0) {
      // A BOM is dropped however the reads cut it (docs/design.md §2); bytes that only began one are the document's.
      const held = this.bom;
      const k = bomMatched(chunk, held);
      if (k >= 0 && k < 3) {
        this.bom = k;
        return;
      }
      this.bom = -1;
      if (k === 3) i = 3 - held;
      else this.scanHeldBom(held);
    }
    this.scan(chunk, i);
  }

  /** The first `held` bytes of a BOM, read before it turned out not to be one: the input's own. */
  private scanHeldBom(held: number): void {
    if (held > 0) this.scan(Buffer.from([0xef, 0xbb, 0xbf].slice(0, held)), 0);
  }

  private scan(chunk: Buffer, from: number): void {
    let i = from;
    const n = chunk.length;
    /** Where the current element starts in this chunk (0 if it began in an earlier one). */
    let start = 0;
    let nq = -1;
    let nb = -1;
    let nn = -1;
    /**
     * The index at or after which the open record may outgrow the bound while it may still be split
     * (so the split is decided there); never later than that byte. -1: to be worked out again.
     */
    let lim = -1;
    const limit = () => (this.elem !== null && this.sp !== null && !this.sp.split && !this.elem.skipping ? start + this.maxValueBytes + 1 - this.elem.size : Infinity);
    while (i < n) {
      const c = chunk[i]!;
      if (this.elem) {
        if (i >= lim) {
          lim = limit();
          if (i >= lim) {
            // A record that may be split has just outgrown the bound: whether it is split is decided
            // here, on exactly its first maxValueBytes + 1 bytes, whatever the chunk boundaries.
            this.hold(chunk, start, i);
            start = i;
            lim = limit();
            continue;
          }
        }
        if (this.inString) {
          if (this.escaped) {
            if (c === NL) {
              // A raw newline after a backslash is no escape either: the structure is lost.
              this.breakElement(chunk, start, i);
              lim = -1;
              start = i;
              continue;
            }
            this.escaped = false;
            this.lineOpen = true;
            i++;
            continue;
          }
          // Jump to the next byte that matters in a string (quote, backslash, raw newline); each
          // search is redone only once passed, so the scan stays linear.
          if (nq < i) nq = find(chunk, QUOTE, i);
          if (nb < i) nb = find(chunk, BSLASH, i);
          if (nn < i) nn = find(chunk, NL, i);
          const stop = nq < nb ? (nq < nn ? nq : nn) : nb < nn ? nb : nn;
          if (stop > i) this.lineOpen = true;
          if (stop >= lim) {
            // Not past the byte where the record outgrows the bound (the split is decided there).
            i = lim;
            continue;
          }
          i = stop;
          if (i >= n) continue;
          const d = chunk[i]!;
          if (d === BSLASH) {
            this.escaped = true;
            if (this.sp?.inKey) this.sp.keyEsc = true;
            i++;
          } else if (d === QUOTE) {
            this.inString = false;
            if (this.sp?.inKey) this.keyEnd(chunk, i);
            i++;
            if (this.stack.length === 0) this.finish(chunk, start, i);
          } else {
            // A raw newline cannot be inside a JSON string: the structure is lost from here.
            this.breakElement(chunk, start, i);
            lim = -1;
            start = i;
          }
          continue;
        }
        if (this.elem.token) {
          if (endsToken(c)) {
            this.finish(chunk, start, i);
            continue; // c is looked at again, between records
          }
          this.lineOpen = true;
          i++;
          continue;
        }
        if (c === NL) this.newline();
        else {
          this.lineOpen = true;
          if (this.sp !== null && !isWs(c)) this.track(c, chunk, start, i);
          if (c === QUOTE) this.inString = true;
          else if (c === LBRACE && this.elem.col0 && this.elem.line < this.line && (i === 0 ? this.prevEndedLine : chunk[i - 1] === NL)) {
            // A record that began at column 0 is still open when a later line starts with `{` at
            // column 0: nested objects printed at column 0, or a record that lost its closing
            // bracket. Only once the record is known broken (re-scanning it) does it end here,
            // malformed, with the new line read as the next record; until then the line is noted.
            if (this.eager) {
              this.breakElement(chunk, start, i, false);
              lim = -1;
              start = i;
              continue;
            }
            if (!this.elem.restart && !this.elem.skipping) this.elem.restart = { offset: this.elem.size + (i - start), line: this.line, lines: this.ledger.lines };
            this.stack.push(c);
          } else if (c === LBRACE || c === LBRACK) this.stack.push(c);
          else if (c === RBRACE || c === RBRACK) {
            const open = this.stack.pop();
            if (open !== (c === RBRACE ? LBRACE : LBRACK)) {
              i++;
              this.breakElement(chunk, start, i);
              lim = -1;
              start = i;
              continue;
            }
            if (this.stack.length === 0) {
              i++;
              this.finish(chunk, start, i);
              continue;
            }
          }
        }
        i++;
        continue;
      }

      // Between records.
      if (c === NL) {
        this.newline();
        i++;
        continue;
      }
      this.lineOpen = true;
      if (isWs(c)) {
        i++;
        continue;
      }
      const lineStart = this.atLineStart;
      this.atLineStart = false;
      if (this.recovering) {
        if (!(lineStart && c === LBRACE)) {
          i++;
          continue;
        }
        this.recovering = false;
      }
      if (this.arrayMode === null) this.arrayMode = c === LBRACK;
      if (this.arrayMode && this.arrayClosed && !this.outer && this.trailing === 0) this.trailing = this.line;
      if (this.arrayMode && !this.outer && c === LBRACK) {
        if (this.firstParsed < 0) this.firstParsed = this.ledger.parsed;
        this.outer = true;
        this.outerSep = 0;
        this.outerParsed = this.ledger.parsed;
        this.outerBad = 0;
        i++;
        continue;
      }
      if (this.outer && c === COMMA) {
        if (this.outerSep !== 1) this.badSeparator();
        this.outerSep = 2;
        i++;
        continue;
      }
      if (this.outer && c === RBRACK) {
        if (this.outerSep === 2) this.badSeparator();
        this.closeOuter();
        this.arrayClosed = true;
        i++;
        continue;
      }
      // A record starts here.
      if (this.outer) {
        if (this.outerSep === 1) this.badSeparator();
        this.outerSep = 1;
      }
      start = i;
      this.elem = { line: this.line, pieces: [], size: 0, skipping: false, token: false, col0: i === 0 ? this.prevEndedLine : chunk[i - 1] === NL, restart: null };
      this.sp = c === LBRACE && this.splits.length > 0 ? newTrack((1 << this.splits.length) - 1) : null;
      lim = -1;
      if (c === LBRACE || c === LBRACK) this.stack = [c];
      else if (c === QUOTE) this.inString = true;
      else if (c === RBRACE || c === RBRACK) {
        // A closing bracket with nothing open: junk.
        i++;
        this.breakElement(chunk, start, i);
        lim = -1;
        start = i;
        continue;
      } else this.elem.token = true;
      i++;
    }
    // The chunk ends inside a record: keep its bytes (a copy) unless it is already too long.
    if (this.sp?.inKey) this.keyPiece(chunk, n);
    if (this.elem) this.hold(chunk, start, n);
    if (this.sp) {
      this.sp.subFrom = 0;
      if (this.sp.skelFrom >= 0) this.sp.skelFrom = 0;
    }
    if (n > 0) this.prevEndedLine = chunk[n - 1] === NL;
  }

  end(): void {
    if (this.bom > 0) {
      const held = this.bom;
      this.bom = -1;
      this.scanHeldBom(held);
    }
    if (this.elem?.skipping && this.sp?.split) {
      // A split document cut short: its elements read so far are kept, and are not JSON.parse's (it rejects the document).
      const e = this.elem;
      this.elem = null;
      const sp = this.sp!;
      this.sp = null;
      this.stack = [];
      this.inString = false;
      this.malformed(e.line, 'truncated', e.size);
      this.unverified(e.line, 'truncated', sp.records);
    } else if (this.elem) {
      if (this.elem.token && !this.inString) this.finish(Buffer.alloc(0), 0, 0);
      else if (this.elem.restart && !this.elem.skipping) {
        // A record that never closes, with a later line that starts with `{`: broken, re-scanned.
        this.breakElement(Buffer.alloc(0), 0, 0, true, 'truncated');
        this.end();
        return;
      } else {
        const e = this.elem;
        this.elem = null;
        this.stack = [];
        this.inString = false;
        if (e.skipping) this.oversized(e);
        else {
          this.malformed(e.line, 'truncated', e.size);
          if (reached(this.sp)) this.markBroken(e.line, 'truncated');
        }
        this.sp = null;
      }
    } else if (this.outer) {
      // The top-level array is never closed: the document was cut (what was read is kept).
      this.malformed(this.line - (this.lineOpen ? 0 : 1), 'truncated', 0);
      this.closeOuter();
    }
    if (this.outer) this.closeOuter(); // the input ended inside a record of the array (reported as that record)
    if (this.lineOpen) {
      this.ledger.lines++;
      this.lineOpen = false;
    }
    if (this.broken) {
      const b = this.broken;
      this.broken = null;
      this.unverified(b.line, b.reason, this.ledger.parsed - b.parsed);
    }
    if (this.trailing > 0) {
      const line = this.trailing;
      this.trailing = 0;
      this.unverified(line, 'trailing', this.ledger.parsed - Math.max(0, this.firstParsed));
    }
  }

  /** The top-level array is no JSON between its elements here (the first place is reported). */
  private badSeparator(): void {
    if (this.outerBad === 0) this.outerBad = this.line;
  }

  /** The top-level array ends (its `]`, or the input ends inside it): unverified if its separators were no JSON. */
  private closeOuter(): void {
    this.outer = false;
    // After the first array, the trailing finding covers every record (a second one would count them twice).
    if (this.outerBad > 0 && this.trailing === 0) this.unverified(this.outerBad, 'separator', this.ledger.parsed - this.outerParsed);
    this.outerBad = 0;
  }

  private markBroken(line: number, reason: 'invalid-json' | 'truncated'): void {
    if (!this.broken) this.broken = { line, reason, parsed: this.ledger.parsed };
  }

  private newline(): void {
    this.ledger.lines++;
    this.line++;
    this.lineOpen = false;
    this.atLineStart = true;
  }

  private hold(chunk: Buffer, start: number, end: number): void {
    const e = this.elem!;
    const n = end - start;
    e.size += n;
    if (this.sp?.split) {
      this.holdSub(chunk, end);
      this.holdSkel(chunk, end);
      return;
    }
    if (e.skipping) return;
    if (e.size > this.maxValueBytes) {
      if (this.startSplit(chunk, start, end)) return;
      e.skipping = true;
      e.pieces = [];
      this.sp = null; // oversized: nothing of it is read
      return;
    }
    if (n > 0) e.pieces.push(Buffer.from(chunk.subarray(start, end)));
  }

  /** The current record ends at `end` (exclusive) of this chunk: parsed, or counted as oversized or malformed. */
  private finish(chunk: Buffer, start: number, end: number): void {
    this.hold(chunk, start, end);
    const e = this.elem!;
    const sp = this.sp?.split === true ? this.sp : null;
    const track = reached(this.sp);
    this.elem = null;
    this.stack = [];
    this.sp = null;
    // A split document: its elements were its records, if the whole is JSON.
    if (sp) {
      this.verify(sp, e);
      return;
    }
    if (e.skipping) {
      this.oversized(e);
      return;
    }
    const bytes = e.pieces.length === 1 ? e.pieces[0]! : Buffer.concat(e.pieces, e.size);
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch {
      this.malformed(e.line, 'invalid-json', e.size);
      if (track) this.markBroken(e.line, 'invalid-json');
      // Junk between records (a bare token that is no JSON): resume at the next record-like line.
      if (e.token) this.recovering = true;
      return;
    }
    this.ledger.parsed++;
    this.sink.record(value, e.line, null, bytes);
  }

  /**
   * The structure broke inside the current record (at `end` of this chunk): one malformed record,
   * then skip to the next line that starts with `{` — or, if the record noted such a line inside it
   * (`restart`), scan its bytes from that line again, eagerly. The caller resumes at `end`.
   */
  private breakElement(chunk: Buffer, start: number, end: number, recover = true, why: 'invalid-json' | 'truncated' = 'invalid-json'): void {
    this.hold(chunk, start, end);
    const e = this.elem!;
    const sp = this.sp?.split === true ? this.sp : null;
    // A broken element is its own malformed record: what follows it is not judged against it.
    this.outerSep = 0;
    if (!sp && !e.skipping && reached(this.sp)) this.markBroken(e.line, why);
    this.sp = null;
    this.elem = null;
    this.stack = [];
    this.inString = false;
    this.escaped = false;
    if (e.restart && !e.skipping) {
      const r = e.restart;
      const bytes = e.pieces.length === 1 ? e.pieces[0]! : Buffer.concat(e.pieces, e.size);
      this.malformed(e.line, 'invalid-json', r.offset);
      this.line = r.line;
      this.ledger.lines = r.lines;
      this.lineOpen = false;
      this.atLineStart = true;
      this.recovering = false;
      this.prevEndedLine = true;
      const was = this.eager;
      this.eager = true;
      this.scan(bytes.subarray(r.offset), 0);
      this.eager = was;
      return;
    }
    // A split document whose structure broke: the elements read are kept, the rest is one malformed record.
    if (sp) {
      this.malformed(e.line, 'invalid-json', e.size);
      this.unverified(e.line, 'invalid-json', sp.records);
    } else if (e.skipping) this.oversized(e);
    else this.malformed(e.line, 'invalid-json', e.size);
    this.recovering = recover;
    this.atLineStart = !recover;
  }

  /**
   * One byte (not whitespace, not inside a string) of a record that may hold a split array, before
   * the scanner acts on it: follows the split keys down the objects, and the array's elements.
   */
  private track(c: number, chunk: Buffer, start: number, i: number): void {
    const sp = this.sp!;
    const depth = this.stack.length;
    if (sp.arrayDepth !== 0 && depth === sp.arrayDepth) {
      if (c === COMMA || c === RBRACK) {
        if (sp.open) this.closeElement(chunk, start, i);
        // A comma after `[` or after a comma, or `]` after a comma: JSON.parse rejects the record.
        else if (c === COMMA || sp.sep === 2) sp.invalid = true;
        sp.sep = 2;
        if (c === RBRACK) {
          sp.arrayDepth = 0;
          sp.done = true;
          sp.arrayE = this.elem!.size + (i - start);
          if (sp.split) sp.skelFrom = i;
        }
      } else if (!sp.open) {
        sp.sep = 1;
        sp.open = { s: this.elem!.size + (i - start), line: this.line };
        if (sp.split) {
          sp.sub = [];
          sp.subSize = 0;
          sp.subFrom = i;
          sp.subSkipping = false;
        }
      }
      return;
    }
    const d = sp.masks.length;
    if (depth !== d) return;
    if (c === QUOTE) {
      if (sp.expectKey) {
        sp.inKey = true;
        sp.keyFrom = i + 1;
        sp.keyPieces = [];
        sp.keyLen = 0;
        sp.keyBad = false;
        sp.keyEsc = false;
      } else sp.keyMask = 0;
    } else if (c === COMMA) {
      sp.expectKey = true;
      sp.keyMask = 0;
    } else if (c === LBRACE) {
      let next = 0;
      for (let k = 0; k < this.splits.length; k++) if (sp.keyMask & (1 << k) && this.splits[k]!.length > d) next |= 1 << k;
      if (next !== 0) {
        sp.masks.push(next);
        sp.seen.push(0);
        sp.expectKey = true;
      }
      sp.keyMask = 0;
    } else if (c === LBRACK) {
      for (let k = 0; k < this.splits.length; k++) {
        if (sp.keyMask & (1 << k) && this.splits[k]!.length === d && !sp.done && sp.arrayDepth === 0) {
          sp.arrayDepth = d + 1;
          sp.arrayS = this.elem!.size + (i - start);
          sp.sep = 0;
          sp.pointer = this.splits[k]!.map((x) => `/${x.toString('utf8').replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
          sp.index = 0;
          break;
        }
      }
      sp.keyMask = 0;
    } else if (c === RBRACE) {
      sp.masks.pop();
      sp.seen.pop();
      sp.expectKey = false;
      sp.keyMask = 0;
    }
  }

  private keyPiece(chunk: Buffer, end: number): void {
    const sp = this.sp!;
    const n = end - sp.keyFrom;
    if (sp.keyLen + n > this.maxKeyRaw) sp.keyBad = true;
    else if (n > 0) {
      sp.keyPieces.push(Buffer.from(chunk.subarray(sp.keyFrom, end)));
      sp.keyLen += n;
    }
    sp.keyFrom = 0;
  }

  /** A key of the deepest on-path object ends at `q`: the splits whose key at this depth it is. */
  private keyEnd(chunk: Buffer, q: number): void {
    this.keyPiece(chunk, q);
    const sp = this.sp!;
    sp.inKey = false;
    sp.expectKey = false;
    sp.keyMask = 0;
    if (sp.keyBad) return;
    let key = sp.keyPieces.length === 1 ? sp.keyPieces[0]! : Buffer.concat(sp.keyPieces, sp.keyLen);
    if (sp.keyEsc) {
      try {
        key = Buffer.from(JSON.parse(`"${key.toString('utf8')}"`) as string, 'utf8');
      } catch {
        return; // not a JSON string: the document does not parse, whatever is split
      }
    }
    const d = sp.masks.length;
    const mask = sp.masks[d - 1]!;
    for (let k = 0; k < this.splits.length; k++) if (mask & (1 << k) && this.splits[k]![d - 1]!.equals(key)) sp.keyMask |= 1 << k;
    const again = sp.keyMask & sp.seen[d - 1]!;
    sp.seen[d - 1]! |= sp.keyMask;
    if (again !== 0 && sp.repeat === null) {
      const k = 31 - Math.clz32(again & -again);
      sp.repeat = { line: this.line, key: this.splits[k]!.slice(0, d).map((x) => x.toString('utf8')).join('.'), reported: false };
      if (sp.split) this.reportRepeat();
    }
  }

  /** A split document holds a repeated key on its split path: its records are not JSON.parse's (fail closed). */
  private reportRepeat(): void {
    const r = this.sp!.repeat!;
    if (r.reported) return;
    r.reported = true;
    this.sink.repeatedSplitKey?.(r.line, r.key);
  }

  /** The split array's current element ends before `i`: kept as a span, or (splitting) a record now. */
  private closeElement(chunk: Buffer, start: number, i: number): void {
    const sp = this.sp!;
    const open = sp.open!;
    sp.open = null;
    const index = sp.index++;
    if (!sp.split) {
      sp.spans.push({ s: open.s, e: this.elem!.size + (i - start), line: open.line, index });
      return;
    }
    const n = i - sp.subFrom;
    sp.subSize += n;
    if (sp.subSkipping || sp.subSize > this.maxValueBytes) {
      this.ledger.oversized++;
      this.sink.oversized(open.line, sp.subSize);
      sp.overElement = true;
    } else {
      sp.sub.push(chunk.subarray(sp.subFrom, i));
      this.element(sp.sub.length === 1 ? sp.sub[0]! : Buffer.concat(sp.sub, sp.subSize), open.line, `${sp.pointer}/${index}`);
    }
    sp.sub = [];
    sp.subSize = 0;
  }

  /** Splitting: the open element's bytes of this chunk up to `end` are kept (a copy), within the bound. */
  private holdSub(chunk: Buffer, end: number): void {
    const sp = this.sp!;
    if (!sp.open) return;
    const n = end - sp.subFrom;
    sp.subSize += n;
    if (sp.subSkipping) return;
    if (sp.subSize > this.maxValueBytes) {
      sp.subSkipping = true;
      sp.sub = [];
    } else if (n > 0) sp.sub.push(Buffer.from(chunk.subarray(sp.subFrom, end)));
    sp.subFrom = end;
  }

  /** Splitting: this chunk's bytes up to `end` outside the split array go to the skeleton. */
  private holdSkel(chunk: Buffer, end: number): void {
    const sp = this.sp!;
    if (sp.skelFrom < 0) return;
    sp.skel!.add(chunk, sp.skelFrom, end);
    sp.skelFrom = end;
  }

  /**
   * A split record has ended: its records are JSON.parse's only if the whole record is JSON (its
   * skeleton parses, its array's separators are JSON's, each element parsed). Otherwise it fails
   * closed: the records read stay, and the document is unverified (an error), with a malformed
   * record at its line where no element already is one.
   */
  private verify(sp: SplitTrack, e: Element): void {
    const skel = sp.skel!.verdict();
    if (skel === 'invalid' || sp.invalid) {
      this.malformed(e.line, 'invalid-json', e.size);
      this.unverified(e.line, 'invalid-json', sp.records);
    } else if (sp.badElement) this.unverified(e.line, 'invalid-json', sp.records);
    else if (sp.overElement) this.unverified(e.line, 'element-over-limit', sp.records);
    else if (skel === 'over') this.unverified(e.line, 'skeleton-over-limit', sp.records);
  }

  /**
   * The record outgrew the bound while holding a split array (or after it): each element read so
   * far becomes a record, the one being read is held on its own, and from here on only elements
   * are held. Before the array is reached, nothing can be split: the record is oversized.
   */
  private startSplit(chunk: Buffer, start: number, end: number): boolean {
    const sp = this.sp;
    const e = this.elem!;
    if (!sp || (sp.arrayDepth === 0 && !sp.done)) return false;
    if (sp.repeat) {
      // A key of the path already read twice: no element is read, the document is oversized.
      this.reportRepeat();
      return false;
    }
    if (end > start) e.pieces.push(chunk.subarray(start, end));
    const bytes = Buffer.concat(e.pieces);
    e.pieces = [];
    e.skipping = true;
    sp.split = true;
    // The skeleton so far: up to the array's `[`, and from its `]` if it is already closed.
    sp.skel = new Skeleton(this.maxValueBytes);
    sp.skel.add(bytes, 0, sp.arrayS + 1);
    if (sp.done) sp.skel.add(bytes, sp.arrayE, bytes.length);
    sp.skelFrom = sp.done ? end : -1;
    for (const s of sp.spans) {
      if (s.e - s.s > this.maxValueBytes) {
        this.ledger.oversized++;
        this.sink.oversized(s.line, s.e - s.s);
        sp.overElement = true;
      } else this.element(bytes.subarray(s.s, s.e), s.line, `${sp.pointer}/${s.index}`);
    }
    sp.spans = [];
    sp.sub = [];
    sp.subSize = 0;
    sp.subSkipping = false;
    sp.subFrom = end;
    if (sp.open) {
      const piece = Buffer.from(bytes.subarray(sp.open.s));
      sp.subSize = piece.length;
      if (sp.subSize > this.maxValueBytes) sp.subSkipping = true;
      else sp.sub.push(piece);
    }
    return true;
  }

  /** One element of a split array, parsed on its own as a record at its line, with its JSON pointer. */
  private element(bytes: Buffer, line: number, pointer: string): void {
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch {
      this.malformed(line, 'invalid-json', bytes.length);
      this.sp!.badElement = true;
      return;
    }
    this.ledger.parsed++;
    this.sp!.records++;
    this.sink.record(value, line, null, undefined, pointer, bytes);
  }

  private unverified(line: number, reason: UnverifiedReason, records: number): void {
    this.sink.unverifiedDocument?.(Math.max(1, line), reason, records);
  }

  private malformed(line: number, reason: 'invalid-json' | 'truncated', bytes: number): void {
    this.ledger.malformed++;
    this.sink.malformed(Math.max(1, line), reason, bytes);
  }

  private oversized(e: Element): void {
    this.ledger.oversized++;
    this.sink.oversized(e.line, e.size);
  }
}

/** A record held whole that has reached its split array (a HAR's `log.entries`): a document whose records are that array's. */
function reached(sp: SplitTrack | null): boolean {
  return sp !== null && (sp.arrayDepth !== 0 || sp.done);
}

function newTrack(all: number): SplitTrack {
  return {
    masks: [all],
    expectKey: true,
    keyMask: 0,
    inKey: false,
    keyFrom: 0,
    keyPieces: [],
    keyLen: 0,
    keyBad: false,
    keyEsc: false,
    seen: [0],
    repeat: null,
    arrayDepth: 0,
    arrayS: -1,
    arrayE: -1,
    sep: 0,
    invalid: false,
    badElement: false,
    overElement: false,
    records: 0,
    skel: null,
    skelFrom: -1,
    done: false,
    pointer: '',
    index: 0,
    open: null,
    spans: [],
    split: false,
    sub: [],
    subSize: 0,
    subFrom: 0,
    subSkipping: false,
  };
}

/** The path steps `recordLines` follows (the profile path language's segments, lang/path.ts). */
type Step = { key: string } | { index: number } | { each: true } | { root: true };

/**
 * Where each value at a `records` path starts inside one document record's bytes: the line offset
 * (0 for the record's first line) of every value the path reaches, in document order, exactly as
 * the parsed value's `[]` walk yields them (a repeated key: the last one, as JSON.parse keeps).
 * `bytes` is valid JSON (it was parsed); the walk is iterative inside each value and recursive only
 * along the path (at most 64 steps), linear in the bytes. `ends`, when given, gets the line offset
 * where each such value ends.
 */
export function recordLines(bytes: Buffer, steps: readonly Step[], ends?: number[]): number[] {
  const out: number[] = [];
  let pos = 0;
  let line = 0;
  const n = bytes.length;
  const ws = () => {
    while (pos < n && isWs(bytes[pos]!)) {
      if (bytes[pos] === NL) line++;
      pos++;
    }
  };
  const skipString = () => {
    pos++;
    while (pos < n) {
      const c = bytes[pos]!;
      if (c === BSLASH) pos += 2;
      else if (c === QUOTE) {
        pos++;
        return;
      } else pos++;
    }
  };
  const skipValue = () => {
    ws();
    const c = bytes[pos];
    if (c === QUOTE) return skipString();
    if (c !== LBRACE && c !== LBRACK) {
      while (pos < n && !endsToken(bytes[pos]!)) pos++;
      return;
    }
    let depth = 0;
    while (pos < n) {
      const b = bytes[pos]!;
      if (b === QUOTE) {
        skipString();
        continue;
      }
      if (b === NL) line++;
      else if (b === LBRACE || b === LBRACK) depth++;
      else if (b === RBRACE || b === RBRACK) {
        depth--;
        if (depth === 0) {
          pos++;
          return;
        }
      }
      pos++;
    }
  };
  /** Each element of the array at `pos` (calls `f` at each element's start); false if not an array. */
  const elements = (f: (i: number) => void): boolean => {
    ws();
    if (bytes[pos] !== LBRACK) return false;
    pos++;
    for (let i = 0; ; i++) {
      ws();
      if (bytes[pos] === RBRACK || pos >= n) {
        pos++;
        return true;
      }
      f(i);
      ws();
      if (bytes[pos] === COMMA) pos++;
    }
  };
  const walk = (k: number): void => {
    ws();
    if (k === steps.length) {
      out.push(line);
      skipValue();
      ends?.push(line);
      return;
    }
    const s = steps[k]!;
    if ('key' in s) {
      if (bytes[pos] !== LBRACE) return skipValue();
      pos++;
      let found: { pos: number; line: number } | null = null;
      for (;;) {
        ws();
        if (bytes[pos] === RBRACE || pos >= n) {
          pos++;
          break;
        }
        const ks = pos;
        skipString();
        const key = JSON.parse(bytes.toString('utf8', ks, pos)) as string;
        ws();
        pos++; // the colon
        ws();
        if (key === s.key) found = { pos, line };
        skipValue();
        ws();
        if (bytes[pos] === COMMA) pos++;
      }
      if (found) {
        const after = { pos, line };
        pos = found.pos;
        line = found.line;
        walk(k + 1);
        pos = after.pos;
        line = after.line;
      }
      return;
    }
    if ('index' in s) {
      if (!elements((i) => (i === s.index ? walk(k + 1) : skipValue()))) skipValue();
      return;
    }
    if ('each' in s) {
      if (!elements(() => walk(k + 1))) skipValue();
      return;
    }
    skipValue();
  };
  walk(0);
  return out;
}

/**
 * The lines (offsets from the record's first line) a JSON pointer's value spans inside one document
 * record: `value` is the record as JSON.parse read it (it says whether each step is a key or an
 * index), `bytes` its text. Null when the pointer leads nowhere.
 */
export function pointerLines(value: unknown, bytes: Buffer, pointer: string): { start: number; end: number } | null {
  if (pointer === '') return recordSpan(bytes, []);
  if (!pointer.startsWith('/')) return null;
  const steps: Step[] = [];
  let v: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= v.length) return null;
      steps.push({ index: Number(token) });
      v = v[Number(token)];
    } else if (v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, token)) {
      steps.push({ key: token });
      v = (v as Record<string, unknown>)[token];
    } else return null;
  }
  return recordSpan(bytes, steps);
}

function recordSpan(bytes: Buffer, steps: readonly Step[]): { start: number; end: number } | null {
  const ends: number[] = [];
  const starts = recordLines(bytes, steps, ends);
  return starts.length === 1 ? { start: starts[0]!, end: ends[0]! } : null;
}
