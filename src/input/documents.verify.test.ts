/**
 * A JSON document over the bound read element by element (docs/inputs.md, "Large documents") is
 * judged as JSON.parse judges the whole: if nothing is reported against it, its records are
 * exactly JSON.parse's elements; if JSON.parse rejects it, it is unverified (or malformed). And
 * what is read and reported never depends on where the chunks of the input end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocumentReader } from './documents.js';
import { feedChunks } from '../../test/helpers.js';

type Event = [string, ...unknown[]];

function events(text: string, sizes: readonly number[], maxValueBytes: number, splits: string[][] = [['log', 'entries']]): Event[] {
  const out: Event[] = [];
  const r = new DocumentReader({
    maxValueBytes,
    splits,
    sink: {
      record: (v, line, _raw, _doc, pointer) => out.push(['record', line, pointer ?? null, v]),
      oversized: (line, bytes) => out.push(['oversized', line, bytes]),
      malformed: (line, reason, bytes) => out.push(['malformed', line, reason, bytes]),
      repeatedSplitKey: (line, key) => out.push(['repeat', line, key]),
      unverifiedDocument: (line, reason, records) => out.push(['unverified', line, reason, records]),
    },
  });
  feedChunks(r, Buffer.from(text), sizes);
  out.push(['ledger', r.ledger]);
  return out;
}

const entry = fc.oneof(fc.record({ a: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })) }), fc.jsonValue({ maxDepth: 2 }));
const member = fc.tuple(fc.constantFrom('"version"', '"pages"', '"x\\u0041"', '"comment"'), fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)));
/** One byte put in, or taken out, anywhere: most such documents are no JSON. */
const mutation = fc.option(fc.tuple(fc.nat(), fc.constantFrom('', ',', ':', ']', '}', '[', '{', '"', '1', '.', 't', ' ', '\\', '\t', '\n', 'x')), { nil: null });
const sizes = fc.oneof(fc.constant([]), fc.constant([1]), fc.constant([7]), fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 4 }));

/** `{"log": {…before, "entries": [...], …after, "pad": "…"}, …top}`, pretty or not, with one mutation. */
const document = fc
  .record({
    before: fc.array(member, { maxLength: 2 }),
    entries: fc.array(entry, { maxLength: 6 }),
    after: fc.array(member, { maxLength: 2 }),
    top: fc.array(member, { maxLength: 2 }),
    pad: fc.integer({ min: 0, max: 300 }),
    pretty: fc.boolean(),
    mutation,
  })
  .map((d) => {
    const sep = d.pretty ? ',\n  ' : ',';
    const members = (ms: Array<[string, string]>) => ms.map(([k, v]) => `${k}: ${v}`);
    const entries = `[${d.pretty ? '\n    ' : ''}${d.entries.map((e) => JSON.stringify(e)).join(d.pretty ? ',\n    ' : ',')}]`;
    const log = `{${[...members(d.before), `"entries": ${entries}`, ...members(d.after), `"pad": "${'p'.repeat(d.pad)}"`].join(sep)}}`;
    let text = `{\n${[`"log": ${log}`, ...members(d.top)].join(sep)}\n}\n`;
    if (d.mutation) {
      const at = d.mutation[0] % text.length;
      text = d.mutation[1] === '' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + d.mutation[1] + text.slice(at);
    }
    return text;
  });

function parsed(text: string): { ok: true; entries: unknown } | { ok: false } {
  try {
    const v = JSON.parse(text) as { log?: { entries?: unknown } };
    return { ok: true, entries: v?.log?.entries };
  } catch {
    return { ok: false };
  }
}

