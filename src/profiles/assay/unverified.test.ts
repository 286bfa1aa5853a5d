/**
 * The delivery audit is exact, or fails closed (docs/assay.md, "Exact, or fail closed"): every
 * shortcut — a bound, an unread line, a missing side, an order assumption — that could hide a
 * denied call that reached the upstream makes the verdict DELIVERY_UNVERIFIED (error), so the
 * default gate never passes on it.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, type AnalyzeOptions } from '../../analyze.js';
import type { PairRecord } from '../../model.js';
import type { AssaySummary } from '../../report/assay.js';
import { ledgerViolations, type Report } from '../../report/report.js';
import { naturalOrder } from '../../input/sources.js';
import { ROOT, tmpDir } from '../../../test/helpers.js';

const contract = readFileSync(path.join(ROOT, 'fixtures/assay/contract.v0.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const ALLOW = contract.find((r) => r.decision === 'allow')!;
const DENY = contract.find((r) => r.reason === 'no_declared_allowance')!;
/** A decision record of the producer's shape, about `tool`, optionally with a correlation id. */
const rec = (base: Record<string, unknown>, tool: string, corr?: string) => {
  const o: Record<string, unknown> = { ...base, tool: { ...(base.tool as object), name: tool } };
  delete o.correlation_id;
  if (corr !== undefined) o.correlation_id = corr;
  return o;
};
const allow = (tool: string, corr?: string) => rec(ALLOW, tool, corr);
const deny = (tool: string, corr?: string) => rec(DENY, tool, corr);
/** A `tools/call` line (`id` as raw JSON text, so invalid ids can be written). */
const call = (id: string | number, tool: string, corr?: string) =>
  `{"jsonrpc":"2.0","id":${typeof id === 'number' ? id : id},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":{}${corr !== undefined ? `,"_meta":{"assay.correlation_id":${JSON.stringify(corr)}}` : ''}}}`;
const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"driver","version":"1"}}}';
const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

