/**
 * The finding cap keeps the first N of a code in one total order (location, then content), however
 * the findings arrive — what makes `callpair merge` exact (docs/scale-out.md).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bySeverity, compareFindings, finding, FindingCollector, type Finding } from '../src/report/findings.js';

const arb = fc.record({
  path: fc.constantFrom('a.jsonl', 'a/b.jsonl', 'a-b.jsonl', 'b.jsonl'),
  line: fc.integer({ min: 1, max: 40 }),
  id: fc.constantFrom('x', 'y', 'z'),
  code: fc.constantFrom('ORPHAN_REQUEST' as const, 'DUPLICATE_ID' as const),
});

describe('FindingCollector order', () => {
  it('keeps the first N by compareFindings, whatever the arrival order', () => {
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 400 }), fc.integer({ min: 0, max: 5 }), (items, max) => {
        const all: Finding[] = items.map((i) =>
          i.code === 'ORPHAN_REQUEST'
            ? finding('ORPHAN_REQUEST', { channel: 'llm', scope: 's', locations: [{ path: i.path, line: i.line }] }, { caller: 'c', reason: 'end-of-input', ageMs: null, id: i.id })
            : finding('DUPLICATE_ID', { channel: 'llm', scope: 's', locations: [{ path: i.path, line: i.line }] }, { id: i.id, caller: 'c' }),
        );
        const c = new FindingCollector(max);
        for (const f of all) c.add(f);
        const want = ['ORPHAN_REQUEST', 'DUPLICATE_ID'].flatMap((code) => all.filter((f) => f.code === code).sort(compareFindings).slice(0, max));
        expect(c.list().map((f) => JSON.stringify(f))).toEqual(want.map((f) => JSON.stringify(f)));
      }),
      { numRuns: 200 },
    );
  });

  it('orders paths the way a directory is walked: a/b.jsonl before a-b.jsonl', () => {
    const f = (path: string) => finding('DUPLICATE_ID', { locations: [{ path, line: 1 }] }, { id: 'i', caller: 'c' });
    expect(compareFindings(f('a/b.jsonl'), f('a-b.jsonl'))).toBeLessThan(0);
    expect(compareFindings(f('a.jsonl'), f('a/b.jsonl'))).toBeGreaterThan(0);
  });
});

describe('codes by severity', () => {
  it('lists errors first, then warnings, then notes; code order within a severity', () => {
    expect(bySeverity(['CROSSED_PAIR', 'ORPHAN_REQUEST', 'SPLIT_SCOPE', 'DENIED_BUT_DELIVERED'])).toEqual(['DENIED_BUT_DELIVERED', 'SPLIT_SCOPE', 'ORPHAN_REQUEST', 'CROSSED_PAIR']);
  });
});
