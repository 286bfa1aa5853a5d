/**
 * Evaluating one batch of framed lines (parallel reading): in a worker, or in the main thread when
 * the workers are busy. The needle test, decode and JSON.parse (with the profiles' `keep`), and a
 * SHA-256 of each record's bytes, so every record of a file reaches the profiles the same way.
 */
import { createHash } from 'node:crypto';
import { LineEvaluator, type LineSink } from './lines.js';
import type { SourceRule } from './classify.js';
import { OP_LINE, OP_OVERSIZED, OP_SIZE, type BatchIn, type BatchOut } from './parallel-protocol.js';

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

export class BatchEvaluator {
  private items: unknown[] = [];
  /** In a worker: a record of the current batch nests too deep to be sent. */
  tooDeep = false;
  private readonly ledger = { parsed: 0, unparsed: 0, malformed: 0 };
  private readonly sink: LineSink;
  /** One evaluator per classify rule set (batches name theirs: it is per source). */
  private readonly evaluators = new Map<string, LineEvaluator>();

  constructor(
    private readonly needles: readonly Buffer[],
    private readonly validateAll: boolean,
    private readonly keep: ((value: unknown) => unknown) | null,
    /** In a worker: flag batches whose values cannot be sent (see MAX_SEND_DEPTH). */
    checkDepth = false,
    /** Each profile's own `keep` (see LineEvaluator). */
    private readonly keeps: ReadonlyMap<string, (value: unknown) => unknown> | null = null,
  ) {
    const sink: LineSink = {
      record: (value, line, raw) => {
        if (checkDepth && raw!.length >= 2 * MAX_SEND_DEPTH && deeperThan(value, MAX_SEND_DEPTH)) this.tooDeep = true;
        this.items.push(line, value, createHash('sha256').update(raw!).digest('base64'));
      },
      malformed: (line, reason, bytes) => {
        this.items.push(-line, reason, bytes);
      },
      oversized() {
        // Framing (and so oversized lines) is the main thread's.
      },
    };
    this.sink = sink;
  }

  private evaluatorFor(classify: string): LineEvaluator {
    let ev = this.evaluators.get(classify);
    if (!ev) {
      ev = new LineEvaluator(this.needles, this.validateAll, this.sink, this.ledger, this.keep, JSON.parse(classify) as SourceRule[] | null, this.keeps);
      this.evaluators.set(classify, ev);
    }
    return ev;
  }

  run(m: BatchIn): BatchOut {
    this.items = [];
    this.tooDeep = false;
    const items = this.items;
    const ledger = this.ledger;
    ledger.parsed = ledger.unparsed = ledger.malformed = 0;
    const bufs = m.bufs.map((u) => Buffer.from(u.buffer, u.byteOffset, u.byteLength));
    const ops = m.ops;
    const evaluator = this.evaluatorFor(m.classify);
    let cur = -1;
    for (let i = 0; i < ops.length; i += OP_SIZE) {
      const kind = ops[i]!;
      if (kind === OP_OVERSIZED) {
        items.push(0, ops[i + 4]!, ops[i + 5]!);
        continue;
      }
      if (kind !== OP_LINE) continue;
      const b = ops[i + 1]!;
      if (b !== cur) {
        cur = b;
        evaluator.newChunk();
      }
      const flags = ops[i + 6]!;
      evaluator.line(bufs[b]!, ops[i + 2]!, ops[i + 3]!, ops[i + 4]!, (flags & 1) !== 0, (flags & 2) !== 0, ops[i + 5]!);
    }
    return { seq: m.seq, bufs: m.bufs, items, parsed: ledger.parsed, unparsed: ledger.unparsed, malformed: ledger.malformed };
  }
}
