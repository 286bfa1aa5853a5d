/** `trace PATH:LINE` on a line that holds no call says what the line is, with its path:line. */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

describe('trace on a line with no call', () => {
  it('a tool:pre line: read and ignored, naming its record kind and the profile', async () => {
    const r = await runCli(['trace', 'fixtures/seed-trace.jsonl:8']);
    expect(r.stdout.trim()).toBe('No call at fixtures/seed-trace.jsonl:8: the line was read and ignored by profile amplifier: its record (event "tool:pre") is no request, interim or terminal of a channel.');
    const json = JSON.parse((await runCli(['trace', 'fixtures/seed-trace.jsonl:8', '-f', 'json'])).stdout);
    expect(json.calls).toEqual([]);
    expect(json.line).toEqual({ state: 'read', kind: 'event "tool:pre"', profile: 'amplifier' });
  });

  it('a line past the end says how many lines the file has', async () => {
    const r = await runCli(['trace', 'fixtures/seed-trace.jsonl:99']);
    expect(r.stdout.trim()).toBe('No call at fixtures/seed-trace.jsonl:99: the file has 8 line(s).');
  });
});
