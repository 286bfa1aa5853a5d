/** `trace PATH:LINE` on a line that holds no call says what the line is, with its path:line. */
import { describe, expect, it } from 'vitest';
import { runCli, writeCapture } from './helpers.js';

const REQ = { event: 'llm:request', session_id: 's', timestamp: '2026-01-01T00:00:00Z', data: { request_id: 'a' } };

describe('trace on a line with no call', () => {
  it('a tool:pre line no needle is on: skipped unparsed, as the report counts it; parsed and ignored under --validate-all', async () => {
    const r = await runCli(['trace', 'fixtures/seed-trace.jsonl:8']);
    expect(r.stdout.trim()).toBe('No call at fixtures/seed-trace.jsonl:8: no needle or kind key of profile amplifier is on the line (event "tool:pre"): skipped without JSON.parse, counted as ignored and unparsed.');
    const json = JSON.parse((await runCli(['trace', 'fixtures/seed-trace.jsonl:8', '-f', 'json'])).stdout);
    expect(json.calls).toEqual([]);
    expect(json.line).toEqual({ state: 'unparsed', kind: 'event "tool:pre"', profile: 'amplifier' });
    const all = await runCli(['trace', 'fixtures/seed-trace.jsonl:8', '--validate-all']);
    expect(all.stdout.trim()).toBe('No call at fixtures/seed-trace.jsonl:8: the line was parsed and ignored by profile amplifier: its record (event "tool:pre") is no request, interim or terminal of a channel.');
    const allJson = JSON.parse((await runCli(['trace', 'fixtures/seed-trace.jsonl:8', '--validate-all', '-f', 'json'])).stdout);
    expect(allJson.line).toEqual({ state: 'read', kind: 'event "tool:pre"', profile: 'amplifier', outcome: 'ignored' });
  });

  it('trace says unparsed exactly where the report counts unparsed (orphan-crossed.jsonl:1)', async () => {
    const report = JSON.parse((await runCli(['analyze', 'fixtures/orphan-crossed.jsonl', '-f', 'json'])).stdout);
    expect(report.inputs[0].unparsed).toBe(2);
    const states: string[] = [];
    for (let n = 1; n <= 10; n++) {
      const t = JSON.parse((await runCli(['trace', `fixtures/orphan-crossed.jsonl:${n}`, '-f', 'json'])).stdout);
      if (t.line) states.push(`${n}:${t.line.state}`);
    }
    expect(states.filter((x) => x.endsWith(':unparsed'))).toHaveLength(2);
    expect(states).toContain('1:unparsed');
  });

  it('a line past the end says how many lines the file has', async () => {
    const r = await runCli(['trace', 'fixtures/seed-trace.jsonl:99']);
    expect(r.stdout.trim()).toBe('No call at fixtures/seed-trace.jsonl:99: the file has 8 line(s).');
  });

  it('a broken line no needle is on tells the story analyze tells: skipped unparsed and ignored, MALFORMED_LINE only under --validate-all', async () => {
    const file = writeCapture([REQ, '{bad json']);
    const json = JSON.parse((await runCli(['trace', `${file}:2`, '--profile', 'amplifier', '-f', 'json'])).stdout);
    expect(json.line).toEqual({ state: 'unparsed', kind: null, profile: 'amplifier' });
    const text = (await runCli(['trace', `${file}:2`, '--profile', 'amplifier'])).stdout;
    expect(text).toContain('the line is not JSON, but no needle or kind key of profile amplifier is on it: skipped without JSON.parse, counted as ignored and unparsed (with --validate-all, a MALFORMED_LINE finding).');
    const report = JSON.parse((await runCli(['analyze', file, '--profile', 'amplifier', '-f', 'json'])).stdout);
    expect(report.findingCounts.MALFORMED_LINE).toBeUndefined();
    expect(report.inputs[0].ignored).toBe(1);
    const all = JSON.parse((await runCli(['trace', `${file}:2`, '--profile', 'amplifier', '--validate-all', '-f', 'json'])).stdout);
    expect(all.line).toEqual({ state: 'malformed', kind: null, profile: 'amplifier', reason: 'invalid-json' });
    const reportAll = JSON.parse((await runCli(['analyze', file, '--profile', 'amplifier', '--validate-all', '-f', 'json'])).stdout);
    expect(reportAll.findings.find((f: { code: string }) => f.code === 'MALFORMED_LINE').locations).toEqual([{ path: file, line: 2 }]);
  });

  it('a broken line holding a needle is the MALFORMED_LINE finding analyze reports', async () => {
    const file = writeCapture([REQ, '{"event":"llm:request" broken']);
    const r = await runCli(['trace', `${file}:2`]);
    expect(r.stdout.trim()).toBe(`No call at ${file}:2: the line is not JSON (a MALFORMED_LINE finding, invalid-json).`);
  });

  it('names the --profile given when no record of the input was used (never "none")', async () => {
    const file = writeCapture(['{bad json', '{"other":1}']);
    for (const [line, state] of [[1, 'unparsed'], [2, 'unparsed']] as const) {
      const json = JSON.parse((await runCli(['trace', `${file}:${line}`, '--profile', 'amplifier', '--allow-empty', '-f', 'json'])).stdout);
      expect(json.line).toMatchObject({ state, profile: 'amplifier' });
    }
  });
});
