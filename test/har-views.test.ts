/**
 * What the terminal views say of an HTTP (HAR) channel: the failure rule as the code applies it
 * (status ≥ 400 or status 0), named columns in the finding lists, and no token columns in
 * `compare` when no call states a token count.
 */
import { describe, expect, it } from 'vitest';
import { runCli, writeCapture } from './helpers.js';

const entry = (status: number, host = 'example.com') => ({
  startedDateTime: '2024-01-01T00:00:00.000Z',
  time: 170,
  request: { method: 'POST', url: `https://${host}/x`, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
  response: { status, statusText: '', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: 0, mimeType: 'text/plain' }, redirectURL: '', headersSize: -1, bodySize: 0 },
  cache: {},
  timings: { send: 0, wait: 170, receive: 0 },
});
const har = (entries: object[]) => writeCapture([JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries } })], 'capture.har');
const cells = (line: string) => line.split('│').slice(1, -1).map((c) => c.trim());

describe('HAR channel views', () => {
  it('the failed row states the rule the code applies: status ≥ 400 or status 0', async () => {
    const r = await runCli(['analyze', har([entry(200), entry(404), entry(0)]), '--wide']);
    const failed = r.stdout.split('\n').find((l) => l.startsWith('│ failed'))!;
    expect(cells(failed)).toEqual(['failed', '2', 'when status ≥ 400 or status 0']);
  });

  it('compare shows no token columns on a channel whose calls state no token count, and says so', async () => {
    const r = await runCli(['compare', har([entry(200), entry(500)]), '--wide']);
    expect(r.stdout).not.toContain('input tokens');
    expect(r.stdout).not.toContain('output tokens');
    const lines = r.stdout.split('\n');
    const head = lines.find((l) => l.startsWith('│ method'))!;
    expect(cells(head)).toEqual(['method', 'strategy', 'calls', 'errors', 'latency mean', 'p50', 'p90']);
    expect(r.stdout).toContain('No call of this channel states a token count: no token columns.');
  });

  it('compare keeps the token columns where calls state token counts', async () => {
    const r = await runCli(['compare', 'fixtures/orphan-crossed.jsonl', '--wide']);
    expect(r.stdout).toContain('input tokens');
  });
});

describe('finding lists name every column', () => {
  it('Findings and Orphan requests have no empty header', async () => {
    const r = await runCli(['analyze', 'fixtures/orphan-crossed.jsonl', '--wide']);
    const lines = r.stdout.split('\n');
    const headAfter = (title: string) => cells(lines[lines.findIndex((l) => l.startsWith(title)) + 2]!);
    expect(headAfter('Findings')).toEqual(['finding', 'severity', 'count', 'first at', 'message']);
    expect(headAfter('Orphan requests')).toEqual(['request', 'channel', 'caller', 'left open']);
  });
});
