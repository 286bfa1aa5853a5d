/**
 * Lines no profile reads (docs/inputs.md#lines-no-profile-reads): skipped without JSON.parse and
 * counted as `ignored` records, `unparsed` naming how many; --validate-all parses them, so a
 * broken one is MALFORMED_LINE. A line that parses to a value other than an object is a record no
 * profile claims: `ignored`, in both readings, with no finding.
 */
import { describe, expect, it } from 'vitest';
import { analyzeLines } from './helpers.js';

const REQ = { event: 'llm:request', session_id: 's', timestamp: '2026-01-01T00:00:00Z', request_id: 'a' };
const RES = { event: 'llm:response', session_id: 's', timestamp: '2026-01-01T00:00:01Z', request_id: 'a', data: { status: 'ok' } };
const LINES = [REQ, '{bad json', '42', '[1]', '"x"', '{"other":1}', '["llm:request"]', '{"event":"llm:request" broken', RES];

describe('lines no profile reads', () => {
  it('the default reading counts them as ignored and names them unparsed; only a broken line with a needle is MALFORMED_LINE', async () => {
    const r = await analyzeLines(LINES, { profile: 'amplifier' });
    const i = r.inputs[0]!;
    expect(i).toMatchObject({ lines: 9, records: 8, malformed: 1, ignored: 6, unparsed: 5, used: 2 });
    expect(r.totals).toMatchObject({ ignored: 6, unparsed: 5, malformed: 1 });
    expect(r.findings.filter((f) => f.code === 'MALFORMED_LINE').map((f) => [f.locations[0]!.line, f.data])).toEqual([[8, { reason: 'invalid-json', bytes: 29 }]]);
  });

  it('--validate-all parses every line: the broken ones are MALFORMED_LINE, the values that are no object ignored records, nothing unparsed', async () => {
    const r = await analyzeLines(LINES, { profile: 'amplifier', validateAll: true });
    expect(r.inputs[0]).toMatchObject({ lines: 9, records: 7, malformed: 2, ignored: 5, unparsed: 0, used: 2 });
    expect(r.findings.filter((f) => f.code === 'MALFORMED_LINE').map((f) => [f.locations[0]!.line, f.data.reason])).toEqual([
      [2, 'invalid-json'],
      [8, 'invalid-json'],
    ]);
  });
});
