import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sigMatch } from './cascade.js';
import { SigPool } from './pool.js';

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

/**
 * Plays `ops` on a pool and on a plain Map, checking after each that they agree: every match asked
 * for, and with `probe`, also a fixed signature after every operation (so a pool is asked at every
 * size it passes through).
 */
function playAgainstScan(ops: readonly Op[], probe: Sig | null): void {
  const pool = new SigPool<number>();
  const ref = new Map<number, Sig>();
  let seq = 0;
  const expectMatch = (sig: Sig) => {
    const matching = [...ref].filter(([, s]) => sigMatch(sig, s)).map(([k]) => k);
    const got = pool.match(sig);
    expect(got.first).toBe(matching[0] ?? null);
    expect(got.count).toBe(matching.length);
  };
  for (const o of ops) {
    if (o.op === 'add') {
      pool.add(++seq, seq, o.sig);
      ref.set(seq, o.sig);
    } else if (o.op === 'delete') {
      const keys = [...ref.keys()];
      if (keys.length === 0) continue;
      const k = keys[o.pick % keys.length]!;
      expect(pool.delete(k)).toBe(true);
      ref.delete(k);
    } else if (o.op === 'shift') {
      const k = ref.keys().next();
      expect(pool.shift()).toBe(k.done ? undefined : k.value);
      if (!k.done) ref.delete(k.value);
    } else expectMatch(o.sig);
    if (probe) expectMatch(probe);
    expect(pool.size).toBe(ref.size);
    expect(pool.first()).toBe(ref.keys().next().value);
    expect([...pool.values()]).toEqual([...ref.keys()]);
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
});
