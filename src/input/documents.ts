/**
 * JSON documents (a top-level array of records, or a stream of concatenated pretty-printed
 * values), read with stream-json's tokenizer without loading the whole document. Input is fed
 * line by line, so every record keeps the physical line it starts on. A top-level array's elements
 * are the records; otherwise each top-level value is one.
 *
 * Ledger for documents: `lines` are physical lines, `parsed` the records; a syntax error ends the
 * document (nothing after it can be trusted) and counts one malformed record at its line.
 */
import { StringDecoder } from 'node:string_decoder';
import { jsonParser } from 'stream-json/core/parser.js';
import { Assembler } from 'stream-json/core/assembler.js';
import { none, isMany, getManyValues } from 'stream-chain/defs.js';
import type { LineLedger, LineSink } from './lines.js';

type Token = { name: string; value?: unknown };

/** Longest piece of one line held before it is fed to the tokenizer. */
const PART = 1 << 16;

export class DocumentReader {
  readonly ledger: LineLedger = { lines: 0, blank: 0, malformed: 0, oversized: 0, parsed: 0, unparsed: 0, bytes: 0 };
  private readonly parse = jsonParser({ jsonStreaming: true, packValues: true, streamValues: false });
  private readonly decoder = new StringDecoder('utf8');
  private readonly sink: LineSink;
  private readonly maxValueBytes: number;
  private pending = '';
  private line = 0;
  private depth = 0;
  /** 1 inside a top-level array (its elements are records), 0 for concatenated values. */
  private base = -1;
  private asm: Assembler | null = null;
  private startLine = 0;
  private valueChars = 0;
  private failed = false;
  private skippingValue = false;
  /** Part of the current physical line was already fed (a line longer than PART chars). */
  private inLine = false;

  constructor(opts: { sink: LineSink; maxValueBytes: number }) {
    this.sink = opts.sink;
    this.maxValueBytes = opts.maxValueBytes;
  }

  push(chunk: Buffer): void {
    this.ledger.bytes += chunk.length;
    let text = this.pending + this.decoder.write(chunk);
    let pos = 0;
    for (;;) {
      const nl = text.indexOf('\n', pos);
      if (nl === -1) break;
      this.feedLine(text.slice(pos, nl + 1));
      pos = nl + 1;
    }
    this.pending = text.slice(pos);
    text = '';
    // A long line (a minified document is one line) is fed in parts, never accumulated whole:
    // holding it would grow without bound and re-scan it on every chunk.
    if (this.pending.length > PART) {
      this.feedText(this.pending, false);
      this.pending = '';
    }
  }

  end(): void {
    const tail = this.pending + this.decoder.end();
    this.pending = '';
    if (tail.length > 0) this.feedLine(tail);
    if (!this.failed) {
      try {
        this.tokens(this.parse(none as never));
      } catch {
        this.fail('truncated');
      }
      if (this.asm && !this.failed) this.fail('truncated');
    }
  }

  private feedLine(text: string): void {
    this.feedText(text, true);
  }

  /** Feeds text of the current physical line; `endsLine` when it holds the line's end. */
  private feedText(text: string, endsLine: boolean): void {
    const first = !this.inLine;
    this.inLine = !endsLine;
    if (first) {
      this.line++;
      this.ledger.lines++;
    }
    if (this.failed) return;
    if (first && this.line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (this.asm || this.skippingValue) this.valueChars += text.length;
    try {
      this.tokens(this.parse(text));
    } catch {
      this.fail('invalid-json');
    }
  }

  private fail(reason: 'invalid-json' | 'truncated'): void {
    this.failed = true;
    this.ledger.malformed++;
    this.sink.malformed(this.asm ? this.startLine : this.line, reason, this.valueChars);
    this.asm = null;
  }

  private tokens(out: unknown): void {
    if (out === none) return;
    const list = isMany(out) ? (getManyValues(out) as Token[]) : [out as Token];
    for (const t of list) this.token(t);
  }

  private token(t: Token): void {
    const opens = t.name === 'startObject' || t.name === 'startArray';
    const closes = t.name === 'endObject' || t.name === 'endArray';
    if (this.base === -1) this.base = t.name === 'startArray' ? 1 : 0;
    if (this.base === 1 && this.depth === 0) {
      // The outer array itself; a second top-level value after it is read as concatenated values.
      if (opens) {
        this.depth = 1;
        return;
      }
    }
    if (this.base === 1 && this.depth === 1 && closes) {
      this.depth = 0;
      return;
    }
    const atRecordStart = this.depth === this.base || (this.base === 1 && this.depth === 0);
    if (atRecordStart && !this.asm && !this.skippingValue) {
      this.startLine = this.line;
      this.valueChars = 0;
      this.asm = new Assembler();
    }
    if (opens) this.depth++;
    if (closes) this.depth--;
    if (this.asm) {
      (this.asm as unknown as { consume(t: Token): void }).consume(t);
      if (this.valueChars > this.maxValueBytes) {
        this.asm = null;
        this.skippingValue = true;
      }
    }
    const done = this.depth === this.base || (this.base === 1 && this.depth === 0);
    if (done && (this.asm || this.skippingValue)) {
      if (this.skippingValue) {
        this.ledger.oversized++;
        this.sink.oversized(this.startLine, this.valueChars);
        this.skippingValue = false;
      } else {
        const value = (this.asm as unknown as { current: unknown }).current;
        this.asm = null;
        this.ledger.parsed++;
        this.sink.record(value, this.startLine, null);
      }
    }
  }
}
