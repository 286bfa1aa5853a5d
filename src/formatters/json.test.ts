import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeJson, safeJsonPieces } from './json.js';

const joined = (v: unknown) => [...safeJsonPieces(v)].join('');

describe('safeJsonPieces', () => {
  it('is safeJson(value, 2) to the byte, on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 7 }), (v) => {
        fc.pre(v !== null && typeof v === 'object');
        expect(joined(v)).toBe(safeJson(v, 2));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
  });

  it('leaves out and writes null as JSON.stringify does; walks prototype-less objects; stringifies toJSON values whole', () => {
    const dict = Object.create(null) as Record<string, unknown>;
    dict.provider = 'a\u2028b\u202e';
    dict['__proto__'] = 1;
    const v = {
      a: undefined,
      f: () => 1,
      s: Symbol('x'),
      arr: [undefined, () => 1, Symbol('y'), [], {}, [[[{ deep: ['x\ny', { z: [1, NaN, Infinity, -0] }] }]]]],
      when: new Date(0),
      dict,
      boxed: Object.assign(Object.create({ inherited: 1 }), { own: 2 }),
      '\u0085key': { '': [null, true, false, 1.5e300] },
    };
    expect(joined(v)).toBe(safeJson(v, 2));
    expect(joined([])).toBe('[]');
    expect(joined({})).toBe('{}');
    expect(joined({ a: undefined })).toBe('{}');
  });
});

describe('safeJson escaping', () => {
  it('escapes U+007F in otherwise ASCII text, and every risky character beside non-ASCII text', () => {
    expect(safeJson({ a: 'x\u007fy' })).toBe('{"a":"x\\u007fy"}');
    expect(joined({ a: 'x\u007fy' })).toBe('{\n  "a": "x\\u007fy"\n}');
    expect(safeJson(['é\u0085\u202e\u2066'])).toBe('["é\\u0085\\u202e\\u2066"]');
    expect(safeJson(['plain ascii'])).toBe('["plain ascii"]');
  });
});

describe('safeJsonPieces on long arrays (stringified in runs)', () => {
  it('is safeJson(value, 2) to the byte with long arrays of mixed elements at every level', () => {
    const elem = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined), fc.array(fc.integer(), { minLength: 30, maxLength: 40 }).map((a) => ({ long: a })));
    const long = fc.array(elem, { minLength: 0, maxLength: 150 });
    fc.assert(
      fc.property(fc.record({ a: long, b: fc.array(fc.record({ inner: long, x: fc.string() }), { maxLength: 40 }), c: fc.array(fc.array(long, { maxLength: 3 }), { maxLength: 40 }) }), (v) => {
        expect(joined(v)).toBe(safeJson(v, 2));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
    );
  });
});
