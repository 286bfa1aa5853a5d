/**
 * Pairs whose request and terminal carry the same time: latency 0 is kept (a measured value at the
 * capture's time resolution) and said in a note with the count, per channel; a merge of shards
 * says what one run says.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { mergeReports } from '../src/merge/merge.js';
import { zeroLatencyNote } from '../src/report/notes.js';
import { reportProblem } from '../src/report/validate.js';
import { runCli, tmpDir, writeCapture } from './helpers.js';

const ev = (event: string, session: string, id: string, ts: string) => ({ event, session_id: session, request_id: id, timestamp: ts, data: { provider: 'p', model: 'm', status: 'ok' } });
const SAME = '2026-01-01T00:00:00Z';

describe('equal request and terminal times', () => {
  it('latency 0 stays 0, and a note counts the pairs with equal times', async () => {
    const dir = tmpDir();
    const file = writeCapture(
      [ev('llm:request', 's', 'a', SAME), ev('llm:response', 's', 'a', SAME), ev('llm:request', 's', 'b', SAME), ev('llm:response', 's', 'b', '2026-01-01T00:00:01Z')],
      'c.jsonl',
      dir,
    );
    const r = await analyze({ inputs: [file] });
    const ch = r.channels[0]!;
    expect(ch.zeroLatencies).toBe(1);
    expect(ch.scopes[0]!.zeroLatencies).toBe(1);
    expect(ch.latencyMs).toMatchObject({ count: 2, min: 0, max: 1000 });
    expect(r.notes).toContain(zeroLatencyNote('llm', 1));
    expect(zeroLatencyNote('llm', 1)).toBe('llm: 1 pair(s) have equal request and terminal times: latency 0 at the capture’s time resolution (channels[].zeroLatencies)');
    expect(reportProblem(JSON.parse(JSON.stringify(r)))).toBeNull();
    expect((await runCli(['analyze', file])).stdout).toContain(`note: ${zeroLatencyNote('llm', 1)}`);
  });

  it('no note when every pair has a time between its sides', async () => {
    const file = writeCapture([ev('llm:request', 's', 'a', SAME), ev('llm:response', 's', 'a', '2026-01-01T00:00:00.001Z')]);
    const r = await analyze({ inputs: [file] });
    expect(r.channels[0]!.zeroLatencies).toBe(0);
    expect(r.notes.some((n) => n.includes('equal request and terminal times'))).toBe(false);
  });

  it('merge: the note counts the pairs of all shards, as one run over them does', async () => {
    const dir = tmpDir();
    const a = writeCapture([ev('llm:request', 's1', 'a', SAME), ev('llm:response', 's1', 'a', SAME)], 'a.jsonl', dir);
    const b = writeCapture([ev('llm:request', 's2', 'b', SAME), ev('llm:response', 's2', 'b', SAME)], 'b.jsonl', dir);
    const whole = await analyze({ inputs: [a, b] });
    const merged = mergeReports([await analyze({ inputs: [a] }), await analyze({ inputs: [b] })]);
    expect(whole.notes).toEqual([zeroLatencyNote('llm', 2)]);
    expect(merged.notes).toEqual(whole.notes);
    expect(merged.channels[0]!.zeroLatencies).toBe(2);
  });
});
