/**
 * esbuild options shared by scripts/bundle.mjs and test/action.test.ts: what every bundle of the
 * CLI shares, and the GitHub Action's copy of the CLI (action.yml, docs/ci.md#github-actions).
 */
import path from 'node:path';

/** What the bundles share. */
export const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
};

/**
 * The Action's CLI: main.js and the reader worker as two self-contained files under action/bin/,
 * committed, so a job runs callpair without installing anything (no npm ci, no devDependencies).
 * No chunks and no build mark: the same source gives the same bytes, and test/action.test.ts
 * checks that the committed files are what this build writes.
 */
export function actionBundle(root) {
  return {
    ...common,
    absWorkingDir: root,
    // Module names in the bundle as node_modules/… even where node_modules is a symlink (a git
    // worktree's): the same bytes on every checkout.
    preserveSymlinks: true,
    entryPoints: { main: 'src/cli/main.ts', worker: 'src/input/worker.ts' },
    outdir: path.join(root, 'action', 'bin'),
    format: 'esm',
    // CommonJS dependencies (cli-table3, …) call require(): give the ES module one.
    banner: { js: "import { createRequire as __cpRequire } from 'node:module'; const require = __cpRequire(import.meta.url);" },
  };
}
