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
