/**
 * A report of megabytes written to a stdout that is a full device (written in slices, src/cli/io.ts
 * writeText): one line, exit 2, and no gate verdict first (the write failure is reported before
 * the run goes on as if the report were out).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, tmpDir } from './helpers.js';

describe.skipIf(!existsSync('/dev/full'))('stdout on a full device', () => {
  it('a multi-megabyte JSON report: "cannot write output", exit 2, no "gate passed"', () => {
    const file = path.join(tmpDir(), 'scopes.jsonl');
    const gen = spawnSync(process.execPath, [path.join(ROOT, 'bench', 'adversarial', 'gen.mjs'), 'scopes', '4000'], { maxBuffer: 1 << 28 });
    writeFileSync(file, gen.stdout);
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [BIN, 'analyze', file, '--format', 'json'], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/cannot write output: ENOSPC/);
      expect(r.stderr).not.toMatch(/gate passed/);
    } finally {
      closeSync(full);
    }
  }, 60_000);

  it('merge of multi-megabyte reports, -o /dev/full and stdout on it: one line, exit 2 (it exited 13, silent)', () => {
    const dir = tmpDir();
    const file = path.join(dir, 'scopes.jsonl');
    writeFileSync(file, spawnSync(process.execPath, [path.join(ROOT, 'bench', 'adversarial', 'gen.mjs'), 'scopes', '4000'], { maxBuffer: 1 << 28 }).stdout);
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    expect(spawnSync(process.execPath, [BIN, 'analyze', file, '-f', 'json', '-o', a]).status).toBe(0);
    expect(spawnSync(process.execPath, [BIN, 'analyze', path.join(ROOT, 'fixtures', 'seed-trace.jsonl'), '-f', 'json', '-o', b]).status).toBe(0);
    const toFile = spawnSync(process.execPath, [BIN, 'merge', a, b, '-o', '/dev/full'], { encoding: 'utf8' });
    expect(toFile.status).toBe(2);
    expect(toFile.stderr).toMatch(/cannot write \/dev\/full: no space left on device/);
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [BIN, 'merge', a, b], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/cannot write output: ENOSPC/);
    } finally {
      closeSync(full);
    }
  }, 60_000);
});
