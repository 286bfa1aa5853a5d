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
});
