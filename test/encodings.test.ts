/**
 * Encodings and compressions callpair does not read (UTF-16 with either BOM, zstd, bzip2, xz, gzip
 * holding UTF-16) are one INPUT_ERROR naming the file and what it is, never lines of junk; a text
 * line that merely starts like a magic number is still a line.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { inputErrors, SEED, tmpDir, writeCapture } from './helpers.js';

describe('encodings and compressions callpair does not read are named, not read as junk', () => {
  it('UTF-16 (both BOMs), zstd, bzip2, xz: one INPUT_ERROR naming the file and what it is', async () => {
    const dir = tmpDir();
    const text = SEED.toString('utf8');
    const files: Array<[string, Buffer, RegExp]> = [
      ['le.jsonl', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), /UTF-16 text \(little-endian/],
      ['be.jsonl', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]), /UTF-16 text \(big-endian/],
      ['z.jsonl', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), /zstd/],
      ['b.jsonl', execFileSync('bzip2', ['-c'], { input: SEED }), /bzip2/],
      ['x.jsonl', execFileSync('xz', ['-c'], { input: SEED }), /xz/],
      ['gz-le.jsonl.gz', gzipSync(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])), /gzip holding UTF-16/],
    ];
    for (const [name, body, re] of files) {
      const file = path.join(dir, name);
      writeFileSync(file, body);
      const r = await analyze({ inputs: [file] });
      const [e] = inputErrors(r);
      expect(e, name).toBeDefined();
      expect(e!.message).toMatch(re);
      expect(e!.code === 'INPUT_ERROR' && e!.data.path).toBe(file);
      expect(r.inputs[0]!.lines, name).toBe(0);
    }
    // A text line that happens to start with "BZh" is still a line.
    const r = await analyze({ inputs: [writeCapture(['BZh9 is not bzip2 here, nor (\u00b5/ zstd', '{"a":1}'])] });
    expect(inputErrors(r)).toEqual([]);
    expect(r.inputs[0]!.lines).toBe(2);
  });
});
