/** A shard report with 200 000 inputs merges (a spread push of them crashed). */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { mergeReports } from './merge.js';

describe('mergeReports', () => {
  it('folds in a report of 200 000 inputs', async () => {
    const r = await analyze({ inputs: [path.resolve(__dirname, '../../fixtures/seed-trace.jsonl')] });
    const one = r.inputs[0]!;
    const big = { ...r, inputs: Array.from({ length: 200_000 }, (_, k) => ({ ...one, path: `s${k}.jsonl` })) };
    const m = mergeReports([big, r]);
    expect(m.inputs).toHaveLength(200_001);
  });
});
