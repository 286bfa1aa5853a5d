/**
 * The JSONL fast path (docs/design.md §2): a byte-level reader that finds newlines in Buffers, keeps the
 * physical line number of every record, and decides on bytes, before any decode or JSON.parse,
 * whether a line is read: by the key its profiles keep a record's kind in (classify.ts), or else by
 * the profiles' needles. Lines no profile reads are counted, never decoded. Every such decision
 * equals what the profiles decide on JSON.parse's reading, or the line is parsed (exact.ts).
 *
 * Every physical line lands in exactly one counter: blank, malformed, oversized, or a record
 * (either handed to the sink, or counted as `unparsed` when no profile reads it).
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

/** A ledger's line counts, without `bytes`: what a batch of lines reports (parallel reading). */
export type LineCounts = Omit<LineLedger, 'bytes'>;

/** Adds every count of `d` (a batch's line counts, nothing else) to `into`. */
export function addLineCounts(into: LineCounts, d: Readonly<LineCounts>): void {
  for (const k in d) into[k as keyof LineCounts] += d[k as keyof LineCounts];
}

import { isAscii } from 'node:buffer';
import type { KeepFunction, KeepTree } from '../profiles/keep.js';
import { FALLBACK, LineClassifier, PARSE, SKIP, type SourceRule } from './classify.js';
import { ByteSample, ChunkSearch, escapePatterns, probeFor, repeatedKey } from './exact.js';

export interface LineSink {
  /**
   * A parsed record. `raw` is the line's bytes (a view valid only during the call), or null for a
   * record of a JSON document.
   * `doc`: a JSON document record's bytes (documents.ts), so that records inside it can be located;
   * `pointer`: the JSON pointer of an element of a split document array (documents.ts), read on its own;
   * `element`: that element's bytes (where it ends: `trace PATH:LINE`), never handed to the profiles.
   */
  record(value: unknown, line: number, raw: Buffer | null, doc?: Buffer, pointer?: string, element?: Buffer): void;
  /**
   * A line the first handler's classify rule claims, as `record` would give it after `keep(value)`,
   * but whole: the first handler reads `value` itself (it reads only what its own `keep` names, so
   * the two readings are one: src/profiles/keep.ts), any later handler and the trace probe
   * `keep(value)`. Without this method the line comes to `record`, pruned (the workers' sinks).
   */
  recordClaimed?(value: unknown, line: number, raw: Buffer, keep: (value: unknown) => unknown): void;
  /** A malformed line (counted in the ledger). */
  malformed(line: number, reason: 'invalid-json' | 'truncated', bytes: number): void;
  oversized(line: number, bytes: number): void;
  /**
   * A line JSON.parse accepted whose object holds a key of `profile`'s `unique` tree twice
   * (classify.ts `ClassifyRule.unique`; `key` a dotted path of the tree), before its record.
   */
  repeatedKey?(line: number, profile: string, key: string, bytes: number): void;
  /**
   * A JSON document read element by element (documents.ts) holds a key of its split path twice in
   * one object (`key`: the dotted path, `log.entries`), at `line`: its records are not JSON.parse's.
   */
  repeatedSplitKey?(line: number, key: string): void;
  /**
   * A JSON document read element by element (documents.ts) turned out not to be JSON as a whole
   * (`invalid-json`, `truncated`: JSON.parse rejects it), or its skeleton passed its bound
   * (`skeleton-over-limit`: not known), or an element of it passed the bound and was skipped unread
   * (`element-over-limit`: not known), at its first line, or a document's top-level array is no JSON
   * between its elements (`separator`, at the first such place): the `records` read from it are not JSON.parse's.
   */
  unverifiedDocument?(line: number, reason: UnverifiedReason, records: number): void;
}

/** Why a JSON document's records are not JSON.parse's (DOCUMENT_UNVERIFIED, docs/report.md). */
export type UnverifiedReason = 'invalid-json' | 'truncated' | 'skeleton-over-limit' | 'element-over-limit' | 'separator' | 'trailing';

