import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Generations, RecentKeys, ScopedGenerations } from './recent.js';

describe('RecentKeys (the recently closed ids window)', () => {
  it('remembers exactly what a Map refreshed by delete+set and trimmed from its oldest key would', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'), { maxLength: 400 }), (limit, keys) => {
        const w = new RecentKeys(limit);
        const ref = new Map<string, true>();
        for (const k of keys) {
          w.remember('', k);
          ref.delete(k);
          ref.set(k, true);
          if (ref.size > limit) ref.delete(ref.keys().next().value!);
          expect(w.size).toBe(ref.size);
          for (const x of 'abcdefghijk') expect(w.has('', x)).toBe(ref.has(x));
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });

  it('keys by scope and id together: the same id in two scopes is two keys, evicted in the order remembered', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.tuple(fc.constantFrom('s', 't', 'u', 's\u0000a', ''), fc.constantFrom('a', 'b', 'c', 'd', 'a\u0000s', '')), { maxLength: 400 }),
        (limit, keys) => {
          const w = new RecentKeys(limit);
          const ref = new Map<string, true>();
          for (const [s, k] of keys) {
            w.remember(s, k);
            const rk = JSON.stringify([s, k]);
            ref.delete(rk);
            ref.set(rk, true);
            if (ref.size > limit) ref.delete(ref.keys().next().value!);
            expect(w.size).toBe(ref.size);
            for (const x of ['s', 't', 'u', 's\u0000a', '']) for (const y of ['a', 'b', 'c', 'd', 'a\u0000s', '']) expect(w.has(x, y)).toBe(ref.has(JSON.stringify([x, y])));
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
    );
  });

  it('keeps its queue within a constant factor of the window when one key is remembered over and over', () => {
    const w = new RecentKeys(4);
    for (let i = 0; i < 100_000; i++) w.remember('s', i % 7 === 0 ? `k${i}` : `same${i % 3}`);
    expect(w.size).toBe(4);
    expect((w as unknown as { keys: string[] }).keys.length).toBeLessThanOrEqual(2 * (2 * 4 + 64 + 1));
  });
});

describe('ScopedGenerations (the transcript profile’s window of ids)', () => {
  it('finds exactly what Generations keyed by scope and key together finds, and drops at the same writes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.constantFrom('s', 't', 'u'), fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g')), { maxLength: 300 }),
        (size, writes) => {
          const w = new ScopedGenerations<number>(size);
          const ref = new Generations<number>(size);
          writes.forEach(([scope, key], i) => {
            w.set(scope, key, i);
            ref.set(`${scope}\u0000${key}`, i);
            expect(w.dropped).toBe(ref.dropped);
            for (const s of 'stu') for (const k of 'abcdefg') expect(w.get(s, k)).toBe(ref.get(`${s}\u0000${k}`));
          });
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });
});
