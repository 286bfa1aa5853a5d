/**
 * File names are bytes: a name that is not UTF-8 (Latin-1, a terminal escape) is read inside a
 * directory, given directly and by a glob, printed escaped, and an output name that is not UTF-8 is
 * written under its bytes.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/report/report.js';
import { BIN, fixture, inputErrors, QUIET, ROOT, tmpDir } from './helpers.js';

describe('file names are bytes', () => {
  it('a name that is not UTF-8 is read inside a directory, given directly and by a glob, and printed escaped', () => {
    const dir = tmpDir();
    const d = path.join(dir, 'caps');
    mkdirSync(d);
    // caf\xe9 + ESC [31m: Latin-1 and a terminal escape in one name.
    execFileSync('/bin/sh', ['-c', `cp "${fixture('seed-trace.jsonl')}" "$(printf '${d}/caf\\351\\033[31m.jsonl')"`]);
    for (const arg of [`"${d}"`, `"$(printf '${d}/caf\\351\\033[31m.jsonl')"`, `"${d}/caf*.jsonl"`]) {
      const out = execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" analyze --format json ${arg}`], { cwd: ROOT, stdio: QUIET }).toString();
      const r = JSON.parse(out) as Report;
      expect(inputErrors(r)).toEqual([]);
      expect(r.inputs).toHaveLength(1);
      expect(r.inputs[0]!.lines).toBe(8);
      expect(r.inputs[0]!.path.endsWith('caps/caf\\xe9\u001b[31m.jsonl'), r.inputs[0]!.path).toBe(true);
    }
    // An output name that is not UTF-8 is written under its bytes.
    execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" analyze "${d}" -o "$(printf '${dir}/out\\351.txt')"`], { stdio: QUIET });
    expect(readdirSync(Buffer.from(dir), { encoding: 'buffer' }).map((b) => b.toString('latin1')).sort()).toEqual(['caps', 'out\u00e9.txt']);
    const table = execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" analyze "${d}"`], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: QUIET }).toString();
    expect(table).toContain('caf\\xe9');
    expect(table).not.toMatch(/[\u001b\ufffd]/);
  });
});