export interface LineReaderOptions {
  needles: readonly Buffer[];
  maxLineBytes: number;
  /** Parse every line, needle or not. */
  validateAll: boolean;
  sink: LineSink;
  /** Strip a UTF-8 BOM at the start of the input, however the reads cut it (default true). */
  bom?: boolean;
  /**
   * Parallel reading (`--jobs`): a non-blank, not oversized line is handed here instead of being
   * evaluated (needles, JSON.parse) in this thread. `buf` is the chunk (`inChunk`) or a line of its own.
   */
  dispatch?: (buf: Buffer, s: number, e: number, line: number, inChunk: boolean, terminated: boolean, bytes: number) => void;
  /** The profiles' combined `keep` pruning (see parseKept), or null to hand over whole values. */
  keep?: ((value: unknown) => unknown) | null;
  /** Where this source's profiles keep the kind of a record (classify.ts), or null: needles only. */
  classify?: readonly SourceRule[] | null;
  /** Each profile's own `keep`, by name: a line the first handler's rule claims is pruned by it. */
  keeps?: ReadonlyMap<string, (value: unknown) => unknown> | null;
}

const NL = 0x0a;
const CR = 0x0d;
/** The UTF-8 byte order mark. */
const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * How many bytes of a UTF-8 BOM the input starts with after `chunk`, when `matched` of them were
 * matched by the chunks before it: 3 (the whole BOM), fewer (`chunk` ends before the BOM does,
 * and matches it so far), or -1 (the input does not start with a BOM). Looks at no more than
 * 3 − `matched` bytes.
 */
export function bomMatched(chunk: Buffer, matched: number): number {
  let k = matched;
  for (let i = 0; k < 3 && i < chunk.length; i++, k++) if (chunk[i] !== BOM[k]) return -1;
  return k;
}

export class LineReader {
  readonly ledger: LineLedger = { lines: 0, blank: 0, malformed: 0, oversized: 0, parsed: 0, unparsed: 0, bytes: 0 };
  private readonly eval: LineEvaluator | null;
  private readonly dispatch: LineReaderOptions['dispatch'] | null;
  private readonly max: number;
  private readonly sink: LineSink;
  /** The unfinished line at the end of the last chunk. */
  private readonly tail: LineCarry;

  constructor(opts: LineReaderOptions) {
    this.max = opts.maxLineBytes;
    this.tail = new LineCarry(opts.maxLineBytes);
    this.sink = opts.sink;
    this.dispatch = opts.dispatch ?? null;
    this.eval = this.dispatch ? null : new LineEvaluator(opts.needles, opts.validateAll, opts.sink, this.ledger, opts.keep ?? null, opts.classify ?? null, opts.keeps ?? null);
    if (opts.bom === false) this.tail.bom = -1;
  }

  push(chunk: Buffer): void {
    this.ledger.bytes += chunk.length;
    const tail = this.tail;
    let pos = tail.bom >= 0 ? tail.skipBom(chunk) : 0;
    this.eval?.newChunk(chunk);
    const len = chunk.length;
    while (pos < len) {
      const nl = chunk.indexOf(NL, pos);
      if (nl === -1) {
        tail.hold(chunk, pos, len);
        return;
      }
      if (tail.skipping) {
        this.ledger.lines++;
        this.ledger.oversized++;
        this.sink.oversized(this.ledger.lines, tail.lineLen(chunk, pos, nl));
        tail.skipping = false;
        tail.skippedLen = 0;
      } else if (tail.carryLen > 0) {
        const piece = chunk.subarray(pos, nl);
        const n = tail.lineLen(chunk, pos, nl);
        if (n > this.max) {
          this.ledger.lines++;
          this.ledger.oversized++;
          this.sink.oversized(this.ledger.lines, n);
        } else {
          tail.carry.push(piece);
          const line = Buffer.concat(tail.carry, tail.carryLen + piece.length);
          this.line(line, 0, line.length, false, true);
        }
        tail.clear();
      } else {
        this.line(chunk, pos, nl, true, true);
      }
      pos = nl + 1;
    }
  }

