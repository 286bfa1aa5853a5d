/** A shard report with 200 000 inputs merges (a spread push of them crashed). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { tmpDir } from '../../test/helpers.js';
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

describe('a split scope', () => {
  it('has unknown percentiles also when only one shard timed a call in it (a single run pairs the calls across the boundary)', async () => {
    const dir = tmpDir();
    const ev = (event: string, id: string, ms: number) =>
      JSON.stringify({ event, session_id: 'S', request_id: id, ts: new Date(1e12 + ms).toISOString(), ...(event === 'llm:response' ? { status: 'ok' } : {}), data: { provider: 'p', model: 'm' } });
    // h1: r1 paired (10 ms) and r2 opened; h2: r2 answered. One run pairs r2 (40 ms); the shards cannot.
    writeFileSync(path.join(dir, 'h1.jsonl'), `${ev('llm:request', 'r1', 0)}\n${ev('llm:response', 'r1', 10)}\n${ev('llm:request', 'r2', 20)}\n`);
    writeFileSync(path.join(dir, 'h2.jsonl'), `${ev('llm:response', 'r2', 60)}\n`);
    const a = await analyze({ inputs: [path.join(dir, 'h1.jsonl')] });
    const b = await analyze({ inputs: [path.join(dir, 'h2.jsonl')] });
    expect(b.channels[0]!.scopes[0]!.latencyMs).toBeNull();
    for (const m of [mergeReports([a, b]), mergeReports([b, a])]) {
      expect(m.findingCounts.SPLIT_SCOPE).toBe(1);
      expect(m.channels[0]!.scopes[0]!.latencyMs).toMatchObject({ count: 1, min: 10, max: 10, p50: null, p90: null, p99: null });
    }
  });
});
