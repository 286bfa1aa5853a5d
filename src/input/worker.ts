/**
 * A parallel-reading worker (`--jobs`): evaluates batches of lines framed by the main thread (the
 * needle test on bytes, decode, JSON.parse, the profiles' `keep` pruning, a SHA-256 of each
 * record's bytes) and sends back, in line order, what the main thread then feeds to the profiles.
 */
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { LineEvaluator, type LineSink } from './lines.js';
import { resolveProfiles } from '../profiles/index.js';
import { combinedKeep } from '../profiles/keep.js';
import { OP_LINE, OP_OVERSIZED, OP_SIZE, type BatchIn, type BatchOut, type WorkerInit } from './parallel-protocol.js';

const init = workerData as WorkerInit;
const keep = combinedKeep(resolveProfiles(init.profile, init.profileOptions));
const needles = init.needles.map((n) => Buffer.from(n, 'latin1'));

let items: unknown[] = [];
const ledger = { parsed: 0, unparsed: 0, malformed: 0 };
const sink: LineSink = {
  record(value, line, raw) {
    items.push(line, value, createHash('sha256').update(raw!).digest('base64'));
  },
  malformed(line, reason, bytes) {
    items.push(-line, reason, bytes);
  },
  oversized() {
    // Framing (and so oversized lines) is the main thread's.
  },
};
const evaluator = new LineEvaluator(needles, init.validateAll, sink, ledger, keep);

parentPort!.on('message', (m: BatchIn) => {
  items = [];
  ledger.parsed = ledger.unparsed = ledger.malformed = 0;
  const bufs = m.bufs.map((u) => Buffer.from(u.buffer, u.byteOffset, u.byteLength));
  const ops = m.ops;
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
  const out: BatchOut = { seq: m.seq, bufs: m.bufs, items, parsed: ledger.parsed, unparsed: ledger.unparsed, malformed: ledger.malformed };
  parentPort!.postMessage(out, m.bufs.map((u) => u.buffer as ArrayBuffer));
});
