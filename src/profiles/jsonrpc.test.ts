import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { ledgerViolations } from '../report/report.js';
import { isFailed } from '../model.js';
import { JSONRPC_CHANNEL } from './jsonrpc.js';
import { analyzeLines, fixture, tmpDir } from '../../test/helpers.js';
import { pairs } from '../compare/pairs.js';
import { PAIRS_FORMATTERS } from '../formatters/index.js';

const rq = (id: unknown, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const ok = (id: unknown, result: unknown = {}) => ({ jsonrpc: '2.0', id, result });

describe('jsonrpc profile', () => {
  it('acceptance: requests 1, 2, 9, "9", 3, a notification and five responses', async () => {
    const pairs: Array<[string | null, number]> = [];
    const r = await analyzeLines([
      rq(1, 'initialize'),
      rq(2, 'tools/list'),
      rq(9, 'tools/call', { name: 'add', arguments: {} }),
      rq('9', 'tools/call', { name: 'mul', arguments: {} }),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      rq(3, 'ping'),
      ok('9'),
      ok(3),
      ok(1),
      ok(9),
      ok(2),
    ], { onPair: (p) => pairs.push([p.request.attrs.model ?? null, p.terminal.loc.line]) });
    const ch = r.channels.find((c) => c.channel === 'jsonrpc')!;
    expect(ch).toMatchObject({ requests: 5, terminals: 5, orphanRequests: 0, orphanResponses: 0 });
    expect(ch.pairs.byMethod).toEqual({ id: 5, signature: 0, fifo: 0 });
    expect(ch.pairs.byConfidence.exact).toBe(5);
    expect(r.findingCounts.INVALID_ID).toBeUndefined();
    expect((r.records.jsonrpc as { notifications: number }).notifications).toBe(1);
    expect(r.inputs[0]!.profile).toBe('jsonrpc');
    expect(ledgerViolations(r)).toEqual([]);
    // 9 and "9" are different calls: each response went to its own typed request.
    expect(pairs).toContainEqual(['mul', 7]);
    expect(pairs).toContainEqual(['add', 10]);
  });

  it('error responses fail with their code; unknown ids and unanswered requests are orphans', async () => {
    const pairs: Array<{ status: unknown; error: unknown }> = [];
    const r = await analyze({
      inputs: [
        (await import('../../test/helpers.js')).writeCapture([
          rq(1, 'tools/call', { name: 'x' }),
          { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params' } },
          rq(2, 'tools/call', { name: 'y' }),
          ok(7),
        ]),
      ],
      onPair: (p) => pairs.push({ status: p.terminal.attrs.status, error: p.terminal.attrs.error }),
    });
    expect(pairs).toEqual([{ status: 'error', error: '-32602 Invalid params' }]);
    expect(isFailed(JSONRPC_CHANNEL, { status: 'error', error: '-32602 Invalid params' })).toBe(true);
    const ch = r.channels.find((c) => c.channel === 'jsonrpc')!;
    expect(ch).toMatchObject({ orphanRequests: 1, orphanResponses: 1 });
  });

  it('ids that are neither string nor number are INVALID_ID, and the calls are calls without an id', async () => {
    const r = await analyzeLines([rq({ a: 1 }, 'x'), rq(true, 'y'), ok([1])]);
    expect(r.findingCounts.INVALID_ID).toBe(3);
    expect(r.findings.find((f) => f.code === 'INVALID_ID')!.data).toMatchObject({ field: 'id', reason: 'not-a-string-or-number' });
    const ch = r.channels.find((c) => c.channel === 'jsonrpc')!;
    expect(ch).toMatchObject({ requests: 2, terminals: 1 });
    expect(ch.pairs.byMethod.id).toBe(0);
  });

  it('reads batches: a line holding an array of messages (the JSON-RPC 2.0 specification examples)', async () => {
    const r = await analyze({ inputs: [fixture('real/jsonrpc-spec/examples.jsonl')], profile: 'jsonrpc' });
    const ch = r.channels[0]!;
    expect(ch).toMatchObject({ channel: 'jsonrpc', requests: 7, terminals: 8, orphanRequests: 0, orphanResponses: 1 });
    expect(ch.pairs.byMethod.id).toBe(7);
    expect(r.records.jsonrpc).toMatchObject({ batches: 2, notifications: 2, errorResponses: 3, nonMessages: 1 });
    // The -32600 error with "id": null answers no request.
    const orphan = r.findings.find((f) => f.code === 'ORPHAN_RESPONSE')!;
    expect(orphan.locations[0]!.line).toBe(9);
    // Said as what it is, not as "an id no open request has".
    expect(orphan.message).toBe('error response (its record states no caller): its "id" is null (a server that could not read a request\'s id answers so): callpair pairs it with no request');
  });

  it('namespaces ids by direction: a server→client request never takes a client→server response', async () => {
    const w = (direction: string, message: object, timestamp?: string) => ({ direction, ...(timestamp ? { timestamp } : {}), message });
    const r = await analyzeLines([
      w('sent', rq(1, 'tools/call', { name: 'ask' }), '2025-10-23T22:20:24.000'),
      w('received', rq(1, 'sampling/createMessage'), '2025-10-23T22:20:24.100'),
      w('sent', ok(1), '2025-10-23T22:20:24.300'),
      w('received', ok(1), '2025-10-23T22:20:25.840'),
    ]);
    const ch = r.channels.find((c) => c.channel === 'jsonrpc')!;
    expect(ch).toMatchObject({ requests: 2, terminals: 2, orphanRequests: 0, orphanResponses: 0 });
    const byMethod = new Map(ch.latencyByGroup.map((g) => [g.group, g]));
    expect(byMethod.get('tools/call')!.p50).toBeCloseTo(1840, 0);
    expect(byMethod.get('sampling/createMessage')!.p50).toBeCloseTo(200, 0);
    expect(r.notes.join(' ')).toContain('read as UTC');
  });

  it('is chosen by auto on "jsonrpc": "2.0" records, whatever the spacing', async () => {
    const r = await analyzeLines(['{"jsonrpc": "2.0", "id": 1, "method": "a"}', '{"jsonrpc":"2.0","id":1,"result":null}']);
    expect(r.inputs[0]!.profile).toBe('jsonrpc');
    expect(r.channels.find((c) => c.channel === 'jsonrpc')!.pairs.total).toBe(1);
  });
});

describe('protocol ids that are numbers must be safe integers', () => {
  it('9007199254740993 and 9007199254740992 (equal after JSON.parse) never pair as an id pair', async () => {
    const file = path.join(tmpDir(), 'big.jsonl');
    writeFileSync(
      file,
      [
        '{"jsonrpc":"2.0","id":9007199254740993,"method":"a"}',
        '{"jsonrpc":"2.0","id":9007199254740992,"result":{}}',
        '{"jsonrpc":"2.0","id":1.5,"method":"b"}',
        '{"jsonrpc":"2.0","id":-0,"method":"c"}',
        '{"jsonrpc":"2.0","id":9007199254740991,"method":"d"}',
        '{"jsonrpc":"2.0","id":9007199254740991,"result":{}}',
      ].join('\n') + '\n',
    );
    const pairs: Array<{ method: string }> = [];
    const r = await analyze({ inputs: [file], profile: 'jsonrpc', onPair: (p) => pairs.push(p) });
    const invalid = r.findings.filter((f) => f.code === 'INVALID_ID');
    expect(invalid.map((f) => (f.data as { reason: string }).reason)).toEqual(['not-a-safe-integer', 'not-a-safe-integer', 'not-a-safe-integer', 'not-a-safe-integer']);
    expect(invalid[0]!.message).toMatch(/not a safe integer/);
    expect(pairs.filter((p) => p.method === 'id')).toHaveLength(1);
  });
});

describe('protocol ids are shown by their label everywhere', () => {
  it('pairs lines and findings show 9 and "other", never null or internal keys', async () => {
    const file = path.join(tmpDir(), 'ids.jsonl');
    writeFileSync(
      file,
      [
        '{"jsonrpc":"2.0","id":9,"method":"a"}',
        '{"jsonrpc":"2.0","id":9,"result":{}}',
        '{"jsonrpc":"2.0","id":"other","method":"b"}',
        '{"jsonrpc":"2.0","id":"other","method":"b"}',
        '{"jsonrpc":"2.0","id":"nobody","result":{}}',
        '{"jsonrpc":"2.0","id":"","method":"c"}',
      ].join('\n') + '\n',
    );
    // The lines `callpair pairs FILE --profile jsonrpc` writes, made in-process.
    const text: string[] = [];
    await pairs({ inputs: [file], profile: 'jsonrpc', onLine: (l) => text.push(PAIRS_FORMATTERS.ndjson.line(l)) });
    const lines = text.join('').trim().split('\n').map((l) => JSON.parse(l) as { type: string; id: string | null; method?: string });
    expect(lines.find((l) => l.type === 'call' && l.method === 'id')!.id).toBe('9');
    const ids = lines.map((l) => l.id);
    expect(ids).toContain('"other"');
    const rep = await analyze({ inputs: [file], profile: 'jsonrpc' });
    const shown = rep.findings.map((f) => (f.data as { id?: unknown }).id).filter((x) => x !== undefined);
    expect(shown).toContain('"other"');
    expect(shown).toContain('"nobody"');
    for (const id of [...ids, ...shown]) expect(String(id)).not.toMatch(/^[nsh]:/);
    expect(rep.findings.filter((f) => f.code === 'INVALID_ID').map((f) => (f.data as { reason: string }).reason)).toEqual(['empty']);
  });
});
