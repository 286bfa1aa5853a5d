#!/usr/bin/env node
/**
 * Writes dist/cli/fast.cjs.cache, the V8 code cache of the fast path bundle (docs/performance.md,
 * start-up), run by scripts/bundle.mjs in a process of its own: loads fast.cjs as main.js does
 * (src/cli/fast-load.ts), runs plain `analyze` runs so the functions they call are compiled, and
 * saves the bytecode behind the build's own mark. Their reports go nowhere (the parent discards
 * this process's output).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUILD_MARK, loadFastPath } from '../dist/cli/fast-load.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(ROOT, 'dist', 'cli');
const fast = loadFastPath(pathToFileURL(`${dir}/`), false);
if (!fast) throw new Error('dist/cli/fast.cjs is missing');
const seed = path.join(ROOT, 'fixtures', 'seed-trace.jsonl');
for (const extra of [[], ['-f', 'json']]) {
  if (!(await fast.runFast(['analyze', seed, ...extra]))) throw new Error('the fast path did not take a plain run');
}
const source = readFileSync(path.join(dir, 'fast.cjs'), 'utf8');
const head = Buffer.from(`${source.slice(source.lastIndexOf(BUILD_MARK)).trim()}\n`);
writeFileSync(path.join(dir, 'fast.cjs.cache'), Buffer.concat([head, fast.script.createCachedData()]));
process.exitCode = 0;
