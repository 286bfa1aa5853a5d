import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../../test/helpers.js';
import { fileContains, sniff } from './sniff.js';

describe('fileContains', () => {
  const dir = tmpDir();
  const needle = Buffer.from('"jsonrpc"');
  it('finds a byte string anywhere, across read chunks, plain or gzip', async () => {
    const big = `${'x'.repeat(200_000)}{"jsonrpc": "2.0"}\n`;
    const plain = path.join(dir, 'a.jsonl');
    writeFileSync(plain, big);
    expect(await fileContains(plain, needle)).toBe(true);
    const gz = path.join(dir, 'a.jsonl.gz');
    writeFileSync(gz, gzipSync(big));
    expect(await fileContains(gz, needle)).toBe(true);
  });
  it('says so when it is not there', async () => {
    const p = path.join(dir, 'b.log');
    writeFileSync(p, 'tools/call github.create_deploy_key\n');
    expect(await fileContains(p, needle)).toBe(false);
    const empty = path.join(dir, 'c.log');
    writeFileSync(empty, '');
    expect(await fileContains(empty, needle)).toBe(false);
  });
});

describe('sniff recognises a JSON document by its content', () => {
  it('a line holding only `{` opens a document whatever the file is called (a .har)', () => {
    expect(sniff(Buffer.from('{\n  "log": {"entries": []}\n}\n'), 'capture.har', true)).toEqual({ kind: 'json' });
    expect(sniff(Buffer.from('\ufeff{  \r\n  "log": {}\n}'), 'export.log', true)).toEqual({ kind: 'json' });
    // A JSONL record on its first line stays JSONL.
    expect(sniff(Buffer.from('{"a": 1}\n{"a": 2}\n'), 'capture.har', true)).toEqual({ kind: 'jsonl' });
    expect(sniff(Buffer.from('{'), 'capture.har', false)).toBeNull();
  });
  it('a first line opening `{"log":` that goes on below is a HAR document under any name and on stdin; complete on its line it is JSONL', () => {
    const har = '{"log": {"version": "1.2",\n"entries": [\n{"a": 1},\n{"a": 2}\n]}}\n';
    for (const name of ['-', 'capture.log', 'capture.har']) expect(sniff(Buffer.from(har), name, true)).toEqual({ kind: 'json' });
    expect(sniff(Buffer.from('{"log": {"entries": []}}\n{"log": {"entries": []}}\n'), '-', true)).toEqual({ kind: 'jsonl' });
    expect(sniff(Buffer.from('{"logs": {\n'), '-', true)).toEqual({ kind: 'jsonl' });
    expect(sniff(Buffer.from('{"log": {"version"'), '-', false)).toBeNull();
  });
  it('a one-line `{…}` alone in a .json/.har file is a document (a minified HAR, split over the bound); elsewhere, or followed by a line, JSONL', () => {
    const one = '{"log": {"entries": [{"a": 1}]}}';
    expect(sniff(Buffer.from(`${one}\n`), 'min.har', true)).toEqual({ kind: 'json' });
    expect(sniff(Buffer.from(one), 'min.json.gz', true)).toEqual({ kind: 'json' });
    expect(sniff(Buffer.from(`${one}\n`), 'min.log', true)).toEqual({ kind: 'jsonl' });
    expect(sniff(Buffer.from(`${one}\n${one}\n`), 'min.har', true)).toEqual({ kind: 'jsonl' });
  });
});