function write(rows: Array<object | string>, name: string, dir = tmpDir()): string {
  const p = path.join(dir, name);
  writeFileSync(p, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  return p;
}

async function audit(
  decisions: Array<object | string> | string[],
  caller: Array<object | string> | null,
  upstream: Array<object | string>,
  opts: Partial<AnalyzeOptions> = {},
): Promise<{ r: Report; a: AssaySummary; pairs: PairRecord[] }> {
  const dir = tmpDir();
  const pairs: PairRecord[] = [];
  const r = await analyze({
    profile: 'assay',
    inputs: [write(decisions, 'd.ndjson', dir)],
    ...(caller ? { caller: [write(caller, 'c.jsonl', dir)] } : {}),
    upstream: [write(upstream, 'u.jsonl', dir)],
    onPair: (p) => pairs.push(p),
    ...opts,
  });
  expect(ledgerViolations(r)).toEqual([]);
  return { r, a: r.records.assay as AssaySummary, pairs };
}

const unverified = (r: Report) => r.findings.filter((f) => f.code === 'DELIVERY_UNVERIFIED');
const causes = (r: Report) => unverified(r).map((f) => (f.data as { cause: string }).cause);
const base = (l: { path: string; line: number }) => `${path.basename(l.path)}:${l.line}`;

function failsClosed(r: Report, cause: string): void {
  expect(causes(r)).toContain(cause);
  for (const f of unverified(r)) expect(f.severity).toBe('error');
  expect(r.gate.passed).toBe(false);
}

describe('a bound reached makes the audit unverified, never a silent pass', () => {
  it('an evicted caller call (more open calls than --max-open-calls, no ids): DELIVERY_UNVERIFIED evicted, the gate fails', async () => {
    // Eleven calls of one tool, the last denied and delivered, the first allowed and not delivered.
    // With room for ten open calls the first is evicted, every decision pairs with the next call,
    // and the denied arrival would pair with the allow of call 10.
    const n = 11;
    const decisions = [...Array.from({ length: n - 1 }, () => allow('t')), deny('t')];
    const caller = Array.from({ length: n }, (_, i) => call(i + 1, 't'));
    const upstream = Array.from({ length: n - 1 }, (_, i) => call(i + 2, 't'));
    const { r } = await audit(decisions, caller, upstream, { maxOpenCalls: n - 1 });
    failsClosed(r, 'evicted');
    const f = unverified(r).find((x) => (x.data as { cause: string }).cause === 'evicted')!;
    expect(f.data).toMatchObject({ window: 'decision', bound: n - 1, count: 1 });
    expect(f.locations.map(base)).toEqual(['c.jsonl:1']);
  });

  it('the deny-key window: an id reused by an allow and a deny is never forgotten; past the bound the audit is unverified', async () => {
    // c1 is allowed and denied; six more denies fill a window of five; one arrival under c1.
    const decisions = [allow('t', 'c1'), deny('t', 'c1'), ...Array.from({ length: 6 }, (_, i) => deny('t', `x${i}`))];
    const { r } = await audit(decisions, null, [call(1, 't', 'c1')], { profileOptions: { window: 5 } });
    const dbd = r.findings.filter((f) => f.code === 'DENIED_BUT_DELIVERED');
    expect(dbd).toHaveLength(1);
    expect(dbd[0]!.data).toMatchObject({ id: 'c1', ambiguous: true });
    failsClosed(r, 'window');
    expect(unverified(r)[0]!.data).toMatchObject({ cause: 'window', window: 'deny-keys', bound: 5, count: 2 });
  });

  it('the suspect list: an ambiguous denied delivery past its bound is never left unjudged silently', async () => {
    // Ids that cannot tell calls apart (1.5 is no JSON-RPC id): a deny of A, three allowed B calls
    // (harmless suspects), then the allowed A call; the arrivals B, B, B, A fill a window of three.
    const decisions = [deny('A'), allow('B'), allow('B'), allow('B'), allow('A')];
    const caller = [call('1.5', 'A'), call('1.5', 'B'), call('1.5', 'B'), call('1.5', 'B'), call('1.5', 'A')];
    const upstream = [call('1.5', 'B'), call('1.5', 'B'), call('1.5', 'B'), call('1.5', 'A')];
    const { r } = await audit(decisions, caller, upstream, { profileOptions: { window: 3 } });
    failsClosed(r, 'window');
    expect(unverified(r).find((f) => (f.data as { window?: string }).window === 'suspects')!.locations.map(base)).toEqual(['u.jsonl:4']);
  });
});

describe('an arrival line not read makes the audit unverified', () => {
  it('a denied call’s upstream line over --max-line-bytes: DELIVERY_UNVERIFIED unread-line (oversized) at that line', async () => {
    const big = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"pad":"${'x'.repeat(8192)}"},"_meta":{"assay.correlation_id":"c1"}}}`;
    const { r } = await audit([deny('t', 'c1')], null, [INIT, big], { maxLineBytes: 4096 });
    expect(r.findingCounts.OVERSIZED_LINE).toBe(1);
    failsClosed(r, 'unread-line');
    expect(unverified(r)[0]!).toMatchObject({ data: { reason: 'oversized', count: 1 } });
    expect(unverified(r)[0]!.locations.map(base)).toEqual(['u.jsonl:2']);
  });

  it('a JSON-RPC batch on line 2 of the upstream log: DELIVERY_UNVERIFIED unread-line (batch)', async () => {
    const { r } = await audit([deny('t', 'c1')], null, [INIT, `[${call(1, 't', 'c1')}]`]);
    failsClosed(r, 'unread-line');
    expect(unverified(r)[0]!).toMatchObject({ data: { reason: 'batch' } });
    expect(unverified(r)[0]!.locations.map(base)).toEqual(['u.jsonl:2']);
  });

  it.each([
    ['an envelope', (c: string) => `{"direction":"received","message":${c}}`],
    ['a bare wrapper key', (c: string) => `{"received":${c}}`],
    ['the message kept as a JSON string', (c: string) => JSON.stringify({ line: c })],
    ['escaped, in another case', (c: string) => c.replace('{"jsonrpc"', '{"msg":{"jsonrpc"').replace('"method":"tools/call"', '"METHOD":"Tools\\u002fCall"') + '}'],
  ])('a denied call inside %s on the upstream (no method of its own): DELIVERY_UNVERIFIED unread-line (wrapped), never verified', async (_name, wrap) => {
    const line = wrap(call(1, 't', 'c1'));
    for (const jobs of [1, 2]) {
      const { r } = await audit([deny('t', 'c1')], null, [INIT, line], { jobs });
      failsClosed(r, 'unread-line');
      expect(unverified(r)[0]!).toMatchObject({ data: { reason: 'wrapped' } });
      expect(unverified(r)[0]!.locations.map(base)).toEqual(['u.jsonl:2']);
    }
  });

  /** A call with no `_meta` (so no `"assay.` in its bytes), as the adversary wrote it. */
  const bare = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}';
  it.each([
    ['kept as a JSON string', JSON.stringify({ line: bare })],
    ['in upper case', `{"received":${bare.replace('tools/call', 'TOOLS/CALL')}}`],
    ['padded', `{"received":${bare.replace('"tools/call"', '" tools/call "')}}`],
    ['as free text', JSON.stringify({ ts: 'x', msg: 'received tools/call name=t id=1' })],
    ['split by blanks and an escaped slash', JSON.stringify({ msg: 'Tools \t/ call' }).replace('/', '\\/')],
    ['under an HTTP method of its own', `{"method":"POST","path":"/mcp","body":${bare}}`],
    ['under a method that is no string', `{"method":null,"body":${bare}}`],
    ['under a method, with no jsonrpc key', `{"method":"log","params":{"message":${bare}}}`],
    ['in a reply with a key no reply has', `{"jsonrpc":"2.0","id":2,"result":{},"forwarded":${bare}}`],
    ['as the whole line, a JSON string', JSON.stringify(bare)],
    ['kept as JSON text with its slash escaped (PHP)', JSON.stringify({ direction: 'received', message: bare.replace('tools/call', 'tools\\/call') })],
    ['kept as JSON text with a \\u escape inside', JSON.stringify({ message: bare.replace('tools/call', 'tools\\u002fcall') })],
    ['in the body of a tools/call line with no jsonrpc key', `{"method":"tools/call","id":2,"params":{"name":"ok"},"body":${bare}}`],
    ['under a key of its own of a JSON-RPC tools/call', `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ok"},"forwarded":${bare}}`],
  ])('a call %s on the upstream or caller log: wrapped, the same with --validate-all and --jobs 2', async (_name, line) => {
    for (const opts of [{}, { validateAll: true }, { jobs: 2 }]) {
      const up = await audit([deny('t')], null, [INIT, line], opts);
      failsClosed(up.r, 'unread-line');
      expect(unverified(up.r).find((f) => (f.data as { cause: string }).cause === 'unread-line')!).toMatchObject({ data: { reason: 'wrapped' } });
      const caller = await audit([deny('t')], [INIT, line], [INIT], opts);
      expect(unverified(caller.r).find((f) => (f.data as { cause: string }).cause === 'unread-line')!.locations.map(base)).toEqual(['c.jsonl:2']);
    }
  });

  it.each([
    ['a reply whose text quotes tools/call', '{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"I ran tools/call for you"}]}}'],
    ['an error reply naming tools/call', '{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"tools/call failed"}}'],
    // The enforcing proxy's own denial reply (docs/assay.md), as a log of both directions holds it.
    ['the proxy’s denial reply', '{"jsonrpc":"2.0","id":9,"error":{"code":-31999,"message":"tools/call denied by enforcing proxy: no_declared_allowance","data":{"origin":"assay-proxy","reason":"no_declared_allowance"}}}'],
    ['a log notification quoting tools/call', '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"tools/call t"}}'],
    ['a reply quoting tools/call, with a timestamp a logger added', '{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"tools/call"}]},"timestamp":"2026-01-01T00:00:00Z"}'],
    ['a batch of replies quoting tools/call', '[{"jsonrpc":"2.0","id":8,"result":{"text":"tools/call"}},{"jsonrpc":"2.0","id":9,"error":{"code":1,"message":"tools/call failed"}}]'],
  ])('%s is a JSON-RPC message of its own, no envelope: nothing unread, with or without --validate-all', async (_name, line) => {
    for (const opts of [{}, { validateAll: true }]) {
      const { r } = await audit([allow('t', 'c1')], null, [INIT, line, call(1, 't', 'c1')], opts);
      expect(causes(r)).toEqual([]);
      expect(r.gate.passed).toBe(true);
    }
  });

  it('a call inside an envelope on the caller log: DELIVERY_UNVERIFIED unread-line (wrapped) at that line', async () => {
    const { r } = await audit([deny('t', 'c1')], [INIT, `{"direction":"sent","message":${call(1, 't', 'c1')}}`], [INIT]);
    failsClosed(r, 'unread-line');
    expect(unverified(r)[0]!).toMatchObject({ data: { reason: 'wrapped' } });
    expect(unverified(r)[0]!.locations.map(base)).toEqual(['c.jsonl:2']);
  });

  it('a batch of envelopes around a tools/call on the upstream: DELIVERY_UNVERIFIED unread-line (batch)', async () => {
    const { r } = await audit([deny('t', 'c1')], null, [INIT, `[{"received":${call(1, 't', 'c1')}}]`]);
    failsClosed(r, 'unread-line');
    expect(unverified(r)[0]!).toMatchObject({ data: { reason: 'batch' } });
  });

  it('an upstream reply whose text has escapes and no tools/call is no arrival: nothing unverified', async () => {
    const { r } = await audit([deny('t', 'c1')], null, [INIT, '{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"a\\nb \\"method\\": x"}]}}']);
    expect(causes(r)).toEqual([]);
  });

  it('a malformed upstream line: DELIVERY_UNVERIFIED unread-line (invalid-json)', async () => {
    const { r } = await audit([deny('t', 'c1')], null, [INIT, '{"jsonrpc":"2.0","id":1,"method":"tools/call",']);
    failsClosed(r, 'unread-line');
  });

  it('a batch of only tools/list is no delivery: nothing unverified', async () => {
    const { r } = await audit([allow('t', 'c1')], null, [INIT, '[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]', call(1, 't', 'c1')]);
    expect(causes(r)).toEqual([]);
    expect(r.gate.passed).toBe(true);
  });
});

