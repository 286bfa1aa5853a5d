/** Helpers that never pass a list's elements as call arguments. */
import { describe, expect, it } from 'vitest';
import { append, maxOf, minOf } from './arrays.js';

const N = 200_000;

describe('arrays of any length', () => {
  it('append, minOf, maxOf take 200 000 elements (a spread call throws past ~100 000)', () => {
    const big = Array.from({ length: N }, (_, k) => k);
    expect(() => [].push(...(Array.from({ length: 2_000_000 }, () => 0) as never[]))).toThrow(RangeError);
    const into = [-1];
    expect(append(into, big)).toBe(into);
    expect(into).toHaveLength(N + 1);
    expect(into[N]).toBe(N - 1);
    expect(minOf(big)).toBe(0);
    expect(maxOf(big)).toBe(N - 1);
    expect(minOf([])).toBe(Infinity);
    expect(maxOf([], 0)).toBe(0);
  });
});
