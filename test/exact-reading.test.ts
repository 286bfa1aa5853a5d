/**
 * The reader reads what JSON.parse reads, whatever the bytes look like (docs/performance.md,
 * "Exact or the exact path"): a repeated key is its last one, an escaped spelling is its string,
 * far past any scan budget; and Markdown in every command goes through the one escaping function.
 * Through the built binary, as a user runs it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCAN_BUDGET } from '../src/input/classify.js';
import { fixture, runCli, tmpDir, writeCapture } from './helpers.js';

const rows = readFileSync(fixture('assay/run-noids.decisions.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const DENY = rows.find((r) => r.decision === 'deny')!;
const denyT = { ...DENY, tool: { ...(DENY.tool as object), name: 't' } };
const CALL = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","arguments":{}}}';

/** A denied call to `t` sent by the caller, and `arrival` as the upstream's only line, with and without --validate-all. */
async function auditBoth(arrival: string, extra: string[] = []) {
  const dir = tmpDir();
  const args = ['analyze', '--profile', 'assay', '-f', 'json', writeCapture([denyT], 'd.ndjson', dir), '--caller', writeCapture([CALL], 'c.jsonl', dir), '--upstream', writeCapture([arrival], 'u.jsonl', dir), ...extra];
  return Promise.all(
    [[], ['--validate-all']].map(async (v) => {
      const res = await runCli([...args, ...v]);
      return { code: res.code, r: JSON.parse(res.stdout) as { findingCounts: Record<string, number>; findings: Array<{ code: string; severity: string; channel: string | null; data: Record<string, unknown>; locations: Array<{ path: string; line: number }> }> } };
    }),
  );
}

describe('a repeated key is read as its last one', () => {
  it('an upstream line {"method":"tools/list","method":"tools/call"} is a tools/call arrival: DENIED_BUT_DELIVERED and DUPLICATE_KEY (error, path:line), exit 1, with and without --validate-all', async () => {
    const arrival = '{"jsonrpc":"2.0","id":3,"method":"tools/list","method":"tools/call","params":{"name":"t","arguments":{}}}';
    for (const { code, r } of await auditBoth(arrival)) {
      expect(code).toBe(1);
      expect(r.findingCounts.DENIED_BUT_DELIVERED).toBe(1);
      const dup = r.findings.filter((f) => f.code === 'DUPLICATE_KEY');
      expect(dup).toHaveLength(1);
      expect(dup[0]).toMatchObject({ severity: 'error', channel: 'delivery', data: { key: 'method' } });
      expect(path.basename(dup[0]!.locations[0]!.path)).toBe('u.jsonl');
      expect(dup[0]!.locations[0]!.line).toBe(1);
    }
  });

  it('a repeated id or params.name on an arrival is a DUPLICATE_KEY error (the first repeat named), the last one read', async () => {
    const both = '{"jsonrpc":"2.0","id":9,"method":"tools/call","id":3,"params":{"name":"safe","name":"t","arguments":{}}}';
    const name = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"safe","arguments":{},"name":"t"}}';
    for (const [arrival, key] of [
      [both, 'id'],
      [name, 'params.name'],
    ] as const) {
      for (const { code, r } of await auditBoth(arrival)) {
        expect(code).toBe(1);
        expect(r.findingCounts.DENIED_BUT_DELIVERED).toBe(1);
        expect(r.findings.filter((f) => f.code === 'DUPLICATE_KEY').map((f) => f.data.key)).toEqual([key]);
      }
    }
  });

  it('a kind key repeated by an Amplifier line (content_block:delta, then llm:request) opens a call, as with --validate-all', async () => {
    const file = writeCapture([
      '{"event":"content_block:delta","session_id":"s","request_id":"r1","event":"llm:request","data":{"provider":"p","model":"m"}}',
      '{"event":"llm:response","session_id":"s","request_id":"r1","data":{"provider":"p","model":"m","status":"ok"}}',
    ]);
    for (const v of [[], ['--validate-all']]) {
      const res = await runCli(['analyze', '-f', 'json', file, ...v]);
      const r = JSON.parse(res.stdout) as { channels: Array<{ pairs: { total: number } }>; findingCounts: Record<string, number> };
      expect(r.channels[0]!.pairs.total).toBe(1);
      expect(r.findingCounts).toEqual({});
    }
  });
});

