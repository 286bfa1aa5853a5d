/**
 * Special files among the inputs: a device or FIFO reached through a link in a directory or a glob
 * is skipped with a message (the rest is read); a FIFO given directly is read (process
 * substitution), also as --caller or --upstream, where the look before the pass must not consume it;
 * stdin that is a directory is an INPUT_ERROR.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/report/report.js';
import { BIN, fixture, inputErrors, QUIET, ROOT, runCli, seedCopy, tmpDir, withoutGateLine } from './helpers.js';

describe('the special-file rule applies after following links', () => {
  it('links in a directory (or matched by a glob) to /dev/zero and to a FIFO are skipped with a message; the rest is read', async () => {
    const dir = tmpDir();
    const d = path.join(dir, 'caps');
    mkdirSync(d);
    seedCopy(d, 'a.jsonl');
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    symlinkSync('/dev/zero', path.join(d, 'zero.jsonl'));
    symlinkSync(path.join(dir, 'fifo'), path.join(d, 'fifo.jsonl'));
    for (const arg of [d, path.join(d, '*.jsonl')]) {
      const t0 = Date.now();
      const res = await runCli(['analyze', '--format', 'json', arg]);
      expect(Date.now() - t0).toBeLessThan(20_000);
      expect(withoutGateLine(res.stderr)).toBe('');
      const r = JSON.parse(res.stdout) as Report;
      expect(r.inputs.find((i) => i.path.endsWith('a.jsonl'))!.lines).toBe(8);
      const errs = inputErrors(r).map((f) => f.message);
      expect(errs.find((m) => m.includes('zero.jsonl') || m.includes('character device')), JSON.stringify(errs)).toMatch(/skipped, a (link to a )?character device/);
      expect(errs.find((m) => m.includes('FIFO')), JSON.stringify(errs)).toMatch(/skipped, a (link to a )?FIFO/);
    }
  });

  it('given directly, a FIFO is still read (process substitution)', () => {
    const out = execFileSync('/bin/bash', ['-c', `"${process.execPath}" "${BIN}" analyze --format json <(cat "${fixture('seed-trace.jsonl')}")`], { cwd: ROOT, stdio: QUIET }).toString();
    expect((JSON.parse(out) as Report).inputs[0]!.lines).toBe(8);
  });
});

describe('the look before the pass (fileContains) never consumes a FIFO', () => {
  it('--caller and --upstream given as process substitution are read whole', () => {
    const a = (f: string) => fixture(`assay/${f}`);
    const out = execFileSync('/bin/bash', ['-c', `"${process.execPath}" "${BIN}" analyze --format json "${a('run-ids.decisions.ndjson')}" --caller <(cat "${a('run-ids.caller.jsonl')}") --upstream <(cat "${a('run-ids.upstream.jsonl')}") || true`], { cwd: ROOT, stdio: QUIET }).toString();
    const r = JSON.parse(out) as Report;
    expect(r.inputs.map((i) => i.lines)).toEqual([9, 6, 8]);
  });
});

describe('stdin that is a directory', () => {
  it('is an INPUT_ERROR naming -, and the default gate fails', () => {
    let code = 0;
    let out = '';
    try {
      out = execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" analyze - --allow-empty --format json < /`], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    } catch (e) {
      const err = e as { status: number; stdout: Buffer };
      code = err.status;
      out = err.stdout.toString();
    }
    expect(code).toBe(1);
    const r = JSON.parse(out) as Report;
    const f = r.findings.find((x) => x.code === 'INPUT_ERROR');
    expect(f?.severity).toBe('error');
    expect(f?.locations[0]?.path).toBe('-');
    expect(f?.message).toMatch(/EISDIR: stdin \(-\) is a directory/);
  });
});
