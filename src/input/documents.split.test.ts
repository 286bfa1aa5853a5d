/**
 * A JSON document over the record bound whose `log.entries[]` (a split path a profile names) is
 * read element by element: exactly the elements JSON.parse gives, each at the line it starts on
 * with its JSON pointer, each bounded on its own, whatever the chunk boundaries.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocumentReader, recordLines } from './documents.js';
import { feedChunks } from '../../test/helpers.js';

const SPLITS = [['log', 'entries']];

function run(buf: Buffer, sizes: number[], maxValueBytes: number) {
  const records: unknown[] = [];
  const at: Array<[number, string | undefined]> = [];
  const bad: number[] = [];
  const unverified: Array<[number, string, number]> = [];
  const r = new DocumentReader({
    maxValueBytes,
    splits: SPLITS,
    sink: {
      record: (v, line, _raw, _doc, pointer) => (records.push(v), at.push([line, pointer])),
      oversized: (line) => bad.push(line),
      malformed: (line) => bad.push(-line),
      unverifiedDocument: (line, reason, n) => unverified.push([line, reason, n]),
    },
  });
  feedChunks(r, buf, sizes);
  return { records, at, bad, unverified, ledger: r.ledger };
}

const sizes = fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 4 });
const value = fc.jsonValue({ maxDepth: 3 });

describe('a document over the bound is read by its log.entries elements', () => {
  it('exactly the elements JSON.parse gives, at their lines and pointers, for any chunking', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 8 }), value, value, fc.boolean(), sizes, (entries, before, after, pretty, sz) => {
        // Each element (indented as deep as it sits) and what precedes the array fit the bound; the
        // document, padded, does not (before the array is reached nothing can be split).
        const print = (d: unknown) => (pretty ? JSON.stringify(d, null, 2) : JSON.stringify(d));
        const widest = Math.max(...entries.map((e) => Buffer.byteLength(print(e)) * 4 + 64));
        const prefix = Buffer.byteLength(print({ version: before, log: { creator: before } })) + 64;
        const bound = Math.max(widest, prefix) * 2;
        const text = print({ version: before, log: { creator: before, entries, pages: after, pad: 'p'.repeat(bound) }, tail: after });
        const buf = Buffer.from(`${text}\n`);
        const out = run(buf, sz, bound);
        const parsed = JSON.parse(text) as { log: { entries: unknown[] } };
        expect(out.bad).toEqual([]);
        expect(out.records).toEqual(parsed.log.entries);
        const lines = recordLines(buf, [{ key: 'log' }, { key: 'entries' }, { each: true }]);
        expect(out.at).toEqual(parsed.log.entries.map((_, i) => [1 + lines[i]!, `/log/entries/${i}`]));
        expect(out.ledger.parsed).toBe(entries.length);
      }),
      { numRuns: 100 },
    );
  });

  it('under the bound the document is one record, as before', () => {
    const text = JSON.stringify({ log: { entries: [{ a: 1 }, { a: 2 }] } }, null, 2);
    const out = run(Buffer.from(text), [], 1 << 20);
    expect(out.at).toEqual([[1, undefined]]);
  });

  it('brackets, commas and the key inside strings and other objects do not split; scalars and arrays are elements', () => {
    const text = '{"log":{"comment":"entries","x":{"entries":[9]},"entries":[{"a":"],\\"entries\\":["},[1,[2]],"s,]",3,null,{"entries":[7]}],"z":"' + 'y'.repeat(200) + '"}}';
    const out = run(Buffer.from(text), [3], 120);
    expect(out.bad).toEqual([]);
    expect(out.records).toEqual((JSON.parse(text) as { log: { entries: unknown[] } }).log.entries);
  });

  it('an element over the bound is oversized at its line, the others are read, and the document is unverified (element-over-limit)', () => {
    const entries = [{ a: 'x' }, { a: 'y'.repeat(500) }, { a: 'z' }, { a: 'w'.repeat(50) }];
    const text = JSON.stringify({ log: { entries } }, null, 2);
    for (const sz of [[], [7], [100]]) {
      const out = run(Buffer.from(text), sz, 200);
      expect(out.records).toEqual([entries[0], entries[2], entries[3]]);
      expect(out.bad).toEqual([7]);
      expect(out.ledger.oversized).toBe(1);
      expect(out.unverified).toEqual([[1, 'element-over-limit', 3]]);
    }
  });

  it('two elements with no comma between them, together over the bound: unverified, never a silent skip', () => {
    // JSON.parse rejects the document (the comma is missing); the merged "element" is over the bound, unread.
    const a = JSON.stringify({ a: 'x'.repeat(60) });
    const text = `{\n"log": {"entries": [\n${JSON.stringify({ a: 1 })},\n${a}\n${a},\n${JSON.stringify({ a: 2 })}\n], "pad": "${'p'.repeat(300)}"}}\n`;
    expect(() => JSON.parse(text)).toThrow();
    for (const sz of [[], [5], [64]]) {
      const out = run(Buffer.from(text), sz, 100);
      expect(out.records).toEqual([{ a: 1 }, { a: 2 }]);
      expect(out.ledger.oversized).toBe(1);
      expect(out.unverified).toEqual([[1, 'element-over-limit', 2]]);
    }
  });

  it('a document cut short keeps the elements read and counts one truncated record', () => {
    const text = JSON.stringify({ log: { entries: [{ a: 'x'.repeat(80) }, { a: 'y'.repeat(80) }, { a: 'z'.repeat(80) }] } }, null, 2);
    const cut = text.slice(0, text.indexOf('zzz'));
    const out = run(Buffer.from(cut), [16], 150);
    expect(out.records).toEqual([{ a: 'x'.repeat(80) }, { a: 'y'.repeat(80) }]);
    expect(out.ledger.malformed).toBe(1);
  });
});