describe('a repeated key inside a JSON document', () => {
  it('a decision record of a .json array repeating "decision", and an upstream .json document repeating params.name: DUPLICATE_KEY, exit 1', async () => {
    const dir = tmpDir();
    const rec = (tool: string, decision: string) => `{"schema":"assay.enforcement_decision.v0","caller":{"id":"ci"},"tool":{"name":"${tool}","action_class":null},"action":{"verb":null,"resource_type":null,"target":null,"target_digest":null},${decision},"reason":"allow","fail_closed":false,"drift_state":"satisfied","credential_alias":null,"non_claims":["policy decision only"]}`;
    const dec = path.join(dir, 'dec.json');
    writeFileSync(dec, `[${rec('a.x', '"decision":"allow"')},\n${rec('b.y', '"decision":"deny","decision":"allow"')}]`);
    const call = (id: number, name: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":{}}}`;
    const caller = writeCapture(['{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}', call(1, 'a.x'), call(2, 'b.y')], 'caller.jsonl', dir);
    const up = writeCapture(['{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}', call(1, 'a.x'), call(2, 'b.y')], 'up.jsonl', dir);
    const r = await runCli(['analyze', '--profile', 'assay', dec, '--caller', caller, '--upstream', up, '-f', 'json']);
    expect(r.code).toBe(1);
    const dup = (JSON.parse(r.stdout) as { findings: Array<{ code: string; data: { key: string }; locations: Array<{ line: number }> }> }).findings.filter((f) => f.code === 'DUPLICATE_KEY');
    expect(dup.map((f) => [f.data.key, f.locations[0]!.line])).toEqual([['decision', 2]]);

    const upDoc = path.join(dir, 'up.json');
    writeFileSync(upDoc, `[{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}},\n${call(1, 'a.x')},\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a.x","name":"b.y","arguments":{}}}]`);
    const r2 = await runCli(['analyze', '--profile', 'assay', dec, '--caller', caller, '--upstream', upDoc, '-f', 'json']);
    expect(r2.code).toBe(1);
    const keys = (JSON.parse(r2.stdout) as { findings: Array<{ code: string; data: { key: string } }> }).findings.filter((f) => f.code === 'DUPLICATE_KEY').map((f) => f.data.key);
    expect(keys).toContain('params.name');
  });
});

describe('an escaped spelling is read past every scan budget', () => {
  it('--profile assay: an arrival spelled "tools\\/call" with more than 1 MiB before "method" is a tools/call arrival: DENIED_BUT_DELIVERED, exit 1', async () => {
    const arrival = `{"jsonrpc":"2.0","id":3,"pad":"${'x'.repeat(SCAN_BUDGET + 64)}","method":"tools\\/call","params":{"name":"t","arguments":{}}}`;
    for (const { code, r } of await auditBoth(arrival)) {
      expect(code).toBe(1);
      expect(r.findingCounts.DENIED_BUT_DELIVERED).toBe(1);
    }
  });

  it('--profile assay: an arrival spelled "t\\u006F\\u006fls\\u002fcall" past the budget is read too', async () => {
    for (const m of ['t\\u006F\\u006fls\\u002fcall']) {
      const arrival = `{"pad":"${'x'.repeat(SCAN_BUDGET + 64)}","jsonrpc":"2.0","id":3,"method":"${m}","params":{"name":"t","arguments":{}}}`;
      for (const { code, r } of await auditBoth(arrival)) {
        expect(code).toBe(1);
        expect(r.findingCounts.DENIED_BUT_DELIVERED).toBe(1);
      }
    }
  });
});

describe('a line without the kind keys is not scanned (auto mode), and still read as JSON.parse reads it', () => {
  it('an Amplifier pair whose "event" key is spelled "\\u0065vent", among JSON-RPC lines, pairs the same by default and with --validate-all; a cut JSON-RPC line is malformed in both', async () => {
    const file = writeCapture([
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}',
      '{"\\u0065vent":"llm:request","session_id":"s1","request_id":"r1","data":{"provider":"p","model":"m"}}',
      '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{}',
      '{"ev\\u0065nt":"llm:response","session_id":"s1","request_id":"r1","data":{"provider":"p","model":"m","status":"ok"}}',
    ]);
    const reports = [];
    for (const v of [[], ['--validate-all']]) {
      const res = await runCli(['analyze', '-f', 'json', '--max-findings', '1000', file, ...v]);
      const r = JSON.parse(res.stdout) as { run: Record<string, unknown>; totals: Record<string, number>; channels: Array<{ channel: string; pairs: { total: number } }> };
      expect(r.channels.find((c) => c.channel === 'llm')!.pairs.total).toBe(1);
      expect(r.totals.malformed).toBe(1);
      reports.push({ ...r, run: { ...r.run, validateAll: null } });
    }
    expect(reports[0]).toEqual(reports[1]);
  });
});

