/**
 * An outside tester's findings (branch fix-input): valid JSON documents read as JSON.parse reads
 * them (item 1), no stack overflow on long lists (item 2), stdin that is a directory is an
 * INPUT_ERROR (item 3), the same file given twice is read once (item 4).
 */
import { execFileSync } from 'node:child_process';
import { linkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import type { Report } from '../src/report/report.js';
import { BIN, fixture, ROOT, runCli, tmpDir, withoutGateLine } from './helpers.js';

describe('item 1: a valid document with objects at column 0 inside records', () => {
  it('Python json.dump(indent=0) of events holding arrays of objects: 2 records, 1 pair, no finding', async () => {
    const file = path.join(tmpDir(), 'min.json');
    writeFileSync(
      file,
      [
        '[',
        '{"event":"llm:request","session_id":"s","request_id":"r1","data":{"provider":"p","model":"m","messages":[',
        '{"role":"user"}',
        ']}},',
        '{"event":"llm:response","session_id":"s","request_id":"r1","data":{"provider":"p","model":"m"}}',
        ']',
        '',
      ].join('\n'),
    );
    const res = await runCli(['analyze', file, '-f', 'json']);
    expect(res.code).toBe(0);
    const r = JSON.parse(res.stdout) as Report;
    expect(r.inputs[0]).toMatchObject({ format: 'json', lines: 6, records: 2, malformed: 0, used: 2 });
    expect(r.findingCounts).toEqual({});
    expect(r.channels[0]!.pairs.total).toBe(1);
  });

  it('{"a":[ objects at column 0 ]}: one record, not its inner objects', async () => {
    const file = path.join(tmpDir(), 'wrapped.json');
    writeFileSync(file, '{"a":[\n{"event":"llm:request","session_id":"s","request_id":"r1"},\n{"event":"llm:request","session_id":"s","request_id":"r2"}\n]}\n');
    const r = await analyze({ inputs: [file], allowEmpty: true });
    expect(r.inputs[0]).toMatchObject({ format: 'json', records: 1, malformed: 0, used: 0 });
  });
});

describe('item 2: 200 000 of anything is no stack overflow', () => {
  it('200 000 input arguments (the same file: read once)', async () => {
    const file = path.join(tmpDir(), 'x.jsonl');
    writeFileSync(file, '');
    const r = await analyze({ inputs: Array.from({ length: 200_000 }, () => file), allowEmpty: true });
    expect(r.inputs).toHaveLength(1);
    expect(r.notes.some((n) => n.startsWith('Read once, given more than once') && n.includes('and 199989 more'))).toBe(true);
  });
});

describe('item 3: stdin that is a directory', () => {
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

describe('item 4: the same file given more than once is read once', () => {
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
