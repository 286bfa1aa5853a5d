#!/usr/bin/env node
/**
 * The CLI as one bundled entry (issue 13, start-up): after `tsc` has built dist/ (the library and
 * its types), esbuild bundles src/cli/main.ts and the reader worker into dist/cli/main.js and
 * dist/cli/worker.js, with what a run may not need (JSON documents' stream-json, say) in chunks
 * loaded on demand. Resolving and compiling ~100 modules at every start is what it saves.
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(ROOT, 'dist', 'cli');
// Chunks of an earlier bundle.
rmSync(path.join(out, 'chunks'), { recursive: true, force: true });

await build({
  absWorkingDir: ROOT,
  entryPoints: { main: 'src/cli/main.ts', worker: 'src/input/worker.ts' },
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
  // CommonJS dependencies (cli-table3, …) call require(): give the ES module one.
  banner: { js: "import { createRequire as __cpRequire } from 'node:module'; const require = __cpRequire(import.meta.url);" },
});
