/**
 * A parallel-reading worker (`--jobs`): frames and evaluates runs of whole lines (see batch.ts)
 * and sends back, in line order, what the main thread then feeds to the profiles. A batch whose
 * values cannot be sent comes back as `redo` (the main thread evaluates it); any other failure
 * comes back as `fault` (the run ends with one line), never as silence.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { keepFunction, keepFunctions } from '../profiles/keep.js';
import { BatchEvaluator } from './batch.js';
import type { BatchIn, BatchOut, WorkerInit } from './parallel-protocol.js';

const init = workerData as WorkerInit;
// The profiles' keep specs are plain data: no profile is built here.
const evaluator = new BatchEvaluator({
  needles: init.needles.map((n) => Buffer.from(n, 'latin1')),
  validateAll: init.validateAll,
  maxLineBytes: init.maxLineBytes,
  keep: keepFunction(init.keep),
  keeps: keepFunctions(init.keeps),
  checkDepth: true,
});

const EMPTY = { lines: 0, blank: 0, malformed: 0, oversized: 0, parsed: 0, unparsed: 0 };

function redo(m: BatchIn): void {
  const back: BatchOut = { seq: m.seq, buf: m.buf, items: [], ledger: EMPTY, redo: { start: m.start, end: m.end } };
  parentPort!.postMessage(back, [m.buf.buffer as ArrayBuffer]);
}

parentPort!.on('message', (m: BatchIn) => {
  let out: BatchOut;
  try {
    out = evaluator.run(m);
  } catch (e) {
    parentPort!.postMessage({ seq: m.seq, buf: new Uint8Array(0), items: [], ledger: EMPTY, fault: (e as Error)?.message ?? String(e) } satisfies BatchOut);
    return;
  }
  if (evaluator.tooDeep) return redo(m);
  try {
    parentPort!.postMessage(out, [m.buf.buffer as ArrayBuffer]);
  } catch {
    // Not serialisable after all (the check above is a bound, not a proof): the bytes go back.
    redo(m);
  }
});
parentPort!.postMessage({ ready: true });
