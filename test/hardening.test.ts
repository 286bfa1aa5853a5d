/**
 * Issue 16 (input and output hardening): one named test per item, each of which failed before the
 * fix. Outputs never destroy an input and fail with one line and exit 2; hostile inputs (mixed gzip
 * members, `[` first, huge document strings, special files, odd names and encodings) are read as
 * far as they can be and said to be what they are.
 */
import { execFileSync, spawn } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/report/report.js';
import { BIN, fixture, ROOT, runCli, tmpDir } from './helpers.js';

const SEED = readFileSync(fixture('seed-trace.jsonl'));

function seedCopy(dir = tmpDir(), name = 'x.jsonl'): string {
  const p = path.join(dir, name);
  writeFileSync(p, SEED);
  return p;
}

/** One line on stderr, no stack trace, no raw control character. */
function expectOneLine(stderr: string): void {
  expect(stderr.endsWith('\n'), stderr).toBe(true);
  expect(stderr.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('item 3: an output that is an input is refused before anything is written', () => {
  it('pairs x.jsonl -o x.jsonl: exit 2, one line, the capture untouched', async () => {
    const x = seedCopy();
    const res = await runCli(['pairs', x, '-o', x]);
    expect(res.code).toBe(2);
    expectOneLine(res.stderr);
    expect(res.stderr).toMatch(/same file as the input/);
    expect(readFileSync(x)).toEqual(SEED);
  });

  it('hard links, symlinks, --report, directories of inputs, --caller and stdin all count', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir);
    linkSync(x, path.join(dir, 'hard.json'));
    symlinkSync(x, path.join(dir, 'sym.json'));
    const cases: string[][] = [
      ['analyze', x, '-o', path.join(dir, 'hard.json')],
      ['analyze', x, '--report', `json=${path.join(dir, 'sym.json')}`],
      ['analyze', dir, '--report', `sarif=${x}`],
      ['compare', x, '-o', path.join(dir, 'sym.json')],
      ['analyze', '--profile', 'assay', '--caller', x, fixture('seed-trace.jsonl'), '-o', x],
    ];
    for (const args of cases) {
      const res = await runCli(args);
      expect(res.code, args.join(' ')).toBe(2);
      expectOneLine(res.stderr);
      expect(res.stderr).toMatch(/same file as the input/);
    }
    // stdin redirected from the file (`compare - -o x.jsonl < x.jsonl`)
    const code = execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" compare - -o "${x}" < "${x}" 2>/dev/null; echo $?`]).toString().trim();
    expect(code).toBe('2');
    expect(readFileSync(x)).toEqual(SEED);
    expect(statSync(x).nlink).toBe(2);
  });

  it('outputs go through a temporary file renamed into place: no temporary is left, a symlink target is replaced, not the link', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir, 'in.jsonl');
    const real = path.join(dir, 'real.json');
    writeFileSync(real, 'old');
    symlinkSync(real, path.join(dir, 'link.json'));
    const res = await runCli(['analyze', '--format', 'json', x, '-o', path.join(dir, 'link.json'), '--report', `markdown=${path.join(dir, 'r.md')}`]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(readFileSync(real, 'utf8')).schema).toBeDefined();
    expect(readdirSync(dir).sort()).toEqual(['in.jsonl', 'link.json', 'r.md', 'real.json']);
  });
});

describe('item 12: any output failure is one line on stderr and exit 2', () => {
  it('-o under a file, -o /dev/full, --report json=/dev/full, -o a directory, for every command', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir);
    const notDir = path.join(dir, 'plain');
    writeFileSync(notDir, 'x');
    const bad = [
      ['-o', path.join(notDir, 'd', 'x')],
      ['-o', '/dev/full'],
      ['-o', dir],
    ];
    for (const cmd of ['analyze', 'compare', 'pairs']) {
      for (const o of bad) {
        const res = await runCli([cmd, x, ...o]);
        expect(res.code, `${cmd} ${o.join(' ')}: ${res.stderr}`).toBe(2);
        expectOneLine(res.stderr);
        expect(res.stdout).toBe('');
      }
    }
    for (const fmt of ['json', 'markdown', 'sarif']) {
      const res = await runCli(['analyze', x, '--report', `${fmt}=/dev/full`]);
      expect(res.code).toBe(2);
      expectOneLine(res.stderr);
      expect(res.stderr).toMatch(/ENOSPC/);
    }
    expect(readdirSync(dir).sort()).toEqual(['plain', 'x.jsonl']);
  });

  it('a missing output folder is created (as --report does); /dev/null is written in place', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir);
    for (const cmd of ['analyze', 'compare', 'pairs']) {
      const out = path.join(dir, cmd, 'deep', 'out.txt');
      const res = await runCli([cmd, x, '-o', out]);
      expect(res.code, res.stderr).toBe(0);
      expect(statSync(out).size).toBeGreaterThan(0);
      expect((await runCli([cmd, x, '-o', '/dev/null'])).code).toBe(0);
    }
  });
});

describe('item 15: usage errors never echo arguments raw', () => {
  it('ESC, OSC and newlines in arguments are escaped, one line, exit 2', async () => {
    const evil = 'a\u001b]0;pwned\u0007b\u001b[31m\nc\u009b\u202e';
    const cases: string[][] = [
      ['analyze', `/nonexistent/${evil}`],
      ['analyze', '--format', evil, fixture('seed-trace.jsonl')],
      ['analyze', `--${evil}`, fixture('seed-trace.jsonl')],
      ['analyze', '--report', evil, fixture('seed-trace.jsonl')],
      ['analyze', '--report', `json${evil}=x`, fixture('seed-trace.jsonl')],
      ['analyze', '--profile', evil, fixture('seed-trace.jsonl')],
      ['pairs', `nope${evil}*.jsonl`],
      [evil],
    ];
    for (const args of cases) {
      const res = await runCli(args);
      expect(res.code, JSON.stringify(args)).toBe(2);
      expect(res.stderr.split('\n').length, JSON.stringify(res.stderr)).toBe(2);
      expectOneLine(res.stderr);
      expect(res.stderr).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    }
  });
});

export function inputErrors(r: Report) {
  return r.findings.filter((f) => f.code === 'INPUT_ERROR');
}

export { ROOT, spawn, mkdirSync };
