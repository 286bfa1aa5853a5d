#!/usr/bin/env node
/**
 * The CLI as one bundled entry (issue 13, start-up): after `tsc` has built dist/ (the library and
 * its types), esbuild bundles src/cli/main.ts and the reader worker into dist/cli/main.js and
 * dist/cli/worker.js, with what a run may not need (the yargs command tree, say) in chunks
 * loaded on demand. Resolving and compiling ~100 modules at every start is what it saves.
 * Then the fast path of a plain `analyze` run as dist/cli/fast.cjs and its V8 code cache
 * (docs/performance.md#start-up), and the GitHub Action's self-contained copy under action/bin/
 * (scripts/action-bundle.mjs).
 */
import { build } from 'esbuild';
import { actionBundle, common } from './action-bundle.mjs';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(ROOT, 'dist', 'cli');
// Chunks of an earlier bundle.
rmSync(path.join(out, 'chunks'), { recursive: true, force: true });
rmSync(path.join(out, 'fast.cjs.cache'), { force: true });

await build({
  ...common,
  absWorkingDir: ROOT,
  entryPoints: { main: 'src/cli/main.ts', worker: 'src/input/worker.ts' },
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  format: 'esm',
  // CommonJS dependencies (cli-table3, …) call require(): give the ES module one.
  banner: { js: "import { createRequire as __cpRequire } from 'node:module'; const require = __cpRequire(import.meta.url);" },
});

// The fast path (src/cli/fast-main.ts: a plain `analyze` run, no yargs) as one CommonJS file:
// main.js loads it with a V8 code cache (src/cli/fast-load.ts), which ES modules cannot take on
// Node 20, and one file instead of a dozen chunks spares the module loader. Its last line names
// the build; the cache written below repeats it, so a cache never meets another build's code.
await build({
  ...common,
  absWorkingDir: ROOT,
  entryPoints: ['src/cli/fast-main.ts'],
  outfile: path.join(out, 'fast.cjs'),
  format: 'cjs',
  // parallel.ts finds the reader worker next to itself: dist/cli/worker.js, as for main.js.
  define: { 'import.meta.url': '__cpImportMetaUrl' },
  banner: { js: "const __cpImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  footer: { js: `//callpair-build:${randomBytes(8).toString('hex')}` },
});

await build(actionBundle(ROOT));

// The bin is executable: npx links a checkout's bin once and runs that link afterwards, so a
// rebuild (`npm test` builds: dist/ is removed and written anew) must leave main.js executable.
chmodSync(path.join(out, 'main.js'), 0o755);

const cache = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'code-cache.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
// Without a cache the fast path still runs, only slower: a failure here is reported, not fatal.
if (cache.status !== 0) console.error(`scripts/code-cache.mjs failed (exit ${cache.status}): dist/cli/fast.cjs runs without a code cache\n${cache.stderr}`);
