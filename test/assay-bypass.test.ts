/**
 * A reused id never lets an upstream arrival be absorbed, and an id never
 * joins two different tool names (docs/design.md §5, docs/assay.md). Through the CLI, as a user runs it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tmpDir, writeCapture } from './helpers.js';

const rows = readFileSync(path.join(ROOT, 'fixtures/assay/run-noids.decisions.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const ALLOW = rows.find((r) => r.decision === 'allow')!;
const DENY = rows.find((r) => r.decision === 'deny')!;
const rec = (base: Record<string, unknown>, tool: string, extra: Record<string, unknown> = {}) => ({
  ...base,
  tool: { ...(base.tool as object), name: tool },
  ...extra,
});
const call = (id: unknown, name: string, corr?: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...(corr !== undefined ? { _meta: { 'assay.correlation_id': corr } } : {}) },
});

async function audit(decisions: object[], caller: object[] | null, upstream: object[]) {
  const dir = tmpDir();
  const args = ['analyze', '-f', 'json', writeCapture(decisions, 'd.ndjson', dir)];
  if (caller) args.push('--caller', writeCapture(caller, 'c.jsonl', dir));
  args.push('--upstream', writeCapture(upstream, 'u.jsonl', dir));
  const res = await runCli(args);
  const text = await runCli(args.filter((a, i) => i !== 1 && i !== 2));
  return { code: res.code, text, r: JSON.parse(res.stdout) };
}

/** Every arrival is paired with one allow, or reported: the audit's accounting identity. */
function everyArrivalAccounted(r: { records: { assay: { calls: { upstream: number } } }; channels: Array<{ channel: string; pairs: { total: number } }>; findingCounts: Record<string, number> }) {
  const del = r.channels.find((c) => c.channel === 'delivery')!;
  const reported = (r.findingCounts.DENIED_BUT_DELIVERED ?? 0) + (r.findingCounts.UNRECORDED_DELIVERY ?? 0);
  expect(del.pairs.total + reported).toBe(r.records.assay.calls.upstream);
}

describe('a reused id never absorbs an arrival', () => {
  it('JSON-RPC id 7 sent twice, one allow and one deny without correlation ids, both arrive: DENIED_BUT_DELIVERED, exit 1', async () => {
    const { code, r, text } = await audit([rec(ALLOW, 't'), rec(DENY, 't')], [call(7, 't'), call(7, 't')], [call(7, 't'), call(7, 't')]);
    expect(code).toBe(1);
    expect(r.findingCounts.DENIED_BUT_DELIVERED).toBe(1);
    expect(r.findingCounts.DUPLICATE_TERMINAL).toBeUndefined();
    expect(r.records.assay.delivery.deny.arrived).toBe(1);
    everyArrivalAccounted(r);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/│ deny +│ 1 DENIED_BUT_DELIVERED │ 0 +│/);
    expect(text.stdout).toContain('gate failed');
  });

  it('correlation id c1 reused by an allow and a deny, two arrivals under c1: DENIED_BUT_DELIVERED, exit 1', async () => {
    const { code, r } = await audit([rec(ALLOW, 't', { correlation_id: 'c1' }), rec(DENY, 't', { correlation_id: 'c1' })], null, [call(1, 't', 'c1'), call(2, 't', 'c1')]);
    expect(code).toBe(1);
    expect(r.findingCounts.DENIED_BUT_DELIVERED).toBe(1);
    everyArrivalAccounted(r);
  });

  it('one allow, two arrivals under its id: the second is UNRECORDED_DELIVERY, exit 1', async () => {
    const { code, r } = await audit([rec(ALLOW, 't', { correlation_id: 'c1' })], [call(1, 't', 'c1')], [call(1, 't', 'c1'), call(1, 't', 'c1')]);
    expect(code).toBe(1);
    expect(r.findingCounts.UNRECORDED_DELIVERY).toBe(1);
    everyArrivalAccounted(r);
  });
});

describe('an id never joins two different tool names', () => {
  it('read_file allowed under c1, delete_repo arrives under c1: SIGNATURE_CONFLICT and UNRECORDED_DELIVERY, no pair, exit 1', async () => {
    const { code, r, text } = await audit([rec(ALLOW, 'read_file', { correlation_id: 'c1' })], null, [call(1, 'delete_repo', 'c1')]);
    expect(code).toBe(1);
    const del = r.channels.find((c: { channel: string }) => c.channel === 'delivery');
    expect(del.pairs.total).toBe(0);
    expect(r.findingCounts).toMatchObject({ SIGNATURE_CONFLICT: 1, UNRECORDED_DELIVERY: 1, ORPHAN_REQUEST: 1 });
    const f = r.findings.find((x: { code: string }) => x.code === 'SIGNATURE_CONFLICT');
    expect(f).toMatchObject({ severity: 'error', channel: 'delivery', data: { id: 'c1', field: 'tool', request: 'read_file', terminal: 'delete_repo' } });
    everyArrivalAccounted(r);
    expect(text.stdout).toContain('SIGNATURE_CONFLICT');
  });

  it('the same on the decision channel: a decision under the caller call’s id about another tool is not its decision', async () => {
    const { r } = await audit([rec(ALLOW, 'delete_repo', { correlation_id: 'c1' })], [call(1, 'read_file', 'c1')], [call(1, 'delete_repo', 'c1')]);
    const dec = r.channels.find((c: { channel: string }) => c.channel === 'decision');
    expect(dec.pairs.total).toBe(0);
    expect(r.findings.filter((x: { code: string }) => x.code === 'SIGNATURE_CONFLICT').map((x: { channel: string }) => x.channel)).toEqual(['decision']);
  });
});

describe('unusable JSON-RPC ids never hide a denied arrival (docs/assay.md)', () => {
  // Raw lines: JSON.stringify cannot write 9007199254740993 or -0 as a capture does.
  const raw = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"T","arguments":{}}}`;
  const noCorr = (r: Record<string, unknown>) => {
    const o = rec(r, 'T');
    delete (o as Record<string, unknown>).correlation_id;
    return o;
  };
  for (const [allowId, denyId] of [
    ['9007199254740992', '9007199254740993'],
    ['0', '-0'],
    ['1', '1e400'],
    ['1', '{"a":1}'],
  ] as const) {
    it(`caller ids ${allowId} (allowed) and ${denyId} (denied), one arrival under ${denyId}: DENIED_BUT_DELIVERED, exit 1`, async () => {
      const dir = tmpDir();
      const args = [
        'analyze',
        '-f',
        'json',
        writeCapture([noCorr(ALLOW), noCorr(DENY)], 'd.ndjson', dir),
        '--caller',
        writeCapture([raw(allowId), raw(denyId)], 'c.jsonl', dir),
        '--upstream',
        writeCapture([raw(denyId)], 'u.jsonl', dir),
      ];
      const res = await runCli(args);
      expect(res.code).toBe(1);
      const r = JSON.parse(res.stdout);
      expect(r.findingCounts.DENIED_BUT_DELIVERED).toBe(1);
      expect(r.findingCounts.INVALID_ID).toBeGreaterThanOrEqual(1);
      expect(r.findings.find((f: { code: string }) => f.code === 'DENIED_BUT_DELIVERED').data.ambiguous).toBe(true);
      expect(r.records.assay.delivery.deny).toMatchObject({ records: 1, arrived: 1, unchecked: 0 });
      const text = await runCli(args.filter((_, i) => i !== 1 && i !== 2));
      expect(text.stdout).toMatch(/│ deny +│ 1 DENIED_BUT_DELIVERED │ 0 +│/);
      expect(text.stdout).toContain('may be a denied call');
    });
  }
});
