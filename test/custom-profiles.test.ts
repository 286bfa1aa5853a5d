/**
 * The custom profile language on fixtures built from real public files (fixtures/real/, each with
 * its source and licence): docs/profiles.md shows each of these profiles with its input and output.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import type { PairRecord } from '../src/model.js';
import { ledgerViolations } from '../src/report/report.js';
import { fixture, runCli, tmpDir, writeCapture } from './helpers.js';

const profile = (name: string) => fixture(`real/profiles/${name}.json`);

describe('custom profiles on real logs', () => {
  it('acceptance: the MCP interceptor log pairs every call by its integer id, latencies in ms', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyze({ inputs: [fixture('real/mcp-interceptor/intercepted_logs.jsonl')], profile: profile('mcp-interceptor'), onPair: (p) => pairs.push(p) });
    const ch = r.channels[0]!;
    expect(ch).toMatchObject({ channel: 'mcp', requests: 4, terminals: 4, orphanRequests: 0, orphanResponses: 0, failed: 1 });
    expect(ch.pairs.byMethod).toEqual({ id: 4, signature: 0, fifo: 0 });
    expect(pairs.map((p) => [p.request.attrs.provider, p.request.id, Math.round(p.latencyMs! * 1000) / 1000])).toEqual([
      ['initialize', 'n:1', 145.217],
      ['list_tools', 'n:2', 5.67],
      ['list_resources', 'n:3', 0.872],
      ['call_tool', 'n:4', 2.331],
    ]);
    expect(r.notes).toContain('custom: times without a zone (naive ISO 8601) were read as UTC');
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('acceptance: epoch seconds, milliseconds, nanosecond strings and naive ISO times give the same latency', async () => {
    const lines = readFileSync(fixture('real/mcp-interceptor/intercepted_logs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const naiveMs = (s: string) => Date.parse(`${s}Z`) + Number(`0.${s.split('.')[1]!.slice(3)}`);
    const encodings: Array<[string, (s: string) => unknown, unknown]> = [
      ['naive ISO', (s) => s, 'timestamp'],
      ['epoch s', (s) => naiveMs(s) / 1000, { path: 'timestamp', unit: 's' }],
      ['epoch ms', (s) => naiveMs(s), { path: 'timestamp', unit: 'ms' }],
      ['ns string', (s) => `${Date.parse(`${s}Z`)}${s.split('.')[1]!.slice(3)}000`, { path: 'timestamp', unit: 'ns' }],
    ];
    const dir = tmpDir();
    const spec = JSON.parse(readFileSync(profile('mcp-interceptor'), 'utf8'));
    const results: number[][] = [];
    for (const [name, enc, time] of encodings) {
      const file = writeCapture(lines.map((l) => ({ ...l, timestamp: enc(l.timestamp) })), `${name.replace(' ', '-')}.jsonl`, dir);
      const pf = path.join(dir, `${name.replace(' ', '-')}.profile.json`);
      writeFileSync(pf, JSON.stringify({ ...spec, time }));
      const pairs: PairRecord[] = [];
      await analyze({ inputs: [file], profile: pf, onPair: (p) => pairs.push(p) });
      results.push(pairs.map((p) => Math.round(p.latencyMs! * 1000) / 1000));
    }
    expect(results[0]).toEqual([145.217, 5.67, 0.872, 2.331]);
    for (const r of results) expect(r).toEqual(results[0]);
  });

  it('a direction field: a server→client request with the same id never takes the client\'s call', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyze({ inputs: [fixture('real/jsonrpc-directions/transcript.jsonl')], profile: profile('jsonrpc-directions'), onPair: (p) => pairs.push(p) });
    expect(pairs.map((p) => [p.request.loc.line, p.terminal.loc.line, p.latencyMs])).toEqual([
      [2, 3, 50],
      [1, 5, 1840],
    ]);
    expect(r.channels[0]).toMatchObject({ orphanRequests: 0, orphanResponses: 0, failed: 1 });
  });

  it('a record path into a JSON document and whole-call records: OTLP spans', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyze({ inputs: [fixture('real/otlp-trace/trace.json')], profile: profile('otlp-spans'), onPair: (p) => pairs.push(p) });
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ scope: '5B8EFFF798038103D269B633813FC60C', latencyMs: 1000 });
    expect(pairs[0]!.request.attrs).toMatchObject({ kind: 'record', provider: "I'm a server span" });
    expect(pairs[0]!.method).toBe('record');
    expect(r.channels[0]!.pairs.byMethod).toEqual({ id: 0, signature: 0, fifo: 0, record: 1 });
    expect(r.channels[0]!.crossed.comparable).toBe(0);
    expect(ledgerViolations(r)).toEqual([]);
    expect(r.records['otlp-spans']).toMatchObject({ calls: 1 });
  });

  it('whole-call records with a start and a duration: HAR entries', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyze({ inputs: [fixture('real/har/har-fulfill.har.json')], profile: profile('har-entries'), onPair: (p) => pairs.push(p) });
    expect(pairs.map((p) => [p.method, p.request.attrs.provider, p.request.attrs.model, Math.round(p.latencyMs! * 1000) / 1000])).toEqual([
      ['record', 'GET', '200', 8.286],
      ['record', 'GET', '301', 15.997],
      ['record', 'GET', '200', 6.735],
    ]);
    expect(r.channels[0]!.pairs.byMethod).toEqual({ id: 0, signature: 0, fifo: 0, record: 3 });
  });

  it('roles by input file name: the OpenAI Batch files', async () => {
    const r = await analyze({ inputs: [fixture('real/openai-batch/batchinput.jsonl'), fixture('real/openai-batch/batch_output.jsonl')], profile: profile('openai-batch-by-file') });
    expect(r.channels[0]).toMatchObject({ channel: 'batch', requests: 2, terminals: 2, failed: 0 });
    expect(r.channels[0]!.pairs.byMethod.id).toBe(2);
  });

  it('beside the built-ins, a custom profile leaves the records no rule takes to the others', async () => {
    const r = await analyze({ inputs: [fixture('real/mcp-interceptor/intercepted_logs.jsonl'), fixture('seed-trace.jsonl')], profile: `${profile('mcp-interceptor')},auto` });
    expect(r.channels.map((c) => [c.channel, c.pairs.total])).toEqual([
      ['mcp', 4],
      ['llm', 3],
    ]);
  });

  it('an invalid profile: one line naming the field and what was expected, exit 2', async () => {
    const dir = tmpDir();
    const pf = path.join(dir, 'bad.json');
    writeFileSync(pf, JSON.stringify({ roles: [{ role: 'request', when: { has: 'method' } }, { role: 'terminal', when: { has: 'result' } }], time: { path: 'ts', unit: 'seconds' } }));
    const r = await runCli(['analyze', '--profile', pf, fixture('real/jsonrpc-spec/examples.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('profile: time.unit: expected the epoch unit: one of "s", "ms", "us", "ns", got "seconds"');
  });
});
