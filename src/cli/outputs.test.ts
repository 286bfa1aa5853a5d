import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../../test/helpers.js';
import { openOutput, writeOutput } from './outputs.js';

describe('writeOutput', () => {
  it('writes megabytes in slices, never splitting a surrogate pair between two', async () => {
    // Slices are 2^20 code units: the astral character's two halves sit at 2^20 - 1 and 2^20 (and,
    // shifted, both before or after the cut).
    for (const shift of [0, 1, 2]) {
      const file = path.join(tmpDir(), `out-${shift}.txt`);
      const body = 'a'.repeat(2 ** 20 - 2 + shift) + '😀' + 'é'.repeat(2 ** 20) + '😀\n';
      await writeOutput(await openOutput(file), body);
      expect(readFileSync(file, 'utf8')).toBe(body);
    }
  });
});

describe('writeText', () => {
  it('waits for a slow reader slice by slice and leaves no listener behind (no MaxListenersExceededWarning)', async () => {
    const { PassThrough } = await import('node:stream');
    const { writeText } = await import('./io.js');
    const s = new PassThrough({ highWaterMark: 1024 });
    let got = 0;
    s.on('data', (d: Buffer) => {
      got += d.length;
      s.pause();
      setImmediate(() => s.resume());
    });
    const before = { drain: s.listenerCount('drain'), close: s.listenerCount('close'), error: s.listenerCount('error') };
    const text = 'x'.repeat(15 * 2 ** 20);
    await writeText(s, text);
    await new Promise((r) => setImmediate(r));
    expect({ drain: s.listenerCount('drain'), close: s.listenerCount('close'), error: s.listenerCount('error') }).toEqual(before);
    s.end();
    await new Promise((r) => s.on('end', r));
    expect(got).toBe(text.length);
  });
});
