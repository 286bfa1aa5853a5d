/**
 * Node built-ins a plain run may never use, loaded on first use instead of at start-up
 * (docs/performance.md#start-up): `node:crypto` (with the streams it pulls in), `node:zlib` and
 * `node:worker_threads` are not in Node's start-up snapshot, and compiling them cost ~4 ms at every
 * start. `process.getBuiltinModule` (Node ≥ 20.16) loads them synchronously, once.
 */
let c: typeof import('node:crypto') | undefined;
let z: typeof import('node:zlib') | undefined;
let w: typeof import('node:worker_threads') | undefined;
let v: typeof import('node:v8') | undefined;
export const crypto = () => (c ??= process.getBuiltinModule('node:crypto'));
export const zlib = () => (z ??= process.getBuiltinModule('node:zlib'));
export const workerThreads = () => (w ??= process.getBuiltinModule('node:worker_threads'));
export const v8 = () => (v ??= process.getBuiltinModule('node:v8'));
