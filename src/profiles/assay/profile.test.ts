import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, type AnalyzeOptions } from '../../analyze.js';
import type { PairRecord } from '../../model.js';
import type { AssaySummary } from '../../report/assay.js';
import { ledgerViolations, type Report } from '../../report/report.js';
import { ROOT, tmpDir } from '../../../test/helpers.js';
import { jsonRpcKey, producerToolName } from './rpc.js';

const fx = (name: string) => path.join(ROOT, 'fixtures/assay', name);
const lines = (name: string) =>
  readFileSync(fx(name), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function write(rows: Array<object | string>, name = 'x.jsonl'): string {
  const p = path.join(tmpDir(), name);
  writeFileSync(p, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  return p;
}

async function run(opts: AnalyzeOptions): Promise<{ r: Report; pairs: PairRecord[]; a: AssaySummary }> {
  const pairs: PairRecord[] = [];
  const r = await analyze({ profile: 'assay', ...opts, onPair: (p) => pairs.push(p) });
  expect(ledgerViolations(r)).toEqual([]);
  return { r, pairs, a: r.records.assay as AssaySummary };
}

const ch = (r: Report, name: string) => r.channels.find((c) => c.channel === name);
const codes = (r: Report, code: string) => r.findings.filter((f) => f.code === code);
const at = (f: { locations: Array<{ path: string; line: number }> }) => f.locations.map((l) => `${path.basename(l.path)}:${l.line}`);

const allow = lines('contract.v0.ndjson').find((r) => r.decision === 'allow')!;
const deny = lines('contract.v0.ndjson').find((r) => r.reason === 'no_declared_allowance')!;
const rec = (base: Record<string, unknown>, tool: string, extra: Record<string, unknown> = {}) => ({
  ...base,
  tool: { ...(base.tool as object), name: tool },
  ...extra,
});
const call = (id: unknown, tool: string, meta?: Record<string, unknown>) => {
  const params: Record<string, unknown> = { name: tool, arguments: {} };
  if (meta) params._meta = meta;
  return id === undefined ? { jsonrpc: '2.0', method: 'tools/call', params } : { jsonrpc: '2.0', id, method: 'tools/call', params };
};

describe('assay: record validation', () => {
  it('the 10 contract records, one per line, validate as 10 valid and make no orphans', async () => {
    const { r, a } = await run({ inputs: [fx('contract.v0.ndjson')] });
    expect(a).toMatchObject({ records: 10, valid: 10, malformed: 0, unsupportedSchema: 0, inconsistent: 0 });
    expect(r.channels).toEqual([]);
    expect(r.findings).toEqual([]);
    expect(r.gate.passed).toBe(true);
  });

  it('flipping fail_closed on one record gives exactly one INCONSISTENT_RECORD with its line', async () => {
    const rows = lines('contract.v0.ndjson');
    rows[3]!.fail_closed = !rows[3]!.fail_closed;
    const { r, a } = await run({ inputs: [write(rows)] });
    expect(a).toMatchObject({ valid: 9, inconsistent: 1, unsupportedSchema: 0, malformed: 0 });
    expect(r.findingCounts).toEqual({ INCONSISTENT_RECORD: 1 });
    expect(at(codes(r, 'INCONSISTENT_RECORD')[0]!)).toEqual(['x.jsonl:4']);
    expect(r.findings[0]!.severity).toBe('error');
    expect(r.gate.passed).toBe(false);
  });

  it('the schema assay.enforcement_decision.v1 on one record gives exactly one UNSUPPORTED_SCHEMA with its line', async () => {
    const rows = lines('contract.v0.ndjson');
    rows[6]!.schema = 'assay.enforcement_decision.v1';
    const { r, a } = await run({ inputs: [write(rows)] });
    expect(a).toMatchObject({ valid: 9, unsupportedSchema: 1, inconsistent: 0 });
    expect(r.findingCounts).toEqual({ UNSUPPORTED_SCHEMA: 1 });
    expect(at(codes(r, 'UNSUPPORTED_SCHEMA')[0]!)).toEqual(['x.jsonl:7']);
  });

  it('counts malformed records, and other assay.* carriers apart', async () => {
    const bad = { ...allow, decision: 1 };
    const obs = { schema: 'assay.denied_call_observation.v1', call: { tool_name: 'x' } };
    const { r, a } = await run({ inputs: [write([allow, bad, obs])] });
    expect(a).toMatchObject({ records: 2, valid: 1, malformed: 1, otherAssayRecords: 1 });
    const f = codes(r, 'INCONSISTENT_RECORD')[0]!;
    expect(f.data).toEqual({ problems: ['decision is not a string'], kind: 'malformed' });
    expect(f.message).toBe('malformed decision record: decision is not a string');
  });
});

describe('assay: decision records alone', () => {
  it('counts by decision, reason and tool, correlation-id coverage and duplicates, and makes no orphans', async () => {
    const rows = [
      rec(allow, 'b.tool', { correlation_id: 'c1' }),
      rec(deny, 'a.tool', { correlation_id: 'c1' }),
      rec(deny, 'a.tool', { correlation_id: 'bad id!' }),
      rec(deny, 'b.tool', { correlation_id_invalid: true }),
      rec(allow, 'b.tool'),
    ];
    const { r, a } = await run({ inputs: [write(rows)] });
    expect(r.channels).toEqual([]);
    expect(r.findingCounts).toEqual({ INVALID_ID: 1 });
    expect(a.byDecision).toEqual({ allow: 2, deny: 3, other: 0 });
    expect(a.byReason).toEqual([
      { reason: 'no_declared_allowance', count: 3 },
      { reason: 'allow', count: 2 },
    ]);
    expect(a.byTool).toEqual([
      { tool: 'b.tool', count: 3 },
      { tool: 'a.tool', count: 2 },
    ]);
    expect(a.correlationIds).toEqual({ present: 2, absent: 1, invalid: 2, duplicated: 1 });
    expect(a.delivery).toBeNull();
    expect(a.calls).toEqual({ caller: null, upstream: null, establishSkipped: 0 });
    expect(r.notes.join()).toContain('decision records only');
    // An invalid id's value is never written.
    expect(JSON.stringify(r)).not.toContain('bad id!');
  });
});

const runFiles = (v: 'ids' | 'noids', decisions = `run-${v}.decisions.ndjson`) => ({
  inputs: [fx(decisions)],
  caller: [fx(`run-${v}.caller.jsonl`)],
  upstream: [fx(`run-${v}.upstream.jsonl`)],
});

describe('assay: the single-caller run with correlation ids', () => {
  it('pairs every decision and delivery exactly and finds the bypass, the unrecorded arrival and the unobserved allow', async () => {
    const { r, a } = await run(runFiles('ids'));
    const dec = ch(r, 'decision')!;
    const del = ch(r, 'delivery')!;
    expect(dec.pairs).toMatchObject({ total: 6, byConfidence: { exact: 6, unambiguous: 0, ambiguous: 0 } });
    expect(dec.orphanRequests + dec.orphanResponses).toBe(0);
    expect(del.pairs).toMatchObject({ total: 2, byMethod: { id: 2, signature: 0, fifo: 0 }, byConfidence: { exact: 2, unambiguous: 0, ambiguous: 0 } });
    expect(del.requests).toBe(3);
    expect(del.terminals).toBe(4);

    const dbd = codes(r, 'DENIED_BUT_DELIVERED');
    expect(dbd).toHaveLength(1);
    expect(at(dbd[0]!)).toEqual(['run-ids.upstream.jsonl:6', 'run-ids.decisions.ndjson:2']);
    expect(dbd[0]!.data).toMatchObject({ tool: 'github.add_deploy_key', id: 'corr-0003', reason: 'no_declared_allowance' });
    const unrec = codes(r, 'UNRECORDED_DELIVERY');
    expect(unrec.map(at)).toEqual([['run-ids.upstream.jsonl:8']]);
    const orphans = codes(r, 'ORPHAN_REQUEST');
    expect(orphans).toHaveLength(1);
    expect(orphans[0]!.channel).toBe('delivery');
    expect(orphans[0]!.severity).toBe('warning');
    expect(orphans[0]!.data).toMatchObject({ note: 'allowed, not observed upstream', tool: 'github.create_deploy_key' });
    expect(at(orphans[0]!)).toEqual(['run-ids.decisions.ndjson:4']);
    // The engine's ORPHAN_RESPONSE stays beside the classification: the count matches the ledger.
    expect(r.findingCounts.ORPHAN_RESPONSE).toBe(del.orphanResponses);
    expect(del.orphanResponses).toBe(2);

    expect(a.delivery).toEqual({
      allow: { records: 3, arrived: 2, notArrived: 1 },
      deny: { records: 3, arrived: 1, notArrived: 2, unchecked: 0 },
      deniedArrivals: 1,
      unrecordedArrivals: 1,
    });
    expect(a.calls).toEqual({ caller: 6, upstream: 4, establishSkipped: 0 }); // its establish line is a tools/list: no needle, not even parsed
    expect(a.correlationIds).toEqual({ present: 6, absent: 0, invalid: 0, duplicated: 0 });
    expect(r.notes).toEqual([]);
  });
});

describe('assay: the same run without correlation ids, with the caller log', () => {
  it('makes every pair, none ambiguous, the delivery pairs through the chained JSON-RPC id', async () => {
    const { r, pairs } = await run(runFiles('noids'));
    const dec = ch(r, 'decision')!;
    const del = ch(r, 'delivery')!;
    expect(dec.pairs).toMatchObject({ total: 6, byConfidence: { exact: 0, unambiguous: 6, ambiguous: 0 } });
    expect(del.pairs).toMatchObject({ total: 2, byMethod: { id: 2, signature: 0, fifo: 0 }, byConfidence: { exact: 0, unambiguous: 2, ambiguous: 0 } });
    const delivery = pairs.filter((p) => p.channel === 'delivery');
    expect(delivery.map((p) => [p.request.id, p.terminal.loc.line])).toEqual([
      ['jsonrpc:n:2', 5],
      ['jsonrpc:n:7', 7],
    ]);
    expect(codes(r, 'DENIED_BUT_DELIVERED').map(at)).toEqual([['run-noids.upstream.jsonl:6', 'run-noids.decisions.ndjson:2']]);
    expect(codes(r, 'UNRECORDED_DELIVERY').map(at)).toEqual([['run-noids.upstream.jsonl:8']]);
    expect(codes(r, 'AMBIGUOUS_PAIR')).toEqual([]);
    // JSON-RPC ids are protocol ids, never checked as correlation ids.
    expect(codes(r, 'INVALID_ID')).toEqual([]);
  });

  it('a decision record missing in the middle leaves exactly that call an orphan and shifts nothing after it', async () => {
    const { r, pairs } = await run(runFiles('noids', 'run-noids.decisions-missing.ndjson'));
    const dec = ch(r, 'decision')!;
    expect(dec.pairs).toMatchObject({ total: 5, byConfidence: { ambiguous: 0 } });
    const orphans = codes(r, 'ORPHAN_REQUEST').filter((f) => f.channel === 'decision');
    expect(orphans.map(at)).toEqual([['run-noids.caller.jsonl:6']]);
    expect(orphans[0]!.data).toMatchObject({ tool: 'misc.do_thing', note: 'caller call with no decision record' });
    // Call lines 4,5,7,8,9 ↔ record lines 1..5, tool names equal.
    const d = pairs.filter((p) => p.channel === 'decision');
    expect(d.map((p) => [p.request.loc.line, p.terminal.loc.line])).toEqual([
      [4, 1],
      [5, 2],
      [7, 3],
      [8, 4],
      [9, 5],
    ]);
    for (const p of d) expect(p.request.attrs.tool).toBe(p.terminal.attrs.tool);
    expect(ch(r, 'delivery')!.pairs.total).toBe(2);
  });
});

describe('assay: the same run without the caller log and without ids', () => {
  it('pairs by tool name in order and says bypass detection needs ids or the caller log', async () => {
    const { r, pairs, a } = await run({ inputs: [fx('run-noids.decisions.ndjson')], upstream: [fx('run-noids.upstream.jsonl')] });
    expect(r.channels.map((c) => c.channel)).toEqual(['delivery']);
    const del = ch(r, 'delivery')!;
    expect(del.pairs.byMethod).toEqual({ id: 0, signature: 2, fifo: 0 });
    for (const p of pairs) expect(p.request.attrs.tool).toBe(p.terminal.attrs.tool);
    expect(del.idCoverage).toEqual({ requests: 0, terminals: 0 });
    expect(r.notes.some((n) => n.includes('bypass detection needs ids or the caller log'))).toBe(true);
    expect(a.delivery!.deny).toEqual({ records: 3, arrived: null, notArrived: null, unchecked: 3 });
    expect(codes(r, 'DENIED_BUT_DELIVERED')).toEqual([]);
  });

  it('with correlation ids but no caller log, joins on the id and still finds the bypass', async () => {
    const { r } = await run({ inputs: [fx('run-ids.decisions.ndjson')], upstream: [fx('run-ids.upstream.jsonl')] });
    expect(ch(r, 'delivery')!.pairs.byConfidence.exact).toBe(2);
    expect(codes(r, 'DENIED_BUT_DELIVERED')).toHaveLength(1);
    expect(r.notes).toEqual([]);
  });
});

describe('assay: JSON-RPC details', () => {
  it('compares JSON-RPC ids with their type (9 is not "9")', async () => {
    expect(jsonRpcKey(9)).not.toBe(jsonRpcKey('9'));
    expect(jsonRpcKey(null)).toBeNull();
    expect(jsonRpcKey(undefined)).toBeNull();
    expect(jsonRpcKey('a b\u001b')).toMatch(/^jsonrpc:h:[0-9a-f]{64}$/);
    const { r } = await run({
      inputs: [write([rec(allow, 't')])],
      caller: [write([call(9, 't')], 'caller.jsonl')],
      upstream: [write([call('9', 't')], 'upstream.jsonl')],
    });
    expect(ch(r, 'decision')!.pairs.total).toBe(1);
    expect(ch(r, 'delivery')!.pairs.total).toBe(0);
    expect(r.findingCounts).toMatchObject({ UNRECORDED_DELIVERY: 1, ORPHAN_REQUEST: 1 });
  });

  it('skips non-tools/call messages and a caller’s assay-establish-* call without a correlation id (the proxy refuses it); a notification is a call without an id', async () => {
    const caller = [
      { jsonrpc: '2.0', id: 1, method: 'initialize' },
      call('assay-establish-3', 't'),
      call(undefined, 't'),
      { jsonrpc: '2.0', id: 1, result: {} },
    ];
    const upstream = [{ jsonrpc: '2.0', id: 'assay-establish-1', method: 'tools/list' }, call(undefined, 't')];
    const { r, a, pairs } = await run({
      inputs: [write([rec(allow, 't')])],
      caller: [write(caller, 'caller.jsonl')],
      upstream: [write(upstream, 'upstream.jsonl')],
    });
    expect(a.calls).toEqual({ caller: 1, upstream: 1, establishSkipped: 1 });
    expect(pairs.map((p) => [p.channel, p.method])).toEqual([
      ['decision', 'signature'],
      ['delivery', 'signature'],
    ]);
    expect(r.findings).toEqual([]);
  });

  it('reads the correlation id under a configurable _meta key; an invalid one is INVALID_ID, never printed', async () => {
    const { r } = await run({
      inputs: [write([rec(allow, 't', { correlation_id: 'k1' }), rec(allow, 't', { correlation_id: 'k2' })])],
      caller: [write([call(1, 't', { 'my.key': 'k1', 'assay.correlation_id': 'zzz' }), call(2, 't', { 'my.key': 'secret value\u001b[2J' })], 'caller.jsonl')],
      profileOptions: { correlationKey: 'my.key' },
    });
    const dec = ch(r, 'decision')!;
    expect(dec.pairs.byMethod).toEqual({ id: 1, signature: 1, fifo: 0 });
    const inv = codes(r, 'INVALID_ID');
    expect(inv).toHaveLength(1);
    expect(inv[0]!.data).toMatchObject({ field: 'params._meta["my.key"]', reason: 'bad-characters', length: 16 });
    expect(JSON.stringify(r)).not.toContain('secret value');
  });

  it('matches tool names as the producer sanitizes them (control characters → U+FFFD)', async () => {
    expect(producerToolName('a\u001b[31mb\u202e')).toBe('a\ufffd[31mb\u202e');
    expect(producerToolName(undefined)).toBe('');
    const hostile = 'x\u001b[31m.tool';
    const { r } = await run({
      inputs: [write([rec(allow, producerToolName(hostile))])],
      caller: [write([call(1, hostile)], 'caller.jsonl')],
    });
    expect(ch(r, 'decision')!.pairs.total).toBe(1);
  });

  it('a deny record’s chained JSON-RPC id recognises its arrival without correlation ids', async () => {
    const { r, a } = await run({
      inputs: [write([rec(deny, 't'), rec(allow, 't')])],
      caller: [write([call(1, 't'), call(2, 't')], 'caller.jsonl')],
      upstream: [write([call(1, 't'), call(2, 't')], 'upstream.jsonl')],
    });
    expect(codes(r, 'DENIED_BUT_DELIVERED').map(at)).toEqual([['upstream.jsonl:1', 'x.jsonl:1']]);
    expect(ch(r, 'delivery')!.pairs.total).toBe(1);
    expect(a.delivery!.deny).toMatchObject({ arrived: 1, notArrived: 0 });
  });

  it('JSON-RPC ids follow the protocol id rule: an unsafe, fractional or -0 number or an object is no key', () => {
    for (const bad of [2 ** 53, -(2 ** 53), 1.5, -0, Infinity, NaN, { a: 1 }, [1], true]) expect(jsonRpcKey(bad)).toBeNull();
    expect(jsonRpcKey(0)).toBe('jsonrpc:n:0');
    expect(jsonRpcKey(Number.MAX_SAFE_INTEGER)).toBe(`jsonrpc:n:${Number.MAX_SAFE_INTEGER}`);
  });

  // Raw lines: JSON.stringify cannot write 9007199254740993 or -0 as the capture does.
  const rawCall = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":{}}}`;
  for (const [allowId, denyId] of [
    ['9007199254740992', '9007199254740993'],
    ['0', '-0'],
    ['1', '1e400'],
    ['1', '{"a":1}'],
    ['1', '1.5'],
  ] as const) {
    it(`ids ${allowId} (allowed) and ${denyId} (denied), one arrival under ${denyId}: INVALID_ID and a DENIED_BUT_DELIVERED (ambiguous), the gate fails`, async () => {
      const { r, a, pairs } = await run({
        inputs: [write([rec(allow, 't'), rec(deny, 't')])],
        caller: [write([rawCall(allowId), rawCall(denyId)], 'caller.jsonl')],
        upstream: [write([rawCall(denyId)], 'upstream.jsonl')],
      });
      expect(codes(r, 'INVALID_ID').length).toBeGreaterThanOrEqual(1);
      expect(codes(r, 'INVALID_ID').every((f) => ['not-a-safe-integer', 'not-a-string-or-number'].includes((f.data as { reason: string }).reason))).toBe(true);
      const d = codes(r, 'DENIED_BUT_DELIVERED');
      expect(d.map(at)).toEqual([['upstream.jsonl:1', 'x.jsonl:2']]);
      expect(d[0]!.data).toMatchObject({ ambiguous: true, deny: { line: 2 } });
      // The arrival is paired to exactly one decision (the allow) and reported as a possible bypass.
      expect(pairs.filter((p) => p.channel === 'delivery')).toHaveLength(1);
      expect(a.delivery!.deny).toMatchObject({ records: 1, arrived: 1, notArrived: 0, unchecked: 0 });
      expect(r.gate.passed).toBe(false);
    });
  }

  it('the same ids, each call arriving once: both accounted (one pair, one DENIED_BUT_DELIVERED), nothing ambiguous', async () => {
    const { r, a, pairs } = await run({
      inputs: [write([rec(allow, 't'), rec(deny, 't')])],
      caller: [write([rawCall('9007199254740992'), rawCall('9007199254740993')], 'caller.jsonl')],
      upstream: [write([rawCall('9007199254740992'), rawCall('9007199254740993')], 'upstream.jsonl')],
    });
    const d = codes(r, 'DENIED_BUT_DELIVERED');
    expect(d).toHaveLength(1);
    expect((d[0]!.data as { ambiguous?: true }).ambiguous).toBeUndefined();
    expect(pairs.filter((p) => p.channel === 'delivery')).toHaveLength(1);
    expect(a.delivery).toMatchObject({ deniedArrivals: 1, unrecordedArrivals: 0, deny: { arrived: 1, notArrived: 0, unchecked: 0 } });
  });

  it('an invalid-id arrival with no denied call it could be pairs with its allow, no error', async () => {
    const { r, pairs } = await run({
      inputs: [write([rec(allow, 't')])],
      caller: [write([rawCall('1e400')], 'caller.jsonl')],
      upstream: [write([rawCall('1e400')], 'upstream.jsonl')],
    });
    expect(pairs.filter((p) => p.channel === 'delivery')).toHaveLength(1);
    expect(Object.keys(r.findingCounts)).toEqual(['INVALID_ID']);
    expect(r.gate.passed).toBe(true);
  });

  it('one valid id shared by an allowed and a denied call, one arrival: DENIED_BUT_DELIVERED (ambiguous), not absorbed by the allow', async () => {
    const { r, a } = await run({
      inputs: [write([rec(allow, 't'), rec(deny, 't')])],
      caller: [write([call(5, 't'), call(5, 't')], 'caller.jsonl')],
      upstream: [write([call(5, 't')], 'upstream.jsonl')],
    });
    expect(codes(r, 'DENIED_BUT_DELIVERED').map((f) => [at(f), (f.data as { ambiguous?: true }).ambiguous])).toEqual([[['upstream.jsonl:1', 'x.jsonl:2'], true]]);
    expect(a.delivery!.deny).toMatchObject({ arrived: 1, notArrived: 0 });
    expect(r.gate.passed).toBe(false);
  });

  it('an arrival under a denied call’s id is not taken by an allow without an id', async () => {
    const { r } = await run({
      inputs: [write([rec(allow, 't'), rec(deny, 't')])],
      caller: [write([call(undefined, 't'), call(7, 't')], 'caller.jsonl')],
      upstream: [write([call(7, 't')], 'upstream.jsonl')],
    });
    expect(codes(r, 'DENIED_BUT_DELIVERED').map(at)).toEqual([['upstream.jsonl:1', 'x.jsonl:2']]);
    expect(r.gate.passed).toBe(false);
  });

  it('evaluates only the channels whose both sides are present', async () => {
    const { r } = await run({ inputs: [write([rec(allow, 't')])], caller: [write([call(1, 't'), call(2, 'u')], 'caller.jsonl')] });
    expect(r.channels.map((c) => c.channel)).toEqual(['decision']);
    expect(r.notes.join()).toContain('delivery not audited');
  });

  it('is silent on captures with no assay records', async () => {
    const { r } = await run({ inputs: [write([{ event: 'llm:request' }])] });
    expect(r.records.assay).toBeUndefined();
    expect(r.notes).toEqual([]);
  });
});
