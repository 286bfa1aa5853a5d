import { existsSync, lutimesSync, mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeListed, SWEEP_AGE_MS, sweepTempDirs } from './global-setup.js';
import { tmpDir } from './helpers.js';

/** Sets the mtime (and atime) of `p`, `ageMs` ago. */
function age(p: string, ageMs: number): void {
  const t = new Date(Date.now() - ageMs);
  utimesSync(p, t, t);
}

const OLD = SWEEP_AGE_MS + 60 * 60 * 1000;

describe('sweepTempDirs (vitest global setup)', () => {
  it('removes old folders with a test prefix, and nothing else', () => {
    const root = tmpDir();
    const outside = tmpDir();
    const victim = path.join(outside, 'victim');
    mkdirSync(victim);
    writeFileSync(path.join(victim, 'keep.txt'), 'x');
    age(victim, OLD);

    const dir = (name: string, files: Record<string, number> = {}, dirAge = OLD) => {
      const d = path.join(root, name);
      mkdirSync(d);
      for (const [f, a] of Object.entries(files)) {
        writeFileSync(path.join(d, f), 'x');
        age(path.join(d, f), a);
      }
      age(d, dirAge);
      return d;
    };
    // Old, matching: removed (a link inside goes, what it points to stays).
    const oldTest = path.join(root, 'callpair-test-old');
    mkdirSync(path.join(oldTest, 'nested'), { recursive: true });
    writeFileSync(path.join(oldTest, 'nested', 'big.jsonl'), 'x');
    symlinkSync(victim, path.join(oldTest, 'link'));
    const t = new Date(Date.now() - OLD);
    lutimesSync(path.join(oldTest, 'link'), t, t);
    age(path.join(oldTest, 'nested'), OLD);
    age(oldTest, OLD);
    dir('callpair-assay-old', { 'x.jsonl': OLD });
    dir('callpair-bench-old');
    // Kept: new; old but holding a fresh file (a run still going); other names; a file; a link.
    dir('callpair-test-new', {}, 0);
    dir('callpair-bench-busy', { 'time.txt': 0 });
    dir('other-old', { 'a.txt': OLD });
    dir('callpair-chromium-old');
    writeFileSync(path.join(root, 'callpair-test-file'), 'x');
    age(path.join(root, 'callpair-test-file'), OLD);
    symlinkSync(victim, path.join(root, 'callpair-test-link'));

    const removed = sweepTempDirs(root);

    expect(removed.map((p) => path.basename(p)).sort()).toEqual(['callpair-assay-old', 'callpair-bench-old', 'callpair-test-old']);
    expect(readdirSync(root).sort()).toEqual(['callpair-bench-busy', 'callpair-chromium-old', 'callpair-test-file', 'callpair-test-link', 'callpair-test-new', 'other-old']);
    expect(existsSync(path.join(victim, 'keep.txt'))).toBe(true);
    // Nothing is old enough under a longer limit.
    dir('callpair-test-old2');
    expect(sweepTempDirs(root, Date.now(), OLD * 2)).toEqual([]);
  });

  it('a missing root removes nothing', () => {
    expect(sweepTempDirs(path.join(tmpDir(), 'missing'))).toEqual([]);
  });

  it('teardown removes the listed callpair-test- folders directly in the root, nothing else', () => {
    const root = tmpDir();
    for (const d of ['callpair-test-a', 'callpair-test-b', 'other', 'callpair-test-a/callpair-test-inner']) mkdirSync(path.join(root, d));
    const list = path.join(tmpDir(), 'made.txt');
    const listed = ['callpair-test-a', 'other', 'callpair-test-a/callpair-test-inner', '../callpair-test-b'];
    writeFileSync(list, listed.map((d) => path.join(root, d)).join('\n') + '\n');
    removeListed(list, root);
    expect(readdirSync(root).sort()).toEqual(['callpair-test-b', 'other']);
    removeListed(path.join(root, 'no-list.txt'), root);
  });
});
