/**
 * The same file given more than once (by another spelling, a hard link, stdin redirected from it,
 * or 200 000 times) is read once, with a note naming the others; different files with the same
 * content are both read.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import type { Report } from '../src/report/report.js';
import { BIN, fixture, runCli, tmpDir, withoutGateLine } from './helpers.js';

describe('the same file given more than once is read once', () => {
  it('x, ./x, a hard link and stdin redirected from x: one input, a note naming the others, lines counted once', async () => {
    const dir = tmpDir();
    const x = path.join(dir, 'x.jsonl');
    writeFileSync(x, execFileSync('cat', [fixture('seed-trace.jsonl')]));
    linkSync(x, path.join(dir, 'hard.jsonl'));
    const once = JSON.parse((await runCli(['analyze', '-f', 'json', 'x.jsonl'], { cwd: dir })).stdout) as Report;
    const out = execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" analyze -f json x.jsonl ./x.jsonl hard.jsonl - < x.jsonl`], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
    const r = JSON.parse(out) as Report;
    expect(r.inputs.map((i) => i.path)).toEqual(['x.jsonl']);
    expect(r.totals).toEqual(once.totals);
    expect(r.channels).toEqual(once.channels);
    expect(r.notes).toContain('Read once, given more than once: ./x.jsonl (same file as x.jsonl), hard.jsonl (same file as x.jsonl), - (same file as x.jsonl).');
  });

  it('different files with the same content are both read', async () => {
    const dir = tmpDir();
    writeFileSync(path.join(dir, 'a.jsonl'), execFileSync('cat', [fixture('seed-trace.jsonl')]));
    writeFileSync(path.join(dir, 'b.jsonl'), execFileSync('cat', [fixture('seed-trace.jsonl')]));
    const res = await runCli(['analyze', '-f', 'json', '--no-fail', 'a.jsonl', 'b.jsonl'], { cwd: dir });
    expect(withoutGateLine(res.stderr)).toBe('');
    expect((JSON.parse(res.stdout) as Report).inputs).toHaveLength(2);
  });
});

describe('200 000 of anything is no stack overflow', () => {
  it('200 000 input arguments (the same file: read once)', async () => {
    const file = path.join(tmpDir(), 'x.jsonl');
    writeFileSync(file, '');
    const r = await analyze({ inputs: Array.from({ length: 200_000 }, () => file), allowEmpty: true });
    expect(r.inputs).toHaveLength(1);
    expect(r.notes.some((n) => n.startsWith('Read once, given more than once') && n.includes('and 199989 more'))).toBe(true);
  });
});
