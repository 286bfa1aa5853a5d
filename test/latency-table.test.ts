/**
 * The terminal latency table has one column per group label the profile names: no empty, unnamed
 * column; its labels are cut only to fit a terminal width (docs/report.md, terminal width).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { safeText } from '../src/formatters/safe.js';
import { runCli, tmpDir, writeCapture } from './helpers.js';

const headOf = (out: string) => {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Latency'));
  return lines[at + 2]!.split('│').slice(1, -1).map((c) => c.trim());
};

describe('latency table columns', () => {
  it('a profile with one group path (route): route, n, min … max at, and no empty column', async () => {
    const r = await runCli(['analyze', 'fixtures/custom/http-log.jsonl', '--profile', 'fixtures/custom/http-profile.json']);
    expect(headOf(r.stdout)).toEqual(['route', 'n', 'min', 'p50', 'p90', 'p99', 'max', 'max at']);
  });

  it('provider and model keep both columns', async () => {
    const r = await runCli(['analyze', 'fixtures/orphan-crossed.jsonl', '--wide']);
    expect(headOf(r.stdout).slice(0, 3)).toEqual(['provider', 'model', 'n']);
  });
});

describe('latency labels are whole unless a terminal width needs the room', () => {
  const HOST = 'signal-metrics-collector-beta.s-onetag.com'; // 42 characters
  const har = () =>
    writeCapture(
      [
        JSON.stringify({
          log: {
            version: '1.2',
            creator: { name: 't', version: '1' },
            entries: [
              {
                startedDateTime: '2024-01-01T00:00:00.000Z',
                time: 170,
                request: { method: 'POST', url: `https://${HOST}/x`, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
                response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: 0, mimeType: 'text/plain' }, redirectURL: '', headersSize: -1, bodySize: 0 },
                cache: {},
                timings: { send: 0, wait: 170, receive: 0 },
              },
            ],
          },
        }),
      ],
      'capture.har',
    );
  const rowOf = (out: string) => {
    const lines = out.split('\n');
    const at = lines.findIndex((l) => l.startsWith('Latency'));
    return lines[at + 3]!.split('│').slice(1, -1).map((c) => c.trim());
  };

  it('--wide, a file and a pipe show a 42-character host whole', async () => {
    const file = har();
    const out = path.join(tmpDir(), 'report.txt');
    const runs = [await runCli(['analyze', file, '--wide'], { env: { COLUMNS: '80' } }), await runCli(['analyze', file])];
    await runCli(['analyze', file, '-o', out]);
    for (const text of [...runs.map((r) => r.stdout), readFileSync(out, 'utf8')]) {
      expect(rowOf(text)[1]).toBe(HOST);
      expect(text).not.toContain('chars]');
    }
  });

  it('at COLUMNS=100 the host is cut in the middle and min and p90 stay', async () => {
    const r = await runCli(['analyze', har()], { env: { COLUMNS: '100' } });
    expect(headOf(r.stdout).slice(0, 8)).toEqual(['method', 'host', 'n', 'min', 'p50', 'p90', 'p99', 'max']);
    const host = rowOf(r.stdout)[1]!;
    expect(host.length).toBeLessThan(HOST.length);
    expect(host).toMatch(/^signa.*….*\.com$/);
  });
});

describe('safeText never makes a cut string longer than the original', () => {
  it('a value just over the limit is whole; a long one is cut, marker included, below its length', () => {
    expect(safeText('a'.repeat(42), 40)).toBe('a'.repeat(42));
    const long = safeText('b'.repeat(200), 40);
    expect(long).toBe(`${'b'.repeat(39)}…[+161 chars]`);
    expect(long.length).toBeLessThan(200);
    for (let n = 1; n < 80; n++) expect(safeText('c'.repeat(n), 20).length).toBeLessThanOrEqual(n);
  });
});
