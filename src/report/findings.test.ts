/** fix-input item 2: listing findings does not spread them into a call (150 000 orphans crashed). */
import { describe, expect, it } from 'vitest';
import { FindingCollector, finding } from './findings.js';

describe('FindingCollector.list', () => {
  it('lists 200 000 findings of one code with --max-findings 1000000', () => {
    const c = new FindingCollector(1_000_000);
    for (let k = 0; k < 200_000; k++) {
      c.add(finding('ORPHAN_REQUEST', { channel: 'llm', scope: 's', locations: [{ path: 'x.jsonl', line: k + 1 }] }, { caller: 'main', reason: 'end-of-input', ageMs: null, id: `r${k}` }));
    }
    const list = c.list();
    expect(list).toHaveLength(200_000);
    expect(list[199_999]!.locations[0]!.line).toBe(200_000);
  });
});