describe('an allowed call whose arguments mention tools/call is that call', () => {
  const searching = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"q":"MCP tools/call spec"},"_meta":{"assay.correlation_id":"c1"}}}';
  it('read as the call on the caller and upstream logs, JSONL or a JSON document: verified', async () => {
    for (const opts of [{}, { validateAll: true }, { jobs: 2 }]) {
      const { r, a } = await audit([allow('t', 'c1')], [INIT, searching], [INIT, searching], opts);
      expect(causes(r)).toEqual([]);
      expect(r.gate.passed).toBe(true);
      expect(a.calls).toMatchObject({ caller: 1, upstream: 1 });
    }
    const dir = tmpDir();
    const doc = (name: string) => {
      const p = path.join(dir, name);
      writeFileSync(p, JSON.stringify([JSON.parse(INIT), JSON.parse(searching)], null, 1));
      return p;
    };
    const r = await analyze({ profile: 'assay', inputs: [write([allow('t', 'c1')], 'd.ndjson', dir)], caller: [doc('c.json')], upstream: [doc('u.json')] });
    expect(causes(r)).toEqual([]);
    expect(r.gate.passed).toBe(true);
  });

  it('a tool argument of 200 000 backslashes is read in linear time', async () => {
    const line = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"x":"${'\\'.repeat(200_000)}x tools/call \\u0041"},"_meta":{"assay.correlation_id":"c1"}}}`;
    const t0 = performance.now();
    const { r } = await audit([allow('t', 'c1')], null, [INIT, line]);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(causes(r)).toEqual([]);
  });
});

describe('a key given twice may hide a call', () => {
  it('{"received":<call>,"received":null}: JSON.parse keeps null, a reader keeping the first sees the call: unread-line (repeated-key), in every mode', async () => {
    const bare = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}';
    for (const opts of [{}, { validateAll: true }, { jobs: 2 }]) {
      const { r } = await audit([deny('t')], null, [INIT, `{"received":${bare},"received":null}`], opts);
      failsClosed(r, 'unread-line');
      expect(unverified(r).find((f) => (f.data as { reason?: string }).reason === 'repeated-key')!.locations.map(base)).toEqual(['u.jsonl:2']);
    }
  });
});

describe('every caller and upstream line is read, in every mode', () => {
  it.each([['{bad json'], ['{"jsonrpc":"2.0","id":1,"method":"tools/list",}'], ["{method:'tools\\x2fcall'}"]])(
    'a malformed upstream line %j: DELIVERY_UNVERIFIED unread-line (invalid-json), the same with --validate-all and --jobs 2',
    async (line) => {
      for (const opts of [{}, { validateAll: true }, { jobs: 2 }]) {
        const { r } = await audit([allow('t', 'c1')], null, [INIT, call(1, 't', 'c1'), line], opts);
        failsClosed(r, 'unread-line');
        expect(unverified(r)[0]!).toMatchObject({ data: { reason: 'invalid-json' } });
        expect(r.findingCounts.MALFORMED_LINE).toBe(1);
      }
    },
  );

  it('a file of an --upstream directory the walk does not read (upstream.jsonl.1, upstream.log): DELIVERY_UNVERIFIED unread-line (not-a-log), gate fails', async () => {
    const dir = tmpDir();
    const up = path.join(dir, 'up');
    mkdirSync(up);
    write([INIT, call(2, 'ok', 'c2')], 'upstream.jsonl', up);
    write([call(1, 't', 'c1')], 'upstream.jsonl.1', up);
    write(['x'], 'upstream.log', up);
    symlinkSync(path.join(dir, 'elsewhere'), path.join(up, 'latest'));
    const r = await analyze({ profile: 'assay', inputs: [write([allow('ok', 'c2'), deny('t', 'c1')], 'd.ndjson', dir)], upstream: [up] });
    failsClosed(r, 'unread-line');
    const notRead = unverified(r).filter((f) => (f.data as { reason?: string }).reason === 'not-a-log');
    expect(notRead.map((f) => path.basename((f.data as { path: string }).path)).sort()).toEqual(['latest', 'upstream.jsonl.1', 'upstream.log']);
    expect(notRead[0]!.message).toContain('of a --caller or --upstream directory not read');
  });
});

describe('a side missing or empty makes the audit unverified', () => {
  it('a caller log holding only the handshake: the bypass-needs-ids note and DELIVERY_UNVERIFIED caller-log-empty', async () => {
    // No correlation ids; the denied call (JSON-RPC id 2) is the only arrival.
    const { r } = await audit([allow('t'), deny('t')], [INIT, INITIALIZED], [INIT, call(2, 't')]);
    expect(r.notes.some((n) => n.includes('bypass detection needs ids or the caller log'))).toBe(true);
    failsClosed(r, 'caller-log-empty');
  });

  it('no caller log and a deny record without a correlation id: DELIVERY_UNVERIFIED deny-without-id', async () => {
    const { r } = await audit([allow('t'), deny('t')], null, [call(2, 't')]);
    failsClosed(r, 'deny-without-id');
  });

  it('a deny record without an id that no caller call pairs with: DELIVERY_UNVERIFIED deny-not-in-caller-log', async () => {
    const { r } = await audit([allow('t'), deny('u')], [call(1, 't')], [call(1, 't')]);
    failsClosed(r, 'deny-not-in-caller-log');
  });

  it('a methods-only upstream log: UNMATCHED_INPUT and DELIVERY_UNVERIFIED no-json-rpc, the gate fails', async () => {
    const dir = tmpDir();
    const u = path.join(dir, 'upstream.log');
    writeFileSync(u, 'tools/call t\n');
    const r = await analyze({ profile: 'assay', inputs: [write([deny('t', 'c1')], 'd.ndjson', dir)], upstream: [u] });
    expect(r.findingCounts.UNMATCHED_INPUT).toBe(1);
    failsClosed(r, 'no-json-rpc');
  });

  it('an empty --upstream directory, or one holding the log as upstream.log, is a usage error (exit 2 in the CLI)', async () => {
    const d = write([deny('t', 'c1')], 'd.ndjson');
    const empty = path.join(tmpDir(), 'up');
    mkdirSync(empty);
    await expect(analyze({ profile: 'assay', inputs: [d], upstream: [empty] })).rejects.toThrow(/--upstream ".*up": no log in it/);
    const named = path.join(tmpDir(), 'up');
    mkdirSync(named);
    writeFileSync(path.join(named, 'upstream.log'), `${call(1, 't', 'c1')}\n`);
    await expect(analyze({ profile: 'assay', inputs: [d], upstream: [named] })).rejects.toThrow(/no log in it.*upstream\.log/);
  });

  it('with ids on every record, complete logs pass: nothing is unverified', async () => {
    const { r } = await audit([allow('t', 'c1'), deny('t', 'c2')], [INIT, call(1, 't', 'c1'), call(2, 't', 'c2')], [INIT, call(1, 't', 'c1')]);
    expect(causes(r)).toEqual([]);
    expect(r.gate.passed).toBe(true);
  });
});

describe('order without ids is never unambiguous across files', () => {
  it('directories are walked in natural order: run-9 before run-10', () => {
    const names = ['run-10.ndjson', 'run-9.ndjson', 'run-09.ndjson', 'run-1.ndjson', 'a.ndjson', 'run-100.ndjson'];
    expect([...names].sort((a, b) => naturalOrder(Buffer.from(a), Buffer.from(b)))).toEqual([
      'a.ndjson',
      'run-1.ndjson',
      'run-09.ndjson',
      'run-9.ndjson',
      'run-10.ndjson',
      'run-100.ndjson',
    ]);
  });

  it('no ids, the allow in run-9 and the deny in run-10: paired in natural order, labelled ambiguous, and the audit is unverified', async () => {
    const dir = tmpDir();
    const decisions = path.join(dir, 'decisions');
    mkdirSync(decisions);
    write([allow('t')], 'run-9.ndjson', decisions);
    write([deny('t')], 'run-10.ndjson', decisions);
    const pairs: PairRecord[] = [];
    const r = await analyze({
      profile: 'assay',
      inputs: [decisions],
      caller: [write([call(1, 't'), call(2, 't')], 'c.jsonl', dir)],
      upstream: [write([call(2, 't')], 'u.jsonl', dir)],
      onPair: (p) => pairs.push(p),
    });
    expect(r.inputs.map((i) => path.basename(i.path))).toEqual(['c.jsonl', 'run-9.ndjson', 'run-10.ndjson', 'u.jsonl']);
    const decision = pairs.filter((p) => p.channel === 'decision');
    expect(decision.map((p) => [base(p.request.loc), base(p.terminal.loc), p.confidence])).toEqual([
      ['c.jsonl:1', 'run-9.ndjson:1', 'ambiguous'],
      ['c.jsonl:2', 'run-10.ndjson:1', 'ambiguous'],
    ]);
    expect(r.findingCounts.DENIED_BUT_DELIVERED).toBe(1);
    failsClosed(r, 'ambiguous-pairing');
  });
});

describe('several runs in one file set are detected', () => {
  it('five runs concatenated: the ambiguous DENIED_BUT_DELIVERED names the repeated handshakes and reused ids, and a note says so', async () => {
    // Each run: initialize, one tools/call with JSON-RPC id 9; runs 1-4 allowed, run 5 denied.
    const caller: string[] = [];
    const upstream: string[] = [];
    const decisions: object[] = [];
    for (let k = 1; k <= 5; k++) {
      caller.push(INIT, call(9, 't'));
      upstream.push(INIT);
      if (k < 5) upstream.push(call(9, 't'));
      decisions.push(k < 5 ? allow('t') : deny('t'));
    }
    const { r, a } = await audit(decisions, caller, upstream);
    const dbd = r.findings.filter((f) => f.code === 'DENIED_BUT_DELIVERED');
    expect(dbd).toHaveLength(1);
    expect(dbd[0]!.data).toMatchObject({ ambiguous: true, runs: { callerHandshakes: 5, upstreamHandshakes: 5, callerIdsReused: 4 } });
    expect(dbd[0]!.message).toContain('several runs');
    expect(a.runs).toEqual({ callerHandshakes: 5, upstreamHandshakes: 5, callerIdsReused: 4 });
    expect(r.notes.some((n) => n.startsWith('assay: the files look like several runs'))).toBe(true);
    expect(r.gate.passed).toBe(false);
  });

  it('one run: no several-runs hint', async () => {
    const { r, a } = await audit([allow('t')], [INIT, call(1, 't')], [INIT, call(1, 't')]);
    expect(a.runs).toEqual({ callerHandshakes: 1, upstreamHandshakes: 1, callerIdsReused: 0 });
    expect(r.notes.some((n) => n.includes('several runs'))).toBe(false);
  });
});

describe('the opt-out is explicit', () => {
  it('allowUnverified: the finding stays, the error-findings check does not count it, and the run and gate say so', async () => {
    const { r } = await audit([allow('t'), deny('t')], null, [call(1, 't')], { gate: { allowUnverified: true } });
    expect(r.findingCounts.DELIVERY_UNVERIFIED).toBeGreaterThan(0);
    expect(r.run.gate.allowUnverified).toBe(true);
    expect(r.gate.allowUnverified).toBe(true);
    const errors = r.gate.checks.find((c) => c.name === 'error-findings')!;
    expect(errors.codes).not.toContain('DELIVERY_UNVERIFIED');
    expect(r.gate.passed).toBe(true);
  });
});

describe('the reserved assay-establish- id prefix hides no delivery', () => {
  it('an upstream tools/call under an assay-establish- id carrying a deny’s correlation id: DENIED_BUT_DELIVERED, the gate fails', async () => {
    const { r, a } = await audit(
      [deny('github.delete_repo', 'corr-1'), allow('misc.ok', 'corr-2')],
      [call('"assay-establish-9"', 'github.delete_repo', 'corr-1'), call(2, 'misc.ok', 'corr-2')],
      [call('"assay-establish-9"', 'github.delete_repo', 'corr-1'), call(2, 'misc.ok', 'corr-2')],
    );
    expect(r.findingCounts.DENIED_BUT_DELIVERED).toBe(1);
    expect(a.calls).toEqual({ caller: 2, upstream: 2, establishSkipped: 0 });
    expect(r.gate.passed).toBe(false);
  });

  it('an upstream of only assay-establish- tools/calls without a correlation id: each an arrival (UNRECORDED_DELIVERY), never a silent pass', async () => {
    const { r, a } = await audit([deny('t', 'c1')], [call('"assay-establish-1"', 't')], [call('"assay-establish-1"', 't')]);
    expect(a.calls).toEqual({ caller: 0, upstream: 1, establishSkipped: 1 });
    expect(r.findingCounts.UNRECORDED_DELIVERY).toBe(1);
    expect(r.gate.passed).toBe(false);
  });
});

describe('a key-less arrival is never taken by an allow on its tool alone while a deny of that tool could explain it', () => {
  const decisions = [deny('X', 'c1'), allow('X', 'c2')];
  const noKey = '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"X","arguments":{"target":"prod"}}}';
  it('with the caller log: an arrival with no id and no _meta is DELIVERY_UNVERIFIED (keyless-arrival), the gate fails', async () => {
    const { r } = await audit(decisions, [call(1, 'X', 'c1'), call(2, 'X', 'c2')], [noKey]);
    failsClosed(r, 'keyless-arrival');
  });
  it('without the caller log: an arrival with an id but no _meta is DELIVERY_UNVERIFIED (keyless-arrival), located at the arrival', async () => {
    const { r } = await audit(decisions, null, [call(1, 'X')]);
    failsClosed(r, 'keyless-arrival');
    expect(unverified(r).find((f) => f.data.cause === 'keyless-arrival')!.locations.map(base)).toEqual(['u.jsonl:1']);
  });
  it('no deny of that tool: the key-less arrival pairs with the allow and the audit is verified', async () => {
    const { r } = await audit([deny('Y', 'c1'), allow('X', 'c2')], null, [call(1, 'X')]);
    expect(causes(r)).toEqual([]);
  });
});

describe('a decision record paired with its call only by order among several calls of its tool fails closed when that tool is both allowed and denied', () => {
  it('no correlation ids, two calls of one tool open, an allow then a deny: DELIVERY_UNVERIFIED (ambiguous-pairing) at the allow, the gate fails', async () => {
    const { r } = await audit([allow('github.delete_repo'), deny('github.delete_repo')], [call(1, 'github.delete_repo'), call(2, 'github.delete_repo')], [call(1, 'github.delete_repo')]);
    failsClosed(r, 'ambiguous-pairing');
    expect(unverified(r).find((f) => f.data.cause === 'ambiguous-pairing')!.locations.map(base)).toEqual(['d.ndjson:1']);
  });
  it('a deny then an allow: the same', async () => {
    const { r } = await audit([deny('t'), allow('t')], [call(1, 't'), call(2, 't')], [call(2, 't')]);
    failsClosed(r, 'ambiguous-pairing');
  });
  it('two allows of one tool open at once and no deny of it: verified', async () => {
    const { r } = await audit([allow('t'), allow('t'), deny('u')], [call(1, 't'), call(2, 't'), call(3, 'u')], [call(1, 't'), call(2, 't')]);
    expect(causes(r)).toEqual([]);
  });
});

describe('a JSON-RPC key the audit reads, under another letter case, fails closed (a case-insensitive decoder reads it)', () => {
  const decisions = [deny('github.delete_repo', 'corr-1'), allow('misc.ok', 'corr-2')];
  const caller = [call(1, 'github.delete_repo', 'corr-1'), call(2, 'misc.ok', 'corr-2')];
  const cases = [
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"misc.ok","arguments":{},"_meta":{"assay.correlation_id":"corr-2"}},"Params":{"name":"github.delete_repo","arguments":{},"_meta":{"assay.correlation_id":"corr-1"}}}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/list","Method":"tools/call","params":{"name":"github.delete_repo","arguments":{},"_meta":{"assay.correlation_id":"corr-1"}}}',
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"misc.ok","NAME":"github.delete_repo","arguments":{},"_meta":{"assay.correlation_id":"corr-2"}}}',
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"misc.ok","arguments":{},"_meta":{"assay.correlation_id":"corr-2","Assay.Correlation_ID":"corr-1"}}}',
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"misc.ok","arguments":{},"paramſ":1,"_meta":{"assay.correlation_id":"corr-2"}},"paramſ":{"name":"github.delete_repo"}}',
  ];
  for (const line of cases) {
    it(`upstream ${line.slice(40, 110)}…: DUPLICATE_KEY and DELIVERY_UNVERIFIED (key-case), in both readings`, async () => {
      for (const validateAll of [false, true]) {
        const { r } = await audit(decisions, caller, [line, call(2, 'misc.ok', 'corr-2')], { validateAll });
        failsClosed(r, 'key-case');
        expect(r.findingCounts.DUPLICATE_KEY).toBeGreaterThanOrEqual(1);
      }
    });
  }
  it('keys of other objects under any case (arguments’ own keys, "Result") are no finding', async () => {
    const { r } = await audit(decisions, caller, ['{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"misc.ok","arguments":{"Name":1,"ID":2},"_meta":{"assay.correlation_id":"corr-2"}},"Result":1}']);
    expect(causes(r)).toEqual([]);
    expect(r.findingCounts.DUPLICATE_KEY).toBeUndefined();
  });
});

describe('a JSON-RPC batch that may hold a tools/call under a case-variant method key, or a nested batch, is not read: the audit fails closed', () => {
  const decisions = [deny('github.delete_repo', 'corr-1'), allow('misc.ok', 'corr-2')];
  const caller = [call(1, 'github.delete_repo', 'corr-1'), call(2, 'misc.ok', 'corr-2')];
  const denied = '"params":{"name":"github.delete_repo","arguments":{},"_meta":{"assay.correlation_id":"corr-1"}}';
  const batches = [
    `[{"jsonrpc":"2.0","id":5,"Method":"tools/call",${denied}}]`,
    `[{"jsonrpc":"2.0","id":5,"method":"tools/list","Method":"tools/call",${denied}}]`,
    `[{"jsonrpc":"2.0","id":5,"method":"tools/list","methoD":"tools/call",${denied}}]`,
    `[[{"jsonrpc":"2.0","id":5,"method":"tools/call",${denied}}]]`,
  ];
  for (const line of batches) {
    it(`upstream ${line.slice(0, 70)}…: DELIVERY_UNVERIFIED (unread-line, batch), in both readings`, async () => {
      for (const validateAll of [false, true]) {
        const { r } = await audit(decisions, caller, [call(2, 'misc.ok', 'corr-2'), line], { validateAll });
        failsClosed(r, 'unread-line');
      }
    });
  }
  it('a batch of tools/list requests under the exact key is read as no call: verified', async () => {
    const { r } = await audit(decisions, caller, [call(2, 'misc.ok', 'corr-2'), '[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]']);
    expect(causes(r)).toEqual([]);
  });
});

describe('finding messages name no empty caller', () => {
  it('a decision record with no caller id whose correlation id no caller call has: the ORPHAN_RESPONSE message has no empty "for"', async () => {
    const d = deny('t', 'c9');
    delete (d as { caller?: unknown }).caller;
    const { r } = await audit([d], [call(1, 't', 'c1')], [call(2, 'u')]);
    const o = r.findings.filter((f) => f.code === 'ORPHAN_RESPONSE' && f.channel === 'decision');
    expect(o.length).toBe(1);
    expect(o[0]!.message).toBe('assay.enforcement_decision.v0 carries an id no open request has');
  });
});
