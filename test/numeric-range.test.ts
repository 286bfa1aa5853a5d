/**
 * Out-of-range capture numbers (a `ts` jumping from 0 to 1e306, `input_tokens:
 * 1e308`, a literal 1e999) are OUT_OF_RANGE findings and never reach arithmetic: no "Infinity",
 * no "NaN", no `latencyMs.max: null` beside a non-zero count, in any format of any command
 * (FORMATTERS and COMPARE_FORMATTERS are iterated). Ranges: docs/design.md §2.
 */
import { describe, expect, it } from 'vitest';
import { COMPARE_FORMAT_NAMES, FORMAT_NAMES } from '../src/formatters/index.js';
import { runCli, withoutGateLine, writeCapture } from './helpers.js';

const req = (id: string, ts: unknown) => `{"ts":${String(ts)},"event":"llm:request","session_id":"s","request_id":"${id}","data":{"provider":"p","model":"m"}}`;
const res = (id: string, ts: unknown, usage: string) =>
  `{"ts":${String(ts)},"event":"llm:response","session_id":"s","request_id":"${id}","data":{"provider":"p","model":"m","duration_ms":1e308,"usage":{${usage}}}}`;
const CAPTURE = [
  req('r1', 0),
  res('r1', '1e306', '"input_tokens":1e308,"output_tokens":5'),
  req('r2', 0),
  res('r2', '-1e306', '"input_tokens":1e308,"output_tokens":1e999'),
  req('r3', 0),
  res('r3', 10, '"input_tokens":-3,"output_tokens":7'),
  req('r4', '1e999'),
  res('r4', 20, '"input_tokens":4,"output_tokens":7'),
];
const BAD = /Infinity|NaN/;

describe('numbers out of range', () => {
  const file = writeCapture(CAPTURE, 'overflow.jsonl');

  it('are OUT_OF_RANGE findings with the number as text, and the report keeps only in-range numbers', async () => {
    const r = await runCli(['analyze', '-f', 'json', file]);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout);
    const f = rep.findings.filter((x: { code: string }) => x.code === 'OUT_OF_RANGE');
    expect(rep.findingCounts.OUT_OF_RANGE).toBe(11);
    expect(f.map((x: { data: { field: string; value: string | null }; locations: Array<{ line: number }> }) => `${x.locations[0]!.line} ${x.data.field}=${x.data.value}`)).toEqual([
      // In location order, then by content (the report's finding order, docs/scale-out.md).
      '2 durationMs=1e+308',
      '2 time=1e+306',
      '2 usage.inputTokens=1e+308',
      '4 durationMs=1e+308',
      '4 time=-1e+306',
      '4 usage.inputTokens=1e+308',
      '4 usage.outputTokens=null',
      '6 durationMs=1e+308',
      '6 usage.inputTokens=-3',
      '7 time=null',
      '8 durationMs=1e+308',
    ]);
    expect(f[0].severity).toBe('warning');
    const lat = rep.channels[0].latencyMs;
    // r1 and r2 have an unknown terminal time, r4 an unknown request time: only r3 has a latency.
    expect(lat.count).toBe(1);
    expect(lat.max).toBe(10);
  });

  for (const format of FORMAT_NAMES) {
    it(`analyze -f ${format} prints no Infinity or NaN`, async () => {
      const r = await runCli(['analyze', '-f', format, file]);
      expect(withoutGateLine(r.stderr)).toBe('');
      expect(r.stdout).not.toMatch(BAD);
    });
  }
  for (const format of COMPARE_FORMAT_NAMES) {
    it(`compare -f ${format} prints no Infinity or NaN`, async () => {
      const r = await runCli(['compare', '-f', format, file]);
      expect(r.stderr).toBe('');
      expect(r.stdout).not.toMatch(BAD);
    });
  }
  it('pairs prints no Infinity or NaN', async () => {
    const r = await runCli(['pairs', file]);
    expect(r.stdout).not.toMatch(BAD);
    expect(r.stdout.trim().split('\n')).toHaveLength(4);
  });
});

describe('RFC 3339 times: years 0000–9999 as themselves, calendar-invalid times unreadable (docs/design.md §2)', () => {
  const q = (s: string) => JSON.stringify(s);
  it('a year-0099 request and a year-0100 response are 1 s apart; month 13, Feb 30, 24:00 or +25:00 make the latency unknown, never negative', async () => {
    const file = writeCapture(
      [
        req('r1', q('0099-12-31T23:59:59Z')),
        res('r1', q('0100-01-01T00:00:00Z'), '"input_tokens":1'),
        req('r2', q('2026-13-01T00:00:00Z')),
        res('r2', q('2026-01-01T00:00:00Z'), '"input_tokens":1'),
        req('r3', q('2026-02-28T00:00:00Z')),
        res('r3', q('2026-02-30T00:00:00Z'), '"input_tokens":1'),
        req('r4', q('2026-01-01T24:00:00Z')),
        res('r4', q('2026-01-02T00:00:00Z'), '"input_tokens":1'),
        req('r5', q('2026-01-01T00:00:00+25:00')),
        res('r5', q('2026-01-01T00:00:00Z'), '"input_tokens":1'),
      ],
      'calendar.jsonl',
    );
    const r = await runCli(['analyze', '-f', 'json', file]);
    expect(r.code).toBe(0);
    const lat = JSON.parse(r.stdout).channels[0].latencyMs;
    expect(lat).toMatchObject({ count: 1, min: 1000, max: 1000 });
  });
});
