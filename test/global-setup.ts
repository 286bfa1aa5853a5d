/**
 * Vitest's global setup (vitest.config.ts): before a run, removes the temp folders that earlier runs
 * left behind (once they filled 73 GB of disk); after it, the `tmpDir()` folders this run made.
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** What the tests (test/helpers.ts `tmpDir()`, the assay profile's test) and `npm run bench` make. */
export const SWEPT_PREFIXES = ['callpair-test-', 'callpair-assay-', 'callpair-bench-'] as const;

/** A folder this old (by mtime) belongs to no run still going. */
export const SWEEP_AGE_MS = 2 * 60 * 60 * 1000;

/**
 * Removes the folders directly in `root` whose name starts with one of SWEPT_PREFIXES and that are
 * older than `maxAgeMs`: by the newest mtime of the folder and of what it directly holds (a run
 * that keeps rewriting one file, as the bench does, is still going). Never anything else: not a
 * file, not a symbolic link (nor what it points to), not a folder of another user. Returns the
 * paths removed; a folder that cannot be read or removed is left as it is.
 */
export function sweepTempDirs(root: string = tmpdir(), now: number = Date.now(), maxAgeMs: number = SWEEP_AGE_MS): string[] {
  const uid = process.getuid?.();
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!SWEPT_PREFIXES.some((p) => name.startsWith(p))) continue;
    const dir = path.join(root, name);
    try {
      // lstat: a symbolic link is not a directory, whatever it points to.
      const st = lstatSync(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      let newest = st.mtimeMs;
      for (const entry of readdirSync(dir)) newest = Math.max(newest, lstatSync(path.join(dir, entry)).mtimeMs);
      if (now - newest <= maxAgeMs) continue;
      // Removes links inside the folder, never what they point to.
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // Gone meanwhile, or not ours to remove: left as it is.
    }
  }
  return removed;
}

/**
 * The file where `tmpDir()` (test/helpers.ts) lists the folders it makes in this run: the forks
 * vitest ends with SIGTERM never run their `exit` handlers, so teardown removes them.
 */
export const MADE_LIST_ENV = 'CALLPAIR_TEST_MADE';

/** Removes the folders listed in `list` (one path a line): only `callpair-test-` folders directly in `root`. */
export function removeListed(list: string, root: string = tmpdir()): void {
  let text: string;
  try {
    text = readFileSync(list, 'utf8');
  } catch {
    return;
  }
  for (const dir of new Set(text.split('\n'))) {
    if (path.dirname(dir) !== root || !path.basename(dir).startsWith('callpair-test-')) continue;
    try {
      if (lstatSync(dir).isDirectory()) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Gone already.
    }
  }
}

export default function setup(): () => void {
  const removed = sweepTempDirs();
  if (removed.length) console.log(`global setup: removed ${removed.length} leftover temp folder(s) older than 2 hours from ${tmpdir()}`);
  // This run's list; a run killed before teardown leaves it (and its folders) to a later sweep.
  const run = mkdtempSync(path.join(tmpdir(), 'callpair-test-run-'));
  const list = path.join(run, 'made.txt');
  process.env[MADE_LIST_ENV] = list;
  return () => {
    removeListed(list);
    rmSync(run, { recursive: true, force: true });
  };
}