  /** End of input: a last line without newline is still a line (truncated if it does not parse). */
  end(): void {
    const tail = this.tail;
    if (tail.skipping) {
      this.ledger.lines++;
      this.ledger.oversized++;
      this.sink.oversized(this.ledger.lines, tail.lineLen(null, 0, 0));
      tail.skipping = false;
    } else if (tail.carryLen > 0) {
      const line = Buffer.concat(tail.carry, tail.carryLen);
      tail.clear();
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
 * The unfinished line at the end of a chunk, for the readers that frame lines across chunks
 * (LineReader, and ParallelLineReader in parallel.ts): its pieces, or, once it is longer than
 * `max`, only its length: the rest of it is skipped, and the reader counts it as oversized when
 * it ends (its newline, or the end of the input).
 */
export class LineCarry {
  /** Pieces of a line that spans chunks (copies). */
  carry: Buffer[] = [];
  carryLen = 0;
  /** Skipping the rest of an oversized line, `skippedLen` bytes long so far. */
  skipping = false;
  skippedLen = 0;
  /**
   * How many bytes of a UTF-8 BOM the input has started with so far (held like any start of line
   * 1), or -1 once it is known whether it starts with one (or when it is not looked for): the
   * reader calls `skipBom` only while this is ≥ 0, on at most the first 3 bytes' chunks.
   */
  bom = 0;

  constructor(private readonly max: number) {}

  /**
   * Where line 1 goes on in `chunk`, one of the input's first chunks (docs/design.md §2: a BOM on
   * line 1 is dropped): past the BOM when `chunk` ends one, dropping its first bytes held from
   * earlier chunks (a pipe may deliver 0xEF alone); else at 0: a chunk that is only the start of
   * the BOM is held as line 1's start until the next one decides, and an input that does not start
   * with a BOM keeps every byte (0xEF then not 0xBB 0xBF stays in line 1).
   */
  skipBom(chunk: Buffer): number {
    const held = this.bom;
    const k = bomMatched(chunk, held);
    if (k !== 3) {
      this.bom = k;
      return 0;
    }
    this.bom = -1;
    if (held > 0) {
      // Only BOM bytes are held: line 1 starts after them, as if the BOM had come in one chunk.
      this.clear();
      this.skipping = false;
      this.skippedLen = 0;
    }
    return 3 - held;
  }

  /** The last byte held or skipped is a CR (it may be the one before the line's newline). */
  private lastCR = false;

  /**
   * Keeps the unfinished tail of a chunk, or starts skipping it when it is already too long. A line
   * of `max` bytes and a CR is held whole: the CR before a newline is not the line's (the reader
   * drops it), so where the reads cut a CRLF line never decides whether it is oversized.
   */
  hold(chunk: Buffer, pos: number, end: number): void {
    const n = end - pos;
    if (n > 0) this.lastCR = chunk[end - 1] === CR;
    if (this.skipping) {
      this.skippedLen += n;
      return;
    }
    if (this.carryLen + n > this.max + 1) {
      this.skipping = true;
      this.skippedLen = this.carryLen + n;
      this.clear();
      return;
    }
    // Copy: the stream may reuse the chunk's memory.
    this.carry.push(Buffer.from(chunk.subarray(pos, end)));
    this.carryLen += n;
  }

  /**
   * The length of the line held or skipped so far that ends at `chunk[f]` (its newline; `chunk`
   * null: the input ended), without the CR before its newline, as LineReader measures a line
   * inside one chunk.
   */
  lineLen(chunk: Buffer | null, pos: number, f: number): number {
    const held = this.skipping ? this.skippedLen : this.carryLen;
    const n = chunk === null ? 0 : f - pos;
    const endsCR = n > 0 ? chunk![f - 1] === CR : held > 0 && this.lastCR;
    return held + n - (endsCR ? 1 : 0);
  }

  /** Drops the pieces held (their line has been dealt with). */
  clear(): void {
    this.carry = [];
    this.carryLen = 0;
  }
}

/**
 * Needles are searched by a short probe (at most PROBE bytes: Buffer.indexOf then runs a
 * memchr-driven linear search, much faster on text than the Boyer-Moore-Horspool it uses for
 * patterns of 7 bytes or more), and each probe hit is verified against the whole needle. A needle
 * that starts with `"` is probed from its second byte: memchr on the first byte of a probe stops at
 * every quote of a JSON line, on a letter far less often. Needles that share a probe are searched
 * once. In a chunk, each needle's probe starts at its byte rarest there (exact.ts ByteSample), and
 * the needles are grouped again by those probes.
 */
const PROBE = 6;

interface NeedleGroup {
  probe: Buffer;
  /** Where the probe sits in each needle of the group (0, or 1 after a leading quote). */
  off: number;
  needles: Buffer[];
}

/** The needles grouped by probe (`bytes`: a sample of the chunk they are searched in, or null). */
function groupNeedles(needles: readonly Buffer[], bytes: ByteSample | null = null): NeedleGroup[] {
  const groups = new Map<string, NeedleGroup>();
  for (const nd of needles) {
    if (nd.length === 0) continue;
    const o = nd[0] === 0x22 && nd.length > 1 ? 1 : 0;
    const { off, probe } = probeFor(nd, bytes, { off: o, probe: nd.subarray(o, Math.min(o + PROBE, nd.length)) });
    const key = `${off}:${probe.toString('latin1')}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { probe, off, needles: [] }));
    g.needles.push(nd);
  }
  return [...groups.values()];
}

/** End of the shortest needle of `g` that starts at `p`, or -1 (`lo`: where the line starts). */
function matchAt(buf: Buffer, p: number, g: NeedleGroup, lo: number): number {
  if (p < lo) return -1;
  let best = -1;
  for (const nd of g.needles) {
    const end = p + nd.length;
    if (end > buf.length || (best !== -1 && end >= best)) continue;
    let ok = true;
    for (let k = 0; k < nd.length; k++) {
      if (k >= g.off && k < g.off + g.probe.length) continue;
      if (buf[p + k] !== nd[k]) {
        ok = false;
        break;
      }
    }
    if (ok) best = end;
  }
  return best;
}

/**
 * What happens to one non-blank line that fits: the needle test on bytes, then (on a hit, or with
 * --validate-all) decode and JSON.parse. Shared by the single-threaded reader and the workers.
 */
export class LineEvaluator {
  private readonly needles: readonly Buffer[];
  /** The needles by probe, for the current chunk (groupNeedles). */
  private groups: NeedleGroup[];
  /** Per group, in the current buffer: where the next needle starts and ends (Infinity: none). */
  private readonly at: number[];
  private readonly atEnd: number[];
  private readonly all: boolean;
  private readonly cls: LineClassifier | null;
  /** Escapes that could spell a needle or a wanted key otherwise than its bytes (exact.ts). */
  private readonly escapes: ChunkSearch;
  /** The classifier's wanted keys, searched again after a SKIP verdict. */
  private readonly keysAgain: ChunkSearch;
  /** Per profile declaring `unique` keys: its tree, and the needles that make a line one to check. */
  private readonly unique: Array<{ profile: string; keys: KeepTree; needles: ChunkSearch; foldCase: boolean }>;

  constructor(
    needles: readonly Buffer[],
    validateAll: boolean,
    private readonly sink: LineSink,
    private readonly ledger: Pick<LineLedger, 'parsed' | 'unparsed' | 'malformed'>,
    private readonly keep: ((value: unknown) => unknown) | null = null,
    classify: readonly SourceRule[] | null = null,
    keeps: ReadonlyMap<string, (value: unknown) => unknown> | null = null,
  ) {
    this.needles = needles;
    this.groups = groupNeedles(needles);
    // Sized for the most groups a chunk can have: one per needle.
    this.at = needles.map(() => -1);
    this.atEnd = needles.map(() => -1);
    const rules = classify ?? [];
    // A rule may ask for every line of its source (ClassifyRule.readAll).
    this.all = validateAll || this.groups.length === 0 || rules.some((r) => r.readAll === true && !r.unknown);
    this.cls = classify && classify.length ? new LineClassifier(classify) : null;
    const strings = [...needles.map((n) => n.toString('utf8')), ...rules.flatMap((r) => [r.key, ...(r.values ?? []), ...(r.prefixes ?? [])])];
    this.escapes = new ChunkSearch(escapePatterns(strings));
    this.keysAgain = new ChunkSearch(this.cls ? this.cls.keyTokens() : [], true);
    this.absentFallsBack = this.cls !== null && this.cls.absentVerdict() === FALLBACK;
    this.unique = rules.flatMap((r) =>
      r.unique && !r.unknown ? [{ profile: r.profile, keys: r.unique.keys, needles: new ChunkSearch(r.unique.needles.map((n) => Buffer.from(n, 'utf8'))), foldCase: r.unique.foldCase === true }] : [],
    );
    // A line the first handler's rule claims reaches that handler first, and it claims it: its own
    // pruning is enough (and lets parseKept skip decoding what it never reads, e.g. `data.raw`).
    this.firstKeep = classify && classify.length ? (keeps?.get(classify[0]!.profile) ?? null) : null;
  }

  private readonly firstKeep: ((value: unknown) => unknown) | null;
  /**
   * A line holding none of the wanted keys' tokens is FALLBACK without the classifier's scan
   * (LineClassifier.absentVerdict): on a source read in `auto` mode, the JSON-RPC and OpenAI Batch
   * lines, whose kind keys come after the Amplifier and Assay ones, are not walked to their end.
   */
  private readonly absentFallsBack: boolean;

  /** Counts of the start of the current chunk: where each search starts its probe (exact.ts ByteSample). */
  private readonly sample = new ByteSample();

  /** Call before the lines of a new buffer (the needle positions cached are per buffer). */
  newChunk(chunk?: Buffer): void {
    for (let i = 0; i < this.at.length; i++) this.at[i] = this.atEnd[i] = -1;
    const bytes = chunk && chunk.length > 0 ? this.sample : null;
    if (bytes) {
      bytes.take(chunk!);
      if (!this.all) this.groups = groupNeedles(this.needles, bytes);
    }
    this.escapes.newChunk(bytes);
    this.keysAgain.newChunk(bytes);
    for (const u of this.unique) u.needles.newChunk(bytes);
  }

  /** `s..e` is the line without CR and leading blanks; `bytes` its length as reported. */
  line(buf: Buffer, s: number, e: number, n: number, inChunk: boolean, terminated: boolean, bytes: number): void {
    let keep = this.keep;
    if (!this.all) {
      // Exact, or the exact path (exact.ts): a line is skipped only when JSON.parse's reading
      // could not make any profile read it either.
      const v = this.cls === null || (this.absentFallsBack && !this.keysAgain.has(buf, s, e, inChunk)) ? FALLBACK : this.cls.verdict(buf, s, e);
      if (v === PARSE) {
        if (this.firstKeep && this.cls!.parsedBy === 0) keep = this.firstKeep;
      } else if (v === FALLBACK && this.needle(buf, s, e, inChunk)) {
        // A needle: parsed, as before the classifier.
      } else if (this.escapes.has(buf, s, e, inChunk)) {
        // An escape may spell a needle or a wanted key otherwise than its bytes: JSON.parse decides.
      } else if (v === SKIP && this.uniqueApplies(buf, s, e, inChunk)) {
        // A line a profile checks for repeated keys is checked in every mode.
      } else if (v === SKIP && this.keysAgain.has(buf, this.cls!.decidedAt, e, inChunk) && this.needle(buf, s, e, inChunk)) {
        // The wanted key may come again after the one that decided: JSON.parse reads the last one.
      } else return this.skipped(buf, s, e, n, terminated, bytes);
    }
    const raw = buf.subarray(s, e);
    let value: unknown;
    // The first handler's own pruning, left to the sink (recordClaimed): null when `value` is final.
    let later: ((value: unknown) => unknown) | null = null;
    try {
      // An ASCII line (most are) decodes the same as latin1 and UTF-8, so its pruned value needs no
      // ASCII check (parseKept's second pass). Still pruned: what reaches the profiles (and crosses
      // from a worker) is the same whatever the line's bytes are (docs/performance.md).
      if (isAscii(raw)) {
        const v: unknown = JSON.parse(buf.toString('latin1', s, e));
        // The first rule claimed the line on its first kind key; it is pruned by that profile's
        // keep only if JSON.parse's reading (the last one) is still its kind.
        if (keep !== this.keep && !this.cls!.claims(0, v)) keep = this.keep;
        if (keep !== this.keep && keep !== null && this.sink.recordClaimed) {
          value = v;
          later = keep;
        } else value = keep ? keep(v) : v;
      } else {
        value = keep ? parseKept(buf, s, e, keep) : JSON.parse(buf.toString('utf8', s, e));
        if (keep !== this.keep && !this.cls!.claims(0, value)) value = this.keep ? parseKept(buf, s, e, this.keep) : JSON.parse(buf.toString('utf8', s, e));
      }
    } catch {
      this.ledger.malformed++;
      this.sink.malformed(n, terminated ? 'invalid-json' : 'truncated', bytes);
      return;
    }
    if (this.unique.length > 0) {
      // Every line a profile checks (one of its needles, or an escape), in every mode: the
      // report is the same with and without --validate-all.
      const esc = this.escapes.has(buf, s, e, inChunk);
      for (const u of this.unique) {
        if (!esc && !u.needles.has(buf, s, e, inChunk)) continue;
        const k = repeatedKey(buf, s, e, u.keys, u.foldCase);
        if (k !== null) this.sink.repeatedKey?.(n, u.profile, k, bytes);
      }
    }
    this.ledger.parsed++;
    if (later !== null) this.sink.recordClaimed!(value, n, raw, later);
    else this.sink.record(value, n, raw);
  }

  /** Whether a profile's `unique` check applies to this line (one of its needles). */
  private uniqueApplies(buf: Buffer, s: number, e: number, inChunk: boolean): boolean {
    for (const u of this.unique) if (u.needles.has(buf, s, e, inChunk)) return true;
    return false;
  }

  private needle(buf: Buffer, s: number, e: number, inChunk: boolean): boolean {
    return inChunk ? this.hasNeedleInChunk(buf, s, e) : this.hasNeedle(buf, s, e);
  }

  /** A line no profile reads: counted, not parsed (a cut last line is malformed, whatever it held). */
  private skipped(buf: Buffer, s: number, e: number, n: number, terminated: boolean, bytes: number): void {
    if (!terminated && !looksComplete(buf, s, e)) {
      // A crash mid-write: the last line is cut. Counted as malformed, whatever it held.
      this.ledger.malformed++;
      this.sink.malformed(n, 'truncated', bytes);
      return;
    }
    this.ledger.unparsed++;
  }

  /** The next needle of group `g` in `buf` at or after `from`, searching no further than `limit`. */
  private find(buf: Buffer, g: NeedleGroup, from: number, limit: number, i: number): void {
    let p = from + g.off;
    for (;;) {
      p = buf.indexOf(g.probe, p);
      if (p === -1 || p >= limit) {
        this.at[i] = this.atEnd[i] = Infinity;
        return;
      }
      const end = matchAt(buf, p - g.off, g, from);
      if (end !== -1) {
        this.at[i] = p - g.off;
        this.atEnd[i] = end;
        return;
      }
      p++;
    }
  }

  /** Needle test for a line inside the current chunk: each group's next needle is reused until passed. */
  private hasNeedleInChunk(buf: Buffer, s: number, e: number): boolean {
    const groups = this.groups;
    for (let i = 0; i < groups.length; i++) {
      if (this.at[i] !== Infinity && this.at[i]! < s) this.find(buf, groups[i]!, s, buf.length, i);
      if (this.atEnd[i]! <= e) return true;
    }
    return false;
  }

  private hasNeedle(buf: Buffer, s: number, e: number): boolean {
    const view = s === 0 && e === buf.length ? buf : buf.subarray(s, e);
    for (const g of this.groups) {
      let p = g.off;
      for (;;) {
        p = view.indexOf(g.probe, p);
        if (p === -1) break;
        if (matchAt(view, p - g.off, g, 0) !== -1) return true;
        p++;
      }
    }
    return false;
  }
}

/**
 * JSON.parse of a line without paying for UTF-8 decoding of what the profiles never read (e.g. a
 * 200 kB `data.raw`): the line is decoded as latin1 (a byte copy) and parsed, and the profiles'
 * `keep` pruning is taken from that value when every key and string it holds is ASCII — such
 * strings came from ASCII bytes (any byte >= 0x80 becomes a char >= 0x80 in latin1), so they are
 * exactly what a UTF-8 parse gives. Otherwise the line is parsed again from UTF-8. Validity is the
 * same either way: bytes >= 0x80 are legal only inside strings, under both decodings, and neither
 * decoding turns them into quotes, backslashes or control characters. The pruning must name ASCII
 * keys only (`KeepFunction.asciiKeys`): a key written in UTF-8 bytes reads as another string in
 * latin1, so a non-ASCII key it names would be dropped; such a keep prunes the UTF-8 reading.
 */
export function parseKept(buf: Buffer, s: number, e: number, keep: (value: unknown) => unknown): unknown {
  if ((keep as KeepFunction).asciiKeys === false) return keep(JSON.parse(buf.toString('utf8', s, e)));
  const kept = keep(JSON.parse(buf.toString('latin1', s, e)));
  return asciiOnly(kept) ? kept : keep(JSON.parse(buf.toString('utf8', s, e)));
}

const NON_ASCII = /[^\u0000-\u007f]/;

/** Every string and key in `v` is ASCII (iterative: kept values may be deep). */
export function asciiOnly(v: unknown): boolean {
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'string') {
      if (NON_ASCII.test(x)) return false;
    } else if (x !== null && typeof x === 'object') {
      if (Array.isArray(x)) {
        for (const y of x) stack.push(y);
      } else {
        for (const k of Object.keys(x)) {
          if (NON_ASCII.test(k)) return false;
          stack.push((x as Record<string, unknown>)[k]);
        }
      }
    }
  }
  return true;
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
