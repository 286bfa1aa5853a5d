import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import type { PairRecord } from '../model.js';
import { ledgerViolations } from '../report/report.js';
import { sniff } from '../input/sniff.js';
import { fixture, tmpDir } from '../../test/helpers.js';
import { HAR_CHANNEL } from './har.js';

const entry = (started: string, time: number, status: number, url = 'https://example.com/a', extra: object = {}) => ({
  startedDateTime: started,
  time,
  request: { method: 'GET', url, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
  response: { status, statusText: '', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: 0, mimeType: 'x-unknown' }, redirectURL: '', headersSize: -1, bodySize: -1, ...extra },
  cache: {},
  timings: { send: 0, wait: time, receive: 0 },
  pageref: 'page_1',
});

function writeHar(entries: object[], name: string, bom = false): string {
  const file = path.join(tmpDir(), name);
  const text = JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages: [], entries } }, null, 2);
  writeFileSync(file, (bom ? '\ufeff' : '') + text);
  return file;
}

function channel(r: Awaited<ReturnType<typeof analyze>>) {
  const ch = r.channels.find((c) => c.channel === HAR_CHANNEL.name);
  expect(ch).toBeDefined();
  return ch!;
}

describe('har profile', () => {
  it('each log.entries element is a whole call: method record, latency = time, status ≥ 400 and status 0 failed', async () => {
    const pairs: PairRecord[] = [];
    const file = writeHar(
      [
        entry('2026-07-30T10:49:13.743-07:00', 120.5, 200),
        entry('2026-07-30T10:49:14.000-07:00', 30, 404, 'https://example.com/missing'),
        entry('2026-07-30T17:49:15.000Z', 1149, 0, 'https://ads.example.net/x', { _error: 'net::ERR_ABORTED' }),
      ],
      'export.har',
      true,
    );
    const r = await analyze({ inputs: [file], onPair: (p) => pairs.push(p) });
    expect(r.inputs[0]).toMatchObject({ format: 'json', profile: 'har' });
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 3, terminals: 3, orphanRequests: 0, orphanResponses: 0, failed: 2 });
    expect(ch.pairs.byMethod).toMatchObject({ record: 3, id: 0, fifo: 0 });
    expect(ch.pairs.byConfidence.exact).toBe(3);
    expect(pairs.map((p) => [p.latencyMs, p.terminal.attrs.status, p.terminal.attrs.error])).toEqual([
      [120.5, '200', null],
      [30, '404', null],
      [1149, '0', 'net::ERR_ABORTED'],
    ]);
    // -07:00 is read as an offset: 10:49:13.743-07:00 is 17:49:13.743Z.
    expect(pairs[0]!.request.time).toBe(Date.UTC(2026, 6, 30, 17, 49, 13, 743));
    expect(pairs.map((p) => p.request.attrs.model)).toEqual(['example.com', 'example.com', 'ads.example.net']);
    expect(r.records.har).toEqual({ entries: 3, noResponse: 1, httpErrors: 1, unreadableTimes: 0 });
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('a status 0 entry without _error still states why it failed', async () => {
    const pairs: PairRecord[] = [];
    await analyze({ inputs: [writeHar([entry('2026-07-30T10:49:13Z', 0, 0)], 'a.har')], onPair: (p) => pairs.push(p) });
    expect(pairs[0]!.terminal.attrs.error).toBe('no response (status 0)');
  });

  it('a pretty-printed HAR is a JSON document whatever its name; a { line with more on it stays JSONL', () => {
    const har = Buffer.from('{\n  "log": {\n    "version": "1.2",\n    "creator": {"name": "Firefox", "version": "128.0"},\n    "entries": []\n  }\n}\n');
    expect(sniff(har, 'capture.log', true)).toEqual({ kind: 'json' });
    expect(sniff(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), har]), 'capture.txt', true)).toEqual({ kind: 'json' });
    // A line holding only `{` opens a pretty-printed document whatever key follows (docs/inputs.md).
    expect(sniff(Buffer.from('{\n  "logs": 1\n}\n'), 'capture.log', true)).toEqual({ kind: 'json' });
    expect(sniff(Buffer.from('{"log": {"entries": []}}\n{"a": 1}\n'), 'capture.log', true)).toEqual({ kind: 'jsonl' });
    expect(sniff(Buffer.from('{\n  "log": {}\n}\n'), 'x.har', true)).toEqual({ kind: 'json' });
    // Not enough bytes yet to tell whether the `{` stands alone on its line: wait.
    expect(sniff(Buffer.from('{  '), 'capture.log', false)).toBeNull();
  });

  it('a directory walk reads *.har files', async () => {
    const file = writeHar([entry('2026-07-30T10:49:13Z', 5, 200)], 'session.har');
    const r = await analyze({ inputs: [path.dirname(file)] });
    expect(r.inputs.map((i) => [path.basename(i.path), i.profile])).toEqual([['session.har', 'har']]);
  });

  it('each entry of a HAR document is located at the line where it starts, with its JSON pointer', async () => {
    // By hand: the three entries' opening braces in har-fulfill.har.json are on lines 24, 101, 165.
    const got: PairRecord[] = [];
    await analyze({ inputs: [fixture('real/har/har-fulfill.har.json')], onPair: (p) => got.push(p) });
    expect(got.map((p) => [p.request.loc.line, p.request.loc.pointer])).toEqual([
      [24, '/log/entries/0'],
      [101, '/log/entries/1'],
      [165, '/log/entries/2'],
    ]);
  });

  it('auto reads the Playwright HAR with the built-in har profile', async () => {
    const r = await analyze({ inputs: [fixture('real/har/har-fulfill.har.json')] });
    expect(r.inputs[0]!.profile).toBe('har');
    expect(channel(r)).toMatchObject({ requests: 3, terminals: 3, failed: 0 });
  });

  it('a HAR over --max-line-bytes is read entry by entry: every entry a call, at its line, as under the bound', async () => {
    const big = (k: number) => entry(`2026-03-04T05:06:0${k}.000Z`, 10 + k, 200, `https://example.com/${k}`, { content: { size: 600, mimeType: 'text/plain', text: 'z'.repeat(600) } });
    const file = writeHar([0, 1, 2, 3, 4, 5].map(big), 'big.har');
    const whole: PairRecord[] = [];
    const split: PairRecord[] = [];
    const a = await analyze({ inputs: [file], onPair: (p) => whole.push(p) });
    const b = await analyze({ inputs: [file], maxLineBytes: 4000, onPair: (p) => split.push(p) });
    expect(a.totals).toMatchObject({ records: 1, oversized: 0 });
    expect(b.totals).toMatchObject({ records: 6, oversized: 0 });
    expect(channel(b)).toMatchObject({ requests: 6, terminals: 6, orphanRequests: 0 });
    const at = (ps: PairRecord[]) => ps.map((p) => [p.request.loc.line, p.request.loc.pointer, p.latencyMs]);
    expect(at(split)).toEqual(at(whole));
    expect(at(split).map((x) => x[1])).toEqual([0, 1, 2, 3, 4, 5].map((k) => `/log/entries/${k}`));
    expect(ledgerViolations(b)).toEqual([]);
  });
});
