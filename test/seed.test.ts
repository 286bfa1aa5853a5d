import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { ledgerViolations } from '../src/report/report.js';
import { fixture, runCli } from './helpers.js';

describe('fixtures/seed-trace.jsonl (the seed document trace)', () => {
  it('pairs 3 calls by id, exact, with FIFO crossing 2 of 3', async () => {
    const r = await analyze({ inputs: [fixture('seed-trace.jsonl')] });
    expect(r.channels).toHaveLength(1);
    const ch = r.channels[0]!;
    expect(ch.channel).toBe('llm');
    expect(ch.requests).toBe(3);
    expect(ch.terminals).toBe(3);
    expect(ch.pairs.total).toBe(3);
    expect(ch.pairs.byMethod).toEqual({ id: 3, signature: 0, fifo: 0 });
    expect(ch.pairs.byConfidence).toEqual({ exact: 3, unambiguous: 0, ambiguous: 0 });
    expect(ch.crossed.comparable).toBe(3);
    expect(ch.crossed.fifo).toBe(2);
    expect(ch.maxInFlight).toBe(3);
    expect(ch.orphanRequests).toBe(0);
    expect(ch.orphanResponses).toBe(0);
    expect(r.inputs[0]!.ignored).toBe(2); // session:start and tool:pre
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('names the two crossed pairs with their callers in the table', async () => {
    const res = await runCli(['analyze', 'fixtures/seed-trace.jsonl']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Crossed pairs');
    expect(res.stdout).toMatch(/seed-trace\.jsonl:5 │ summarizer │ fixtures\/seed-trace\.jsonl:4 summarizer │ fixtures\/seed-trace\.jsonl:2 agent/);
    expect(res.stdout).toMatch(/seed-trace\.jsonl:7 │ agent +│ fixtures\/seed-trace\.jsonl:2 agent +│ fixtures\/seed-trace\.jsonl:4 summarizer/);
  });

  it('writes byte-identical JSON on two runs', async () => {
    const a = await runCli(['analyze', '--format', 'json', 'fixtures/seed-trace.jsonl']);
    const b = await runCli(['analyze', '--format', 'json', 'fixtures/seed-trace.jsonl']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout).schema).toBe('callpair.report.v1');
  });

  it('exits 2 with one line for a missing input', async () => {
    const res = await runCli(['analyze', 'missing.jsonl']);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('missing.jsonl');
  });
});
