/**
 * A top-level array's separators (docs/inputs.md): where JSON.parse reads the document, its
 * elements are the records and nothing is said; where the array is no JSON between its elements (a
 * missing comma, a comma after `[`, after a comma or before `]`), the elements are still read, and
 * the document is DOCUMENT_UNVERIFIED (`separator`) at the first such place, whatever the chunking.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocumentReader } from './documents.js';
import { feedChunks } from '../../test/helpers.js';

function run(text: string, sizes: number[] = []) {
  const records: unknown[] = [];
  const bad: number[] = [];
  const unverified: Array<[number, string, number]> = [];
  const r = new DocumentReader({
    maxValueBytes: 1 << 20,
    sink: {
      record: (v) => void records.push(v),
      oversized: (line) => void bad.push(line),
      malformed: (line) => void bad.push(-line),
      unverifiedDocument: (line, reason, n) => void unverified.push([line, reason, n]),
    },
  });
  feedChunks(r, Buffer.from(text), sizes);
  return { records, bad, unverified };
}

describe('the separators of a top-level array', () => {
  it.each([
    ['[\n{"a":1}\n{"a":2}\n]\n', 3, 2],
    ['[\n{"a":1},\n{"a":2},\n]\n', 4, 2],
    ['[\n,{"a":1},\n{"a":2}\n]\n', 2, 2],
    ['[\n{"a":1},,\n{"a":2}\n]\n', 2, 2],
    ['[1 2]\n', 1, 2],
    ['["a""b"]\n', 1, 2],
    ['[,]\n', 1, 0],
    ['[\n{"a":1}\n{"a":2}\n', 3, 2],
  ])('%j: its records are read, and it is DOCUMENT_UNVERIFIED separator at line %i', (text, line, n) => {
    for (const sz of [[], [1], [3, 1, 2]]) {
      const out = run(text, sz);
      expect(out.records.length).toBe(n);
      expect(out.unverified).toEqual([[line, 'separator', n]]);
    }
  });

  it.each(['[]\n', '[\n]\n', '[{"a":1},{"a":2}]\n', '[\n  1,\n  2\n]\n', '[12]\n'])('%j parses: nothing unverified', (text) => {
    const out = run(text);
    expect(out.records).toEqual(JSON.parse(text));
    expect(out.unverified).toEqual([]);
    expect(out.bad).toEqual([]);
  });

  it('any separators between objects: JSON.parse’s records and nothing said, or the same objects and one DOCUMENT_UNVERIFIED separator', () => {
    const element = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    const sep = fc.constantFrom(',', ',', ',', '', ',,', ' , ');
    const ws = fc.constantFrom('', ' ', '\n', '\n  ');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(element, sep, ws), { maxLength: 6 }),
        fc.constantFrom('', ','),
        fc.constantFrom('', ','),
        fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 4 }),
        (items, lead, trail, sz) => {
          let text = `[${lead}`;
          items.forEach(([e, s, w], i) => {
            text += `${w}${JSON.stringify(e)}${i < items.length - 1 ? s : ''}`;
          });
          text += `${trail}]\n`;
          const out = run(text, sz);
          expect(out.bad).toEqual([]);
          // What the text holds: JSON.stringify writes -0 as 0 (fast-check's seed 717758538 made one).
          expect(out.records).toEqual(items.map(([e]) => JSON.parse(JSON.stringify(e)) as unknown));
          let valid = true;
          try {
            JSON.parse(text);
          } catch {
            valid = false;
          }
          if (valid) expect(out.unverified).toEqual([]);
          else expect(out.unverified.map(([, reason, n]) => [reason, n])).toEqual([['separator', items.length]]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('what follows the top-level array', () => {
  it.each([
    ['[{"a":1}][{"a":2}]\n', 1, 2, []],
    ['[{"a":1}]\n[{"a":2},{"a":3}]\n', 2, 3, []],
    ['[{"a":1}]{"a":2}\n', 1, 2, []],
    ['[{"a":1},{"a":2}]\n x\n', 2, 2, [-2]],
    ['[{"a":1}]\n[{"a":2} {"a":3}]\n', 2, 3, []],
  ])('%j: every record read, one DOCUMENT_UNVERIFIED trailing at line %i counting them all', (text, line, n, bad) => {
    for (const sz of [[], [1], [3, 1, 2]]) {
      const out = run(text, sz);
      expect(out.records.length).toBe(n);
      expect(out.unverified).toEqual([[line, 'trailing', n]]);
      expect(out.bad).toEqual(bad);
    }
  });

  it.each(['[{"a":1}]\n\n  \n', '[{"a":1}]'])('%j: blanks only, nothing unverified', (text) => {
    expect(run(text).unverified).toEqual([]);
  });

  it('objects one after another (no array) are a stream of records, as before: nothing unverified', () => {
    const out = run('{"a":1}{"a":2}\n{\n"a":3}\n');
    expect(out.records).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    expect(out.unverified).toEqual([]);
  });
});
