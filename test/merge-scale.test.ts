/**
 * `callpair merge` streams: 10 000 shard reports (bench/merge-shards.mjs) merge with peak RSS under
 * 200 MB (in a 128 MB old space). The merged report is written in pieces (safeJsonPieces, src/formatters/json.ts).
 * The shards list 10 findings each (`--max-findings 10`; 13 KB, not 88 KB): the merge holds the same
 * 30 000 scopes and 10 000 inputs and writes a 46 MB report (147 MB peak); held whole, that text
 * takes it to ~218 MB.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, tmpDir } from './helpers.js';

const SHARDS = Number(process.env.MERGE_SHARDS ?? 10_000);
/** Findings listed per shard: most of a full shard's bytes, which the merge reads and drops past its own cap. */
const SHARD_FINDINGS = 10;

describe('merge at scale', () => {
  it(`${SHARDS} shard reports merge under 200 MB peak RSS`, () => {
    const dir = tmpDir();
    const gen = spawnSync(process.execPath, [path.join(ROOT, 'bench', 'merge-shards.mjs'), dir, String(SHARDS), String(SHARD_FINDINGS)], { encoding: 'utf8' });
    expect(gen.status, gen.stderr).toBe(0);
    const files = readdirSync(dir).filter((f) => f.startsWith('r-')).sort();
    expect(files).toHaveLength(SHARDS);
    // maxRSS of the merge process itself, measured from inside it at exit (no /usr/bin/time needed).
    const wrapper = `process.on('exit', () => process.stderr.write('MAXRSS_KB ' + process.resourceUsage().maxRSS + '\\n'));
process.argv = [process.argv[0], ${JSON.stringify(BIN)}, ...process.argv.slice(1)];
await import(${JSON.stringify(BIN)});`;
    const out = path.join(dir, 'merged.json');
    // A 128 MB old space: a merge that streams fits in it; without a cap V8 lets the heap grow while
    // its concurrent marking waits for a CPU the other test file holds (RSS then read 201–209 MB).
    const r = spawnSync(process.execPath, ['--max-old-space-size=128', '--input-type=module', '-e', wrapper, 'merge', ...files, '-o', out], { cwd: dir, encoding: 'utf8' });
    // A directory argument reads its *.json reports: 50 shards in a directory and 10 named give the
    // same bytes as the 60 named (a second merge of all the shards would double the test's time).
    const some = files.slice(0, 60);
    const named = path.join(dir, 'named.json');
    const n = spawnSync(process.execPath, [BIN, 'merge', ...some, '-o', named], { cwd: dir, encoding: 'utf8' });
    expect(n.status, n.stderr).toBe(0);
    const viaDir = path.join(dir, 'via-dir');
    const shardDir = path.join(dir, 'shards');
    mkdirSync(shardDir);
    for (const f of some.slice(0, 50)) renameSync(path.join(dir, f), path.join(shardDir, f));
    const a = spawnSync(process.execPath, [BIN, 'merge', 'shards', ...some.slice(50), '-o', viaDir], { cwd: dir, encoding: 'utf8' });
    expect(a.status, a.stderr).toBe(0);
    expect(readFileSync(viaDir, 'utf8')).toBe(readFileSync(named, 'utf8'));
    expect(r.status, r.stderr).toBe(0);
    const kb = Number(/MAXRSS_KB (\d+)/.exec(r.stderr)?.[1]);
    expect(kb).toBeGreaterThan(0);
    if (process.env.MERGE_VERBOSE === "1") process.stderr.write(`merge maxRSS ${(kb / 1024).toFixed(1)} MB\n`);
    expect(kb / 1024).toBeLessThan(200);
    expect(statSync(out).size).toBeGreaterThan(1_000_000);
  }, 180_000);
});
