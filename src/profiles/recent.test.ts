import { describe, expect, it } from 'vitest';
import { RecentLines } from './recent.js';

describe('RecentLines', () => {
  it('finds byte-identical lines within the window only', () => {
    const r = new RecentLines(3);
    const b = (s: string) => Buffer.from(s);
    expect(r.seen(b('a1'))).toBe(false);
    expect(r.seen(b('a2'))).toBe(false);
    expect(r.seen(b('a1'))).toBe(true);
    expect(r.seen(b('a3'))).toBe(false);
    expect(r.seen(b('a4'))).toBe(false); // a1 leaves the window
    expect(r.seen(b('a1'))).toBe(false);
    // Same length, different bytes.
    expect(r.seen(b('b1'))).toBe(false);
  });

  it('still finds duplicates of lines larger than the copy budget', () => {
    const r = new RecentLines(64);
    const big = Buffer.alloc(9 * 1024 * 1024, 0x61);
    const other = Buffer.alloc(9 * 1024 * 1024, 0x61);
    other[5] = 0x62;
    expect(r.seen(big)).toBe(false);
    expect(r.seen(other)).toBe(false);
    expect(r.seen(Buffer.from(big))).toBe(true);
  });

  it('answers as a plain scan of the window, whatever the fingerprint filter skips', () => {
    // Seeded lines from a small alphabet (many repeats, in and out of the window, and shared
    // fingerprint buckets), checked against the last `size` lines kept in a list.
    for (const size of [1, 2, 5, 64]) {
      const r = new RecentLines(size);
      const last: string[] = [];
      let x = 7;
      for (let i = 0; i < 5000; i++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        const line = `{"n":${x % 97}}`;
        const want = last.includes(line);
        expect(r.seen(Buffer.from(line))).toBe(want);
        if (!want) {
          last.push(line);
          if (last.length > size) last.shift();
        }
      }
    }
  });
});
