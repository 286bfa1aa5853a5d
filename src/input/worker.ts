/**
 * A parallel-reading worker (`--jobs`): evaluates batches of lines framed by the main thread (see
 * batch.ts) and sends back, in line order, what the main thread then feeds to the profiles.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { keepFunction } from '../profiles/keep.js';
import { BatchEvaluator } from './batch.js';
import type { BatchIn, WorkerInit } from './parallel-protocol.js';

const init = workerData as WorkerInit;
const evaluator = new BatchEvaluator(
  init.needles.map((n) => Buffer.from(n, 'latin1')),
  init.validateAll,
  keepFunction(init.keep),
);

parentPort!.on('message', (m: BatchIn) => {
  const out = evaluator.run(m);
  parentPort!.postMessage(out, m.bufs.map((u) => u.buffer as ArrayBuffer));
});
parentPort!.postMessage({ ready: true });
