import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from './histogram.js';

describe('LatencyHistogram', () => {
  it('keeps percentiles within 1% of the exact value', () => {
    const h = new LatencyHistogram();
    const values: number[] = [];
    let x = 7;
    for (let i = 0; i < 20000; i++) {
      x = (x * 48271) % 2147483647;
      const v = (x % 1_000_000) / 37; // 0 .. ~27 s in ms, fractional
      values.push(v);
      h.record(v, null);
    }
    values.sort((a, b) => a - b);
    for (const q of [0.5, 0.9, 0.99]) {
      const exact = values[Math.ceil(q * values.length) - 1]!;
      const got = h.quantile(q)!;
      expect(Math.abs(got - exact) / exact).toBeLessThan(0.01);
    }
    expect(h.stats()!.min).toBe(Math.round(values[0]! * 1000) / 1000);
  });

  it('merges exactly', () => {
    const a = new LatencyHistogram();
    const b = new LatencyHistogram();
    const all = new LatencyHistogram();
    for (let i = 1; i < 500; i++) {
      (i % 2 ? a : b).record(i * 3.3, { path: 'p', line: i });
      all.record(i * 3.3, { path: 'p', line: i });
    }
    a.merge(b);
    expect(a.stats()).toEqual(all.stats());
  });

  it('is empty → null stats; records the location of min and max', () => {
    const h = new LatencyHistogram();
    expect(h.stats()).toBeNull();
    h.record(5, { path: 'x', line: 2 });
    h.record(1, { path: 'x', line: 3 });
    h.record(-1, { path: 'x', line: 4 });
    expect(h.stats()).toMatchObject({ count: 2, min: 1, max: 5, minAt: { line: 3 }, maxAt: { line: 2 } });
  });

  it('small samples give exact percentiles, and merging a small one into a large one keeps every value', () => {
    const h = new LatencyHistogram();
    for (const v of [10, 20, 30]) h.record(v, null);
    expect([h.quantile(0.5), h.quantile(0.9)]).toEqual([20, 30]);
    const big = new LatencyHistogram();
    for (let i = 1; i <= 100; i++) big.record(i, null);
    big.merge(h);
    expect(big.count).toBe(103);
    expect(big.stats()).toMatchObject({ min: 1, max: 100 });
  });
});
