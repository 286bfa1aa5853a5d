/**
 * A JSON document read element by element that holds a key of its split path twice in one object
 * (`entries` twice in `log`, `log` twice at the top): JSON.parse keeps the last, so either the
 * records are exactly JSON.parse's elements, or the repeat is reported (with its line), never a
 * silent reading of the first array.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocumentReader } from './documents.js';
import { feedChunks } from '../../test/helpers.js';

function run(text: string, sizes: number[], maxValueBytes: number, splits: string[][] = [['log', 'entries']]) {
  const records: unknown[] = [];
  const repeats: Array<[number, string]> = [];
  const bad: number[] = [];
  const r = new DocumentReader({
    maxValueBytes,
    splits,
    sink: {
      record: (v) => records.push(v),
      oversized: (line) => bad.push(line),
      malformed: (line) => bad.push(-line),
      repeatedSplitKey: (line, key) => repeats.push([line, key]),
    },
  });
  const buf = Buffer.from(text);
  feedChunks(r, buf, sizes);
  return { records, repeats, bad, ledger: r.ledger };
}

const entry = fc.record({ a: fc.oneof(fc.integer(), fc.string({ maxLength: 6 })) });
/** A member's value: an array of entries, or something else (a string, null). */
const valueText = fc.oneof(fc.array(entry, { maxLength: 4 }), fc.constant('x'), fc.constant(null)).map((v) => JSON.stringify(v));

/** An object's text from its members (key text as written, with its quotes; value text), repeats kept. */
const obj = (members: Array<[string, string]>, sep: string) => `{${members.map(([k, v]) => `${k}:${v}`).join(sep)}}`;

describe('a repeated key on the split path of a document read element by element', () => {
  it('the records are JSON.parse\'s elements, or the repeat is reported: for generated documents with and without repeats, any chunking', () => {
    fc.assert(
      fc.property(
        // Keys of `log` as written: the path's `entries` (also with an escape), and another.
        fc.array(fc.tuple(fc.constantFrom('"entries"', '"entr\\u0069es"', '"pages"'), valueText), { minLength: 1, maxLength: 4 }),
        // Keys of the top object: `log` (also with an escape), and another.
        fc.array(fc.constantFrom('"log"', '"lo\\u0067"', '"version"'), { minLength: 1, maxLength: 3 }),
        fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 3 }),
        fc.boolean(),
        (logMembers, topKeys, sz, pretty) => {
          const sep = pretty ? ',\n' : ',';
          const log = obj(logMembers, sep);
          const text = obj([...topKeys.map((k): [string, string] => [k, k === '"version"' ? '1' : log]), ['"pad"', JSON.stringify('p'.repeat(400))]], sep);
          const parsed = JSON.parse(text) as { log?: { entries?: unknown } };
          const expected = Array.isArray(parsed.log?.entries) ? parsed.log.entries : null;
          const out = run(text, sz, 300);
          if (out.repeats.length > 0) {
            // Reported once, at the line of the repeated key, naming the path down to it.
            expect(out.repeats).toHaveLength(1);
            expect(['log', 'log.entries']).toContain(out.repeats[0]![1]);
            expect(out.repeats[0]![0]).toBeGreaterThanOrEqual(1);
            return;
          }
          // No repeat reported: exactly JSON.parse's elements; or, with no array to split (or the
          // bound passed before it), nothing is read and the document is oversized.
          if (expected === null || (out.records.length === 0 && expected.length > 0)) {
            expect(out.records).toEqual([]);
            expect(out.ledger.oversized).toBe(1);
          } else expect(out.records).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('"entries" twice in log, the document over the bound: DUPLICATE_KEY at the line of the second key, whatever was read', () => {
    const text = `{"log": {\n"entries": [{"a": 1}, {"a": 2}],\n"entries": [{"a": 3}],\n"pad": "${'p'.repeat(300)}"}}`;
    for (const sz of [[], [5], [40]]) {
      const out = run(text, sz, 100);
      expect(out.repeats).toEqual([[3, 'log.entries']]);
    }
  });

  it('"log" twice at the top after the elements were read: reported at the second "log"', () => {
    const first = JSON.stringify({ entries: [{ a: 'x'.repeat(60) }, { a: 'y'.repeat(60) }] });
    const text = `{"log": ${first},\n"pad": "${'p'.repeat(300)}",\n"log": {"entries": []}}`;
    const out = run(text, [7], 100);
    expect(out.records).toEqual([{ a: 'x'.repeat(60) }, { a: 'y'.repeat(60) }]);
    expect(out.repeats).toEqual([[3, 'log']]);
  });

  it('a repeat seen before the document outgrows the bound: no element is read, the document is oversized, the repeat reported', () => {
    const text = `{"log": {"entries": 5,\n"entries": [{"a": 1}, {"a": "${'z'.repeat(300)}"}]}}`;
    const out = run(text, [], 100);
    expect(out.records).toEqual([]);
    expect(out.ledger.oversized).toBe(1);
    expect(out.repeats).toEqual([[2, 'log.entries']]);
  });

  it('a key written with an escape is the key JSON.parse reads: followed, and its repeat caught', () => {
    const text = '{"log":{"entr\\u0069es":[{"a":1},{"a":2}],"pad":"' + 'p'.repeat(300) + '"}}';
    expect(run(text, [3], 100).records).toEqual([{ a: 1 }, { a: 2 }]);
    const twice = '{"log":{"entries":[{"a":1}],"entr\\u0069es":[{"a":2}],"pad":"' + 'p'.repeat(300) + '"}}';
    expect(run(twice, [], 100).repeats).toEqual([[1, 'log.entries']]);
  });

  it('a repeated key off the path, or in a document under the bound, is no concern of the splitter', () => {
    const off = `{"log": {"x": 1, "x": 2, "entries": [{"a": 1, "a": 2}], "pad": "${'p'.repeat(300)}"}, "y": 1, "y": 2}`;
    const o = run(off, [], 100);
    expect(o.repeats).toEqual([]);
    expect(o.records).toEqual([{ a: 2 }]);
    const small = '{"log": {"entries": [{"a": 1}], "entries": [{"a": 2}]}}';
    const s = run(small, [], 1 << 20);
    expect(s.repeats).toEqual([]);
    expect(s.records).toEqual([JSON.parse(small)]);
  });
});
