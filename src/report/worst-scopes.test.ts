import { describe, expect, it } from 'vitest';
import { worstFirst } from './worst-scopes.js';

describe('worstFirst: the one scope ranking', () => {
  it('compares trouble left to right, larger first; ties by name in byte order', () => {
    const xs = [
      { n: 'b', t: [0, 5] },
      { n: 'a', t: [1, 0] },
      { n: 'c', t: [0, 5] },
      { n: 'B', t: [0, 0] },
      { n: 'd', t: [1, 0, 1] },
    ];
    expect(worstFirst(xs, (x) => x.t, (x) => [x.n]).map((x) => x.n)).toEqual(['d', 'a', 'b', 'c', 'B']);
  });

  it('does not sort its input in place, and ties compare every name part', () => {
    const xs = [
      { ch: 'llm', s: 'b' },
      { ch: 'decision', s: 'z' },
      { ch: 'llm', s: 'a' },
    ];
    const out = worstFirst(xs, () => [0], (x) => [x.ch, x.s]);
    expect(out.map((x) => `${x.ch}/${x.s}`)).toEqual(['decision/z', 'llm/a', 'llm/b']);
    expect(xs[0]!.s).toBe('b');
  });
});