describe('an escaped role in a custom profile', () => {
  it('roles spelled "r\\u0065q" / "r\\u0065sp" pair the same by default and with --validate-all', async () => {
    const file = writeCapture([
      '{"kind":"r\\u0065q","conn":"c1","at":"2026-09-01T00:00:00.000Z","method":"GET","route":"/a","meta":{"rid":"r1"}}',
      '{"kind":"r\\u0065sp","conn":"c1","at":"2026-09-01T00:00:00.050Z","status":"200","method":"GET","route":"/a","meta":{"rid":"r1"}}',
    ]);
    const reports = [];
    for (const v of [[], ['--validate-all']]) {
      const res = await runCli(['analyze', '--profile', fixture('custom/http-profile.json'), '-f', 'json', file, ...v]);
      expect(res.code).toBe(0);
      const r = JSON.parse(res.stdout) as { run: Record<string, unknown>; channels: Array<{ pairs: { total: number; byMethod: Record<string, number> } }> };
      expect(r.channels[0]!.pairs.total).toBe(1);
      expect(r.channels[0]!.pairs.byMethod.id).toBe(1);
      reports.push({ ...r, run: { ...r.run, validateAll: null } });
    }
    expect(reports[0]).toEqual(reports[1]);
  });
});

describe('Markdown of every command breaks autolinks', () => {
  const LINK_SCOPE = 'https://evil.example/x @user www.evil.com';
  const lines = [
    { ts: '2026-09-03T10:00:01.000Z', event: 'llm:request', session_id: LINK_SCOPE, request_id: 'r1', data: { provider: 'p', model: 'm', caller: '@caller www.c.com http://c.example' } },
    { ts: '2026-09-03T10:00:02.000Z', event: 'llm:response', session_id: LINK_SCOPE, request_id: 'r1', data: { provider: 'p', model: 'm', status: 'ok' } },
    // Never answered: a finding in that scope, so analyze shows it too.
    { ts: '2026-09-03T10:00:03.000Z', event: 'llm:request', session_id: LINK_SCOPE, request_id: 'r2', data: { provider: 'p', model: 'm', caller: '@caller' } },
  ];
  const live = /(?<!\\)@[a-z]|https?:\/\/|www\.(?!\\)[a-z]/i;

  it('compare -f markdown and trace -f markdown leave no https://, www. or @user live, as analyze -f markdown', async () => {
    const file = writeCapture(lines);
    const runs = [
      ['analyze', '-f', 'markdown', file],
      ['compare', '-f', 'markdown', file],
      ['trace', 'r1', file, '-f', 'markdown'],
    ];
    const outs = await Promise.all(runs.map((a) => runCli(a)));
    for (const [i, args] of runs.entries()) {
      const res = outs[i]!;
      const text = res.stdout.split(path.dirname(file)).join('DIR');
      expect(text, args[0]).toMatch(/www/);
      expect(live.test(text.replace(/\\:/g, '')), `${args[0]}: ${text.match(live)?.[0]}`).toBe(false);
    }
  });
});

describe('a document read element by element repeats a key of its split path', () => {
  it('a HAR over --max-line-bytes with "entries" twice in log: DUPLICATE_KEY (error, document split) at the second key, exit 1; once: read, exit 0', async () => {
    const dir = tmpDir();
    const entry = (url: string) => ({ startedDateTime: '2024-01-01T00:00:00.000Z', time: 5, request: { method: 'GET', url }, response: { status: 200 } });
    const pad = JSON.stringify('p'.repeat(4096));
    const twice = path.join(dir, 'twice.har');
    writeFileSync(twice, `{"log": {"version": "1.2",\n"entries": ${JSON.stringify([entry('https://a.test/1')])},\n"entries": ${JSON.stringify([entry('https://a.test/2')])},\n"pad": ${pad}}}\n`);
    const r = await runCli(['analyze', '--profile', 'har', '--max-line-bytes', '2048', '-f', 'json', twice]);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout) as { findings: Array<{ code: string; severity: string; data: Record<string, unknown>; message: string; locations: Array<{ line: number }> }> };
    const dup = rep.findings.filter((f) => f.code === 'DUPLICATE_KEY');
    expect(dup.map((f) => [f.severity, f.data, f.locations[0]!.line])).toEqual([['error', { key: 'log.entries', document: 'split' }, 3]]);
    expect(dup[0]!.message).toContain('could not be read exactly');
    const once = path.join(dir, 'once.har');
    writeFileSync(once, `{"log": {"version": "1.2",\n"entries": ${JSON.stringify([entry('https://a.test/1'), entry('https://a.test/2')])},\n"pad": ${pad}}}\n`);
    const ok = await runCli(['analyze', '--profile', 'har', '--max-line-bytes', '2048', '-f', 'json', once]);
    expect(ok.code).toBe(0);
    expect((JSON.parse(ok.stdout) as { records: { har: { entries: number } } }).records.har.entries).toBe(2);
  });
});
