/**
 * The document scanner against JSON.parse (issue 16 items 5 and 6): any valid top-level array or
 * stream of pretty-printed values gives exactly its elements/values, on their lines, whatever the
 * chunk boundaries; a value over the limit is oversized and the rest still read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocumentReader } from './documents.js';

function run(buf: Buffer, sizes: number[], maxValueBytes = 1 << 20) {
  const records: unknown[] = [];
  const lines: number[] = [];
  const bad: number[] = [];
  const r = new DocumentReader({
    maxValueBytes,
    sink: { record: (v, line) => (records.push(v), lines.push(line)), oversized: (line) => bad.push(line), malformed: (line) => bad.push(-line) },
  });
  let pos = 0;
  let k = 0;
  while (pos < buf.length) {
    const n = Math.max(1, sizes.length ? sizes[k++ % sizes.length]! : buf.length);
    r.push(buf.subarray(pos, pos + n));
    pos += n;
  }
  r.end();
  return { records, lines, bad, ledger: r.ledger };
}

const sizes = fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 4 });
const value = fc.jsonValue({ maxDepth: 3 });

describe('DocumentReader scans like JSON.parse', () => {
  it('a top-level array (compact or pretty): exactly its elements', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 8 }), fc.boolean(), sizes, (arr, pretty, sz) => {
        const text = pretty ? JSON.stringify(arr, null, 2) : JSON.stringify(arr);
        const out = run(Buffer.from(`${text}\n`), sz);
        expect(out.bad).toEqual([]);
        expect(out.records).toEqual(JSON.parse(JSON.stringify(arr)));
        expect(out.ledger.lines).toBe(text.split('\n').length);
      }),
      { numRuns: 300, seed: 1616 },
    );
  });

  it('concatenated pretty-printed objects: each one a record, on the line it starts', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string({ maxLength: 5 }), value, { maxKeys: 4 }), { maxLength: 6 }), sizes, (objs, sz) => {
        const texts = objs.map((o) => JSON.stringify(o, null, 2));
        const out = run(Buffer.from(texts.map((t) => `${t}\n`).join('')), sz);
        expect(out.bad).toEqual([]);
        expect(out.records).toEqual(JSON.parse(JSON.stringify(objs)));
        let line = 1;
        const starts = texts.map((t) => {
          const at = line;
          line += t.split('\n').length;
          return at;
        });
        expect(out.lines).toEqual(starts);
      }),
      { numRuns: 300, seed: 1617 },
    );
  });

  it('a value over the limit is oversized, the values around it are read', () => {
    const big = { blob: 'x'.repeat(5000), s: 'a\\"b\u00e9\n' };
    const out = run(Buffer.from(JSON.stringify([{ a: 1 }, big, 'str', 42, { b: [1, { c: null }] }], null, 1)), [7, 1, 300], 1000);
    expect(out.records).toEqual([{ a: 1 }, 'str', 42, { b: [1, { c: null }] }]);
    expect(out.bad).toEqual([5]);
    expect(out.ledger.oversized).toBe(1);
  });
});
