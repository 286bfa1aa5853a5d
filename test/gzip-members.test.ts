/**
 * Gzip members as zcat reads them: concatenated members are all read (zero padding after them is
 * fine); plain bytes after a member, a corrupt later member or a cut stream keep every line read so
 * far and name the fault with its byte offset. Corrupt and truncated single-member files: see
 * test/transport.test.ts.
 */
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { inputErrors, SEED, tmpDir } from './helpers.js';

describe('gzip members and the bytes after them', () => {
  it('a gzip member followed by plain bytes: every line of the member is read, the fault is reported with its offset', async () => {
    const dir = tmpDir();
    const member = Buffer.from(Array.from({ length: 100_000 }, (_, k) => `{"n":${k}}\n`).join(''));
    const gz = gzipSync(member);
    for (const [name, body] of [
      ['seed.jsonl', SEED],
      ['big.jsonl', member],
    ] as const) {
      const packed = name === 'seed.jsonl' ? gzipSync(SEED) : gz;
      const file = path.join(dir, `mixed-${name}`);
      writeFileSync(file, Buffer.concat([packed, SEED]));
      const r = await analyze({ inputs: [file] });
      expect(r.inputs[0]!.lines).toBe(body.toString().split('\n').length - 1);
      expect(r.inputs[0]!.bytes).toBe(body.length);
      const [e] = inputErrors(r);
      expect(e!.code === 'INPUT_ERROR' && e!.data.byteOffset).toBe(packed.length);
      expect(e!.message).toMatch(/not gzip after gzip member 1/);
    }
  });

  it('concatenated gzip members are all read (as zcat does), with zero padding after them', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'multi.jsonl.gz');
    writeFileSync(file, Buffer.concat([gzipSync(SEED), gzipSync(Buffer.alloc(0)), gzipSync(SEED), Buffer.alloc(512)]));
    const r = await analyze({ inputs: [file] });
    expect(inputErrors(r)).toEqual([]);
    expect(r.inputs[0]!.lines).toBe(16);
    expect(r.inputs[0]!.gzip).toBe(true);
  });

  it('a corrupt second member or a cut stream keeps the first member and names the fault', async () => {
    const dir = tmpDir();
    const good = gzipSync(SEED);
    const bad = Buffer.from(gzipSync(SEED));
    bad.fill(0xaa, 12, 40);
    for (const [tail, re] of [
      [bad, /corrupt gzip data in member 2/],
      [good.subarray(0, good.length - 20), /truncated gzip stream \(member 2/],
      [good.subarray(0, 5), /truncated gzip header \(member 2/],
    ] as const) {
      const file = path.join(dir, `cut-${tail.length}.jsonl.gz`);
      writeFileSync(file, Buffer.concat([good, tail]));
      const r = await analyze({ inputs: [file] });
      expect(r.inputs[0]!.lines).toBeGreaterThanOrEqual(8);
      const [e] = inputErrors(r);
      expect(e!.message).toMatch(re);
      expect(e!.code === 'INPUT_ERROR' && e!.data.byteOffset).toBeGreaterThanOrEqual(good.length);
    }
  });
});
