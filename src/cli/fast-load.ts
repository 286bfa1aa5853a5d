/**
 * Loads the fast path bundle (dist/cli/fast.cjs) with the V8 code cache scripts/code-cache.mjs
 * wrote next to it at build time (docs/performance.md#start-up): bytecode for every function a
 * plain run calls, so a run neither parses nor compiles them. Node 20 has no compile cache for
 * modules; `vm.Script` takes one. The cache is used only when its first line names this very
 * build of fast.cjs; V8 rejects it by itself when made by another V8 version or other flags, and
 * then the file is compiled as usual. Nothing is ever written at run time.
 */
import { createRequire } from 'node:module';

export interface FastPath {
  runFast(args: readonly string[]): Promise<boolean>;
  /** The script, for scripts/code-cache.mjs (`createCachedData` after a run). */
  script: import('node:vm').Script;
  /** undefined: no cache read; false: V8 took it; true: V8 rejected it. */
  cacheRejected: boolean | undefined;
}

/** Where a build of fast.cjs names itself (its last line); the cache's first line repeats it. */
export const BUILD_MARK = '//callpair-build:';

/** The CommonJS wrapper the bundle runs in: the same text at build time and at run time. */
function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

/** fast.cjs in the folder `dirUrl`, or null when there is none (a plain `tsc` build). */
export function loadFastPath(dirUrl: URL, useCache = true): FastPath | null {
  // Built-ins through require: cheaper at start-up than importing them as ES modules.
  const req = createRequire(dirUrl);
  const fs = req('node:fs') as typeof import('node:fs');
  const vm = req('node:vm') as typeof import('node:vm');
  const path = req('node:path') as typeof import('node:path');
  const dir = (req('node:url') as typeof import('node:url')).fileURLToPath(dirUrl);
  const file = path.join(dir, 'fast.cjs');
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  let cachedData: Buffer | undefined;
  const at = source.lastIndexOf(BUILD_MARK);
  if (useCache && at >= 0) {
    const head = Buffer.from(`${source.slice(at).trim()}\n`);
    try {
      const cache = fs.readFileSync(`${file}.cache`);
      if (cache.length > head.length && cache.subarray(0, head.length).equals(head)) cachedData = cache.subarray(head.length);
    } catch {
      // No cache: compiled as usual.
    }
  }
  const script = new vm.Script(wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as { runFast?: FastPath['runFast'] } };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, createRequire(file), module, file, dir);
  return { runFast: module.exports.runFast!, script, cacheRejected: cachedData ? script.cachedDataRejected === true : undefined };
}
