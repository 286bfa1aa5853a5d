import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sigMatch } from './cascade.js';
import { SigPool, type PoolEntry } from './pool.js';

type Sig = (string | null)[] | null;
const sigArb: fc.Arbitrary<Sig> = fc.option(fc.array(fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null }), { minLength: 3, maxLength: 3 }), {
  nil: null,
  freq: 8,
});
const opArb = fc.oneof(
  fc.record({ op: fc.constant('add' as const), sig: sigArb }),
  fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('shift' as const) }),
  fc.record({ op: fc.constant('match' as const), sig: sigArb }),
);

type Op = { op: 'add'; sig: Sig } | { op: 'delete'; pick: number } | { op: 'shift' } | { op: 'match'; sig: Sig };

interface E extends PoolEntry {
  n: number;
}
const entry = (seq: number, sig: Sig): E => ({ seq, sig, live: 0, mask: undefined, full: undefined, n: seq });

/**
 * Plays `ops` on a pool and on a plain Map, checking after each that they agree: every match asked
 * for, and with `probe`, also a fixed signature after every operation (so a pool is asked at every
 * size it passes through). With `twin`, every entry is also in a second pool (another bit) that
 * takes out every third one: the pools share entries and stay independent.
 */
function playAgainstScan(ops: readonly Op[], probe: Sig | null, twin = false): void {
  const pool = new SigPool<E>(1);
  const other = new SigPool<E>(2);
  const ref = new Map<number, E>();
  const otherRef = new Map<number, E>();
  let seq = 0;
  const expectMatch = (sig: Sig) => {
    const matching = [...ref.values()].filter((e) => sigMatch(sig, e.sig));
    const got = pool.match(sig);
    expect(got?.n ?? null).toBe(matching[0]?.n ?? null);
    expect(got === null ? 0 : pool.matched).toBe(matching.length);
    if (twin) {
      const otherMatching = [...otherRef.values()].filter((e) => sigMatch(sig, e.sig));
      expect(other.match(sig)?.n ?? null).toBe(otherMatching[0]?.n ?? null);
    }
  };
  for (const o of ops) {
    if (o.op === 'add') {
      const e = entry(++seq, o.sig);
      pool.add(e);
      ref.set(seq, e);
      if (twin) {
        other.add(e);
        otherRef.set(seq, e);
        if (seq % 3 === 0) {
          const x = otherRef.values().next().value!;
          expect(other.delete(x)).toBe(true);
          otherRef.delete(x.seq);
        }
      }
    } else if (o.op === 'delete') {
      const keys = [...ref.keys()];
      if (keys.length === 0) continue;
      const k = keys[o.pick % keys.length]!;
      expect(pool.delete(ref.get(k)!)).toBe(true);
      expect(pool.delete(otherRef.get(k) ?? ref.get(k)!)).toBe(false);
      ref.delete(k);
    } else if (o.op === 'shift') {
      const k = ref.keys().next();
      expect(pool.shift()?.n).toBe(k.done ? undefined : k.value);
      if (!k.done) ref.delete(k.value);
    } else expectMatch(o.sig);
    if (probe) expectMatch(probe);
    expect(pool.size).toBe(ref.size);
    expect(pool.first()?.n).toBe(ref.keys().next().value);
    expect([...pool.values()].map((e) => e.n)).toEqual([...ref.keys()]);
    if (twin) {
      expect(other.size).toBe(otherRef.size);
      expect([...other.values()].map((e) => e.n)).toEqual([...otherRef.keys()]);
    }
  }
}

describe('SigPool answers as a scan of the pool would', () => {
  it('gives the same answers on either side of the scan threshold (pools growing past 16 and shrinking back)', () => {
    const heavy = fc.oneof({ arbitrary: fc.record({ op: fc.constant('add' as const), sig: sigArb }), weight: 3 }, { arbitrary: opArb, weight: 2 });
    fc.assert(
      fc.property(fc.array(heavy, { minLength: 40, maxLength: 400 }), (ops) => playAgainstScan(ops, ['a', null, 'b'])),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
    );
  });

  it('answers "oldest" and "oldest with a matching signature" exactly as a scan of the pool would', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 300 }), (ops) => playAgainstScan(ops, null)),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    );
  });

  it('pools sharing their entries (one bit each) answer each as its own scan would', () => {
    const heavy = fc.oneof({ arbitrary: fc.record({ op: fc.constant('add' as const), sig: sigArb }), weight: 3 }, { arbitrary: opArb, weight: 2 });
    fc.assert(
      fc.property(fc.array(heavy, { minLength: 40, maxLength: 400 }), (ops) => playAgainstScan(ops, ['a', null, 'b'], true)),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 100) },
    );
  });
});

describe('SigPool indexes lazily', () => {
  const internals = (p: unknown) => p as { byMask: Map<string, unknown>; indexed: boolean };

  it('a pool no terminal asks by signature keeps no mask list, however large', () => {
    const pool = new SigPool<E>(1);
    for (let k = 1; k <= 1000; k++) pool.add(entry(k, ['a', `m${k % 7}`, null]));
    for (let k = 0; k < 400; k++) pool.shift();
    expect(pool.size).toBe(600);
    expect(internals(pool).byMask.size).toBe(0);
  });

  it('the first lookup by signature indexes the live entries, and the pool answers as before', () => {
    const pool = new SigPool<E>(1);
    const all: E[] = [];
    for (let k = 1; k <= 100; k++) {
      const e = entry(k, ['a', `m${k % 4}`, null]);
      all.push(e);
      pool.add(e);
    }
    for (const e of all.slice(0, 30)) pool.delete(e);
    expect(pool.match(['a', 'm2', null])?.n).toBe(34);
    expect(pool.matched).toBe(all.slice(30).filter((e) => e.sig![1] === 'm2').length);
    expect(internals(pool).byMask.size).toBe(1);
    pool.add(entry(101, ['a', 'm1', 'x']));
    expect(pool.match([null, 'm1', 'x'])?.n).toBe(33);
    expect(pool.match([null, null, 'x'])?.n).toBe(101);
    // Empty again: small, with nothing left of its indexes.
    while (pool.shift());
    expect(pool.isPristine()).toBe(true);
  });
});
