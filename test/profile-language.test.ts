/**
 * What the custom profile language can say about real logs' shapes (docs/profiles.md): paths per
 * role, records located inside documents, scope from beside the records or from the file, roles
 * that expect no outcome, halves in either order, key spaces, composite and alternative times,
 * text durations, failed statuses as numbers and booleans.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import type { PairRecord } from '../src/model.js';
import { ledgerViolations } from '../src/report/report.js';
import { fixture, runCli, tmpDir } from './helpers.js';
import { sarifValidator } from './sarif-validator.js';

const lang = (name: string) => fixture(`custom/lang/${name}`);

describe('paths per role', () => {
  it('a Claude Code session with parallel tool calls pairs every tool_result by its tool_use_id, and lists the FIFO mis-pairs as crossed', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyze({ inputs: [lang('claude-code-parallel.jsonl')], profile: lang('claude-code.json'), onPair: (p) => pairs.push(p) });
    const ch = r.channels[0]!;
    expect(ch).toMatchObject({ channel: 'tools', requests: 4, terminals: 3, orphanRequests: 1, orphanResponses: 0, failed: 1 });
    expect(ch.pairs.byMethod).toEqual({ id: 3, signature: 0, fifo: 0 });
    expect(ch.pairs.byConfidence).toEqual({ exact: 3, unambiguous: 0, ambiguous: 0 });
    // Results come back B, C, A: FIFO would give each to the call before it.
    expect(ch.crossed.fifo).toBe(3);
    expect(pairs.map((p) => [p.request.loc.line, p.terminal.loc.line, p.request.attrs.provider, p.latencyMs])).toEqual([
      [3, 5, 'Read', 300],
      [4, 6, 'Bash', 700],
      [2, 7, 'Read', 1500],
    ]);
    // The scope and time come from the line around the content block (`$.sessionId`, `$.timestamp`).
    expect(pairs[0]!.scope).toBe('5a1d6c1e-0001');
    expect(pairs[0]!.request.loc).toMatchObject({ pointer: '/message/content/0' });
    expect(pairs[2]!.request.loc).toMatchObject({ pointer: '/message/content/1' });
    const crossed = r.findings.filter((f) => f.code === 'CROSSED_PAIR' && f.data.shadow === 'fifo');
    expect(crossed.map((f) => f.locations.map((l) => l.line))).toEqual([
      [5, 3, 2],
      [6, 4, 3],
      [7, 2, 4],
    ]);
    expect(ledgerViolations(r)).toEqual([]);
  });
});

describe('records inside a JSON document', () => {
  it('each HAR entry is at the line where it starts, with its JSON pointer', async () => {
    const pairs: PairRecord[] = [];
    await analyze({ inputs: [fixture('real/har/har-fulfill.har.json')], profile: fixture('real/profiles/har-entries.json'), onPair: (p) => pairs.push(p) });
    expect(pairs.map((p) => [p.request.loc.line, p.request.loc.pointer])).toEqual([
      [24, '/log/entries/0'],
      [101, '/log/entries/1'],
      [165, '/log/entries/2'],
    ]);
  });

  it('trace FILE:LINE at an entry finds it and explains a one-record call as such', async () => {
    const r = await runCli(['trace', '--profile', fixture('real/profiles/har-entries.json'), `${fixture('real/har/har-fulfill.har.json')}:101`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Paired by record, confidence exact, latency 16 ms.');
    expect(r.stdout).toContain('Why: record: one record holds both sides');
    expect(r.stdout).not.toContain('Why: fifo');
  });
});

describe('scope from outside the records', () => {
  it('a scope from the input file keeps two files that reuse small ids apart', async () => {
    const r = await analyze({ inputs: [lang('session-a.json'), lang('session-b.json')], profile: lang('scope-from-file.json') });
    const ch = r.channels[0]!;
    expect(ch.pairs.byMethod.id).toBe(2);
    expect(r.findings.filter((f) => f.code === 'DUPLICATE_ID')).toEqual([]);
    expect(ch.scopes.map((s) => s.scope).sort()).toEqual([lang('session-a.json'), lang('session-b.json')].sort());
  });

  it('a scope from a parent of the records array ($.session)', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyze({ inputs: [lang('session-a.json'), lang('session-b.json')], profile: lang('scope-from-parent.json'), onPair: (p) => pairs.push(p) });
    expect(r.findings.filter((f) => f.code === 'DUPLICATE_ID')).toEqual([]);
    expect(pairs.map((p) => [p.scope, p.latencyMs])).toEqual([
      ['alpha', 1000],
      ['beta', 1500],
    ]);
    // Each record of `calls[]` is at its own line, with its pointer.
    expect(pairs.map((p) => [p.request.loc.line, p.request.loc.pointer, p.terminal.loc.line, p.terminal.loc.pointer])).toEqual([
      [4, '/calls/0', 5, '/calls/1'],
      [4, '/calls/0', 5, '/calls/1'],
    ]);
  });
});

describe('roles that expect no outcome', () => {
  it('notifications are counted as events, never requests or orphans', async () => {
    const r = await analyze({ inputs: [lang('notifications.jsonl')], profile: lang('notifications.json') });
    const ch = r.channels[0]!;
    expect(ch).toMatchObject({ requests: 2, terminals: 2, orphanRequests: 0, orphanResponses: 0 });
    expect(r.records['rpc-events']).toMatchObject({ records: 6, events: 2 });
  });
});

describe('halves in either order', () => {
  it('a SERVER half before its CLIENT half pairs by id; a client-only span is a one-sided call, not an orphan', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyze({ inputs: [lang('span-halves.jsonl')], profile: lang('span-halves.json'), onPair: (p) => pairs.push(p) });
    const ch = r.channels[0]!;
    expect(ch).toMatchObject({ requests: 3, terminals: 3, orphanRequests: 0, orphanResponses: 0 });
    expect(ch.pairs.byMethod).toEqual({ id: 2, signature: 0, fifo: 0, record: 1 });
    expect(r.records['span-halves']).toMatchObject({ halves: 2, oneSided: 1 });
    expect(pairs.map((p) => [p.request.loc.line, p.terminal.loc.line, p.method])).toEqual([
      [1, 2, 'id'],
      [3, 4, 'id'],
      [5, 5, 'record'],
    ]);
    expect(pairs[2]!.latencyMs).toBe(40);
    // The SERVER half is stamped 20 ms after its CLIENT half was: clock skew, reported with both
    // times, never corrected; that latency is counted apart, not in the percentiles.
    const skew = r.findings.filter((f) => f.code === 'CLOCK_SKEW');
    expect(skew.map((f) => [f.data, f.locations.map((l) => l.line)])).toEqual([
      [{ requestTime: Date.parse('2026-09-02T10:00:00.120Z'), terminalTime: Date.parse('2026-09-02T10:00:00.100Z'), skewMs: 20, id: 's1' }, [2, 1]],
    ]);
    expect(ch.negativeLatencies).toBe(1);
    expect(ch.latencyMs).toMatchObject({ count: 2, min: 30, max: 40 });
  });

  it('a channel keyed by direction runs its FIFO shadow per direction, not over both', async () => {
    const r = await analyze({ inputs: [fixture('real/jsonrpc-directions/transcript.jsonl')], profile: fixture('real/profiles/jsonrpc-directions.json') });
    const ch = r.channels[0]!;
    expect(ch.pairs.byMethod.id).toBe(2);
    expect(ch.crossed.fifo).toBe(0);
    expect(ch.scopes.map((s) => s.scope).sort()).toEqual(['in', 'out']);
  });
});

describe('times', () => {
  it('a time summed from seconds and milliseconds, a text duration, a duration without a start, an unreadable time named by its profile field', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyze({ inputs: [lang('helicone-times.jsonl')], profile: lang('helicone-times.json'), onPair: (p) => pairs.push(p) });
    expect(pairs.map((p) => p.latencyMs)).toEqual([1250, 208, null, 208]);
    const unreadable = r.findings.filter((f) => f.code === 'UNREADABLE_TIME');
    expect(unreadable.map((f) => [f.data, f.locations[0]!.line])).toEqual([[{ field: 'start' }, 3]]);
    // `failed.status` takes numbers: status 0 is the failed call.
    expect(r.channels[0]!.failed).toBe(1);
  });

  it('one field holding epoch seconds on some lines and ISO strings on others', async () => {
    const pairs: PairRecord[] = [];
    await analyze({ inputs: [lang('notifications.jsonl')], profile: lang('notifications.json'), onPair: (p) => pairs.push(p) });
    expect(pairs.map((p) => Math.round(p.latencyMs!))).toEqual([100, 50]);
  });
});

describe('inputs recognised by content', () => {
  it('a .har file is read as the JSON document it is, not as JSONL', async () => {
    const dir = tmpDir();
    const har = path.join(dir, 'export.har');
    copyFileSync(fixture('real/har/har-fulfill.har.json'), har);
    const r = await analyze({ inputs: [har], profile: fixture('real/profiles/har-entries.json') });
    expect(r.inputs[0]).toMatchObject({ format: 'json', malformed: 0 });
    expect(r.channels[0]!.pairs.byMethod.record).toBe(3);
    expect(r.findings.filter((f) => f.code === 'NO_CALL_EVENTS' || f.code === 'MALFORMED_LINE')).toEqual([]);
  });
});

describe('what the table says about order', () => {
  it('"ordered: sides read file after file" is not said of an ordered channel read from one file', async () => {
    const r = await runCli(['analyze', '--profile', lang('ordered.json'), lang('ordered.jsonl')]);
    expect(r.stdout).not.toContain('file after file');
    expect(r.stdout).toContain('FIFO is unsafe here');
  });
});

describe('attempts and calls', () => {
  it('a profile that declares retries as interims counts logical calls and attempts apart', async () => {
    const r = await analyze({ inputs: [lang('retries.jsonl')], profile: lang('retries.json') });
    expect(r.records.retries).toMatchObject({ logicalCalls: 2, attempts: 4 });
    expect(r.channels[0]).toMatchObject({ requests: 2, interims: 2 });
  });
});

describe('hops, reused ids and late terminals', () => {
  it('a redirect closes one hop and opens the next; a late duplicate terminal is counted, and the id is reused once its call closed', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyze({ inputs: [lang('devtools-network.jsonl')], profile: lang('devtools-network.json'), onPair: (p) => pairs.push(p) });
    const ch = r.channels[0]!;
    expect(ch).toMatchObject({ requests: 3, terminals: 4, orphanRequests: 0, orphanResponses: 0, duplicateTerminals: 1, duplicateIds: 0 });
    expect(ch.pairs.byMethod).toEqual({ id: 3, signature: 0, fifo: 0 });
    expect(r.records['devtools-network']).toMatchObject({ relays: 1 });
    expect(pairs.map((p) => [p.request.loc.line, p.terminal.loc.line, Math.round(p.latencyMs!)])).toEqual([
      [1, 2, 40],
      [2, 4, 60],
      [6, 7, 50],
    ]);
    expect(r.findings.map((f) => [f.code, f.locations[0]!.line])).toEqual([['DUPLICATE_TERMINAL', 5]]);
  });
});

describe('the new findings in SARIF', () => {
  it('CLOCK_SKEW and UNREADABLE_TIME results validate against the SARIF 2.1.0 schema', async () => {
    const validate = sarifValidator();
    for (const [p, input, rule] of [
      ['span-halves.json', 'span-halves.jsonl', 'CLOCK_SKEW'],
      ['helicone-times.json', 'helicone-times.jsonl', 'UNREADABLE_TIME'],
    ] as const) {
      const r = await runCli(['analyze', '--format', 'sarif', '--profile', lang(p), lang(input)]);
      const sarif = JSON.parse(r.stdout);
      expect(validate(sarif), JSON.stringify(validate.errors)).toBe(true);
      expect(sarif.runs[0].results.map((x: { ruleId: string }) => x.ruleId)).toContain(`callpair/${rule}`);
    }
  });
});