describe('a document read element by element is JSON.parse\'s, or is reported', () => {
  it('nothing reported against a document read element by element: it parses whole, and its records are exactly its elements (generated, mutated, any chunking)', () => {
    fc.assert(
      fc.property(document, sizes, fc.integer({ min: 40, max: 400 }), (text, sz, bound) => {
        const ev = events(text, sz, bound);
        const records = ev.filter((e) => e[0] === 'record');
        const reported = ev.filter((e) => e[0] !== 'record' && e[0] !== 'ledger');
        const split = records.length > 0 && records.every((e) => e[2] !== null);
        const p = parsed(text);
        if (split && reported.length === 0) {
          expect(p.ok).toBe(true);
          expect(records.map((e) => e[3])).toEqual(p.ok ? p.entries : null);
        }
        // A document JSON.parse accepts is never called malformed, nor invalid (its skeleton may pass the bound).
        if (p.ok) {
          expect(reported.filter((e) => e[0] === 'malformed')).toEqual([]);
          for (const u of reported.filter((e) => e[0] === 'unverified')) expect(['skeleton-over-limit', 'element-over-limit']).toContain(u[2]);
        }
        // A document JSON.parse rejects never goes unreported once an element of it is read.
        if (!p.ok && split) expect(reported.length).toBeGreaterThan(0);
        // It is unverified (an error) unless a malformed record or a repeated key of its path says so:
        // an element over the bound (not held, so not checked) fails the document closed too.
        if (!p.ok && split && !reported.some((e) => e[0] === 'malformed' || e[0] === 'repeat')) expect(reported.map((e) => e[0])).toContain('unverified');
      }),
      { numRuns: 600 },
    );
  });

  it('a valid document over the bound whose array is reached in time: its elements, nothing reported', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 6 }), fc.boolean(), sizes, (entries, pretty, sz) => {
        // Each element (indented as deep as it sits) and what precedes the array fit the bound; the document does not.
        const bound = 200 + 4 * Math.max(...entries.map((e) => JSON.stringify(e, null, 6).length));
        const doc = { log: { version: '1.2', entries, pages: [{ id: 'p' }], pad: 'p'.repeat(bound) }, tail: [1, 2.5e3, true, null, 'x\\y"\u0001'] };
        const text = `{\n${JSON.stringify(doc, null, pretty ? 2 : 0).slice(1)}\n`;
        const ev = events(text, sz, bound);
        expect(ev.filter((e) => e[0] !== 'record' && e[0] !== 'ledger')).toEqual([]);
        expect(ev.filter((e) => e[0] === 'record').map((e) => e[3])).toEqual((JSON.parse(text) as typeof doc).log.entries);
      }),
      { numRuns: 200 },
    );
  });

  it('the cases JSON.parse rejects outside the elements: unverified at the document\'s line, its elements kept', () => {
    const E = '[{"a":1},{"a":2}]';
    const pad = `"pad": "${'p'.repeat(200)}"`;
    const cases = [
      `{"log": {"entries": [{"a":1},{"a":2},], ${pad}}}`,
      `{"log": {"entries": [,{"a":1},{"a":2}], ${pad}}}`,
      `{"log": {"entries": [{"a":1},,{"a":2}], ${pad}}}`,
      `{"log": {"v": 1.2.3, "entries": ${E}, ${pad}}}`,
      `{"log": {"v": tru, "entries": ${E}, ${pad}}}`,
      `{"log": {"v": 01, "entries": ${E}, ${pad}}}`,
      `{"log": {"entries": ${E} ${pad}}}`,
      `{"log": {"entries": ${E}, "pad" 1, ${pad}}}`,
      `{"log": {"entries": ${E}, ${pad}, "s": "\\q"}}`,
      `{"log": {"entries": ${E}, ${pad}, "s": "\\u12g4"}}`,
      `{"log": {"entries": ${E}, ${pad}, "s": "a\u0007b"}}`,
      `{"log": {"entries": ${E}, ${pad}}, "x": [1 2]}`,
      `{"log": {"entries": ${E}, ${pad},}}`,
    ];
    for (const text of cases) {
      expect(() => JSON.parse(text), text).toThrow();
      for (const sz of [[], [1], [7], [64 << 10]]) {
        const ev = events(`\n${text}\n`, sz, 100);
        expect(ev.filter((e) => e[0] === 'record').map((e) => e[3]), text).toEqual([{ a: 1 }, { a: 2 }]);
        expect(ev.filter((e) => e[0] === 'unverified'), text).toEqual([['unverified', 2, 'invalid-json', 2]]);
        expect(ev.filter((e) => e[0] === 'malformed'), text).toEqual([['malformed', 2, 'invalid-json', Buffer.byteLength(text)]]);
      }
      // Read whole (under the bound): one malformed record, no element, and unverified as when split.
      expect(events(`\n${text}\n`, [], 1 << 20).filter((e) => e[0] !== 'ledger')).toEqual([
        ['malformed', 2, 'invalid-json', Buffer.byteLength(text)],
        ['unverified', 2, 'invalid-json', 0],
      ]);
    }
  });

  it('the skeleton is bounded: past the bound in bytes outside the elements (not counting string contents), unverified', () => {
    const many = `{"log": {"entries": [{"a":1}], "n": [${Array.from({ length: 200 }, (_, k) => k).join(', ')}]}}`;
    expect(events(many, [13], 300).filter((e) => e[0] === 'unverified')).toEqual([['unverified', 1, 'skeleton-over-limit', 1]]);
    const long = `{"log": {"entries": [{"a":1}], "s": "${'s'.repeat(5000)}", "t": "${'\\n'.repeat(500)}"}}`;
    expect(events(long, [13], 300).filter((e) => e[0] !== 'record' && e[0] !== 'ledger')).toEqual([]);
  });
});

describe('what a document over the bound gives does not depend on its chunks', () => {
  it('the same records, findings and ledger for chunks of 1, 7, 64 KiB and any sizes: repeated split keys, mutations, generated documents', () => {
    const key = fc.constantFrom('"entries"', '"entr\\u0069es"', '"pages"');
    const arr = fc.array(entry, { maxLength: 4 }).map((v) => JSON.stringify(v));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, arr), { minLength: 1, maxLength: 3 }),
        fc.array(fc.constantFrom('"log"', '"lo\\u0067"', '"version"'), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 300 }),
        mutation,
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 30, max: 300 }),
        fc.boolean(),
        (logMembers, topKeys, pad, mut, sz, bound, pretty) => {
          const sep = pretty ? ',\n' : ',';
          const log = `{${[...logMembers.map(([k, v]) => `${k}: ${v}`), `"pad": "${'p'.repeat(pad)}"`].join(sep)}}`;
          let text = `{\n${topKeys.map((k) => `${k}: ${k === '"version"' ? '1' : log}`).join(sep)}\n}\n`;
          if (mut) {
            const at = mut[0] % text.length;
            text = mut[1] === '' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + mut[1] + text.slice(at);
          }
          const one = events(text, [], bound);
          for (const s of [[1], [7], [64 << 10], sz]) expect(events(text, s, bound)).toEqual(one);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('"calls" twice at the top, the bound passed in the first array: its elements, then the repeat, for every chunking', () => {
    const first = JSON.stringify(Array.from({ length: 6 }, (_, k) => ({ id: k, pad: 'x'.repeat(30) })));
    const text = `{\n"calls": ${first},\n"calls": [{"id": 99}]}\n`;
    const one = events(text, [], 120, [['calls']]);
    expect(one.filter((e) => e[0] === 'record').map((e) => (e[3] as { id: number }).id)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(one.filter((e) => e[0] === 'repeat')).toEqual([['repeat', 3, 'calls']]);
    for (const s of [[1], [7], [64 << 10], [3, 50]]) expect(events(text, s, 120, [['calls']])).toEqual(one);
  });
});
