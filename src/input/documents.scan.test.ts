/**
 * The document scanner against JSON.parse: any valid top-level array or
 * stream of pretty-printed values gives exactly its elements/values, on their lines, whatever the
 * chunk boundaries; a value over the limit is oversized and the rest still read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocumentReader } from './documents.js';
import { feedChunks } from '../../test/helpers.js';

function run(buf: Buffer, sizes: number[], maxValueBytes = 1 << 20) {
  const records: unknown[] = [];
  const lines: number[] = [];
  const bad: number[] = [];
  const r = new DocumentReader({
    maxValueBytes,
    sink: { record: (v, line) => (records.push(v), lines.push(line)), oversized: (line) => bad.push(line), malformed: (line) => bad.push(-line) },
  });
  feedChunks(r, buf, sizes);
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

  /** `json.dump(x, f, indent=0)` of Python: every line starts at column 0 (strings hold no raw newline). */
  const indent0 = (x: unknown) => JSON.stringify(x, null, 1).replace(/^ +/gm, '');
  const record = fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(value, fc.array(fc.dictionary(fc.string({ maxLength: 3 }), value, { maxKeys: 3 }), { maxLength: 3 })), { maxKeys: 4 });

  it('valid documents at indents 0, 1, 2 and none: exactly the elements, whatever nests at column 0', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 6 }), fc.constantFrom<'0' | '1' | '2' | 'none'>('0', '1', '2', 'none'), sizes, fc.boolean(), (arr, indent, sz, wrap) => {
        const doc = wrap ? { a: arr } : arr;
        const text = indent === '0' ? indent0(doc) : indent === 'none' ? JSON.stringify(doc) : JSON.stringify(doc, null, Number(indent));
        const out = run(Buffer.from(`${text}\n`), sz);
        expect(out.bad).toEqual([]);
        expect(out.records).toEqual(wrap ? [JSON.parse(text)] : JSON.parse(text));
        expect(out.ledger.lines).toBe(text.split('\n').length);
      }),
      { numRuns: 400, seed: 2101 },
    );
  });

  it('indent=0 with nested arrays of objects: the elements, not their inner objects', () => {
    const events = [
      { event: 'llm:request', request_id: 'r1', data: { messages: [{ role: 'user' }, { role: 'system' }] } },
      { event: 'llm:response', request_id: 'r1', data: { model: 'm' } },
    ];
    const text = indent0(events);
    const out = run(Buffer.from(`${text}\n`), []);
    expect(out.bad).toEqual([]);
    expect(out.records).toEqual(events);
    // The second element's `{` is the line before its first key.
    expect(out.lines).toEqual([2, text.split('\n').indexOf('"event": "llm:response",')]);
    const wrapped = run(Buffer.from('{"a":[\n{"x":1},\n{"y":2}\n]}\n'), [3]);
    expect(wrapped.records).toEqual([{ a: [{ x: 1 }, { y: 2 }] }]);
  });

  it('a broken record is still cut at the next `{` at column 0: one that never closes, or whose brackets do not match', () => {
    const never = run(Buffer.from('{"a":1,\n{"b":2}\n{"c":[\n{"d":3}\n]}\n'), [5]);
    expect(never.records).toEqual([{ b: 2 }, { d: 3 }]);
    expect(never.bad).toEqual([-1, -3, -5]);
    expect(never.ledger.lines).toBe(5);
    const mismatch = run(Buffer.from('[\n{"a":1,\n{"b":2},\n{"c":3}\n]\n'), []);
    expect(mismatch.records).toEqual([{ b: 2 }, { c: 3 }]);
    expect(mismatch.bad).toEqual([-2]);
    expect(mismatch.ledger.lines).toBe(5);
    const rawNewline = run(Buffer.from('{"a":1,\n{"b":"x\ny"}\n{"c":3}\n'), [2]);
    expect(rawNewline.records).toEqual([{ c: 3 }]);
    expect(rawNewline.bad).toEqual([-1, -2]);
    expect(rawNewline.ledger.lines).toBe(4);
  });

  it('a valid record over the limit with objects at column 0 inside is one oversized record, the rest read', () => {
    const big = { messages: Array.from({ length: 200 }, (_, k) => ({ k, pad: 'z'.repeat(20) })) };
    const text = indent0([{ a: 1 }, big, { b: 2 }]);
    const out = run(Buffer.from(text), [64], 1000);
    expect(out.records).toEqual([{ a: 1 }, { b: 2 }]);
    expect(out.ledger.oversized).toBe(1);
    expect(out.ledger.malformed).toBe(0);
  });
});
