import { beforeEach, describe, expect, it } from 'vitest';
import { amp, analyzeLines, openCapture, resetClock } from '../../test/helpers.js';
import { ledgerViolations } from '../report/report.js';
import type { PairRecord } from '../model.js';
import { amplifierProfileWithWindow } from './amplifier.js';

beforeEach(() => resetClock());

describe('amplifier profile', () => {
  it('the flat {event, timestamp, data} envelope with request_id inside data pairs like the logging hook', async () => {
    const flat = (event: string, id: string, t: string, extra: Record<string, unknown> = {}) => ({
      event,
      timestamp: t,
      data: { session_id: 'S', request_id: id, provider: 'anthropic', model: 'm', parent_id: null, ...extra },
    });
    const r = await analyzeLines([
      flat('llm:request', 'a', '2026-09-01T00:00:00.000Z'),
      flat('llm:request', 'b', '2026-09-01T00:00:00.100Z'),
      flat('llm:response', 'b', '2026-09-01T00:00:00.300Z', { status: 'ok' }),
      flat('llm:response', 'a', '2026-09-01T00:00:00.500Z', { status: 'ok' }),
    ]);
    const ch = r.channels[0]!;
    expect(ch.pairs.byMethod.id).toBe(2);
    expect(ch.crossed.fifo).toBe(2);
    expect(ch.latencyMs).toMatchObject({ min: 200, max: 500 });
    expect(ch.scopes.map((s) => s.scope)).toEqual(['S']);
  });

  it('times other than ISO 8601 with a zone: epoch seconds by magnitude, naive ISO as UTC, a date the calendar lacks unreadable; each counted and noted', async () => {
    const ev = (event: string, id: string, ts: unknown) => ({ event, ts, session_id: 'S', request_id: id, provider: 'p', model: 'm', ...(event === 'llm:response' ? { status: 'ok' } : {}) });
    const r = await analyzeLines([
      ev('llm:request', 's', 1764950400.25),
      ev('llm:response', 's', 1764950401.5),
      ev('llm:request', 'n', '2026-09-01T00:00:00'),
      ev('llm:response', 'n', '2026-09-01T00:00:00.750'),
      ev('llm:request', 'x', '2026-02-30T00:00:00Z'),
      ev('llm:response', 'x', '2026-03-01T00:00:00Z'),
      ev('llm:request', 'm', 1000),
      ev('llm:response', 'm', 1200),
    ]);
    const lat: number[] = [];
    const r2 = await analyzeLines([ev('llm:request', 's', 1764950400.25), ev('llm:response', 's', 1764950401.5)], { onPair: (p) => lat.push(p.latencyMs!) });
    expect(lat).toEqual([1250]);
    expect(r2.records.amplifier).toEqual({ numericTimes: 2, naiveTimes: 0, unreadableTimes: 0 });
    expect(r.records.amplifier).toEqual({ numericTimes: 4, naiveTimes: 2, unreadableTimes: 1 });
    expect(r.channels[0]!.latencyMs).toMatchObject({ count: 3, min: 200, max: 1250 });
    expect(r.notes.filter((n) => n.startsWith('amplifier:'))).toHaveLength(3);
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('a capture of ISO 8601 times with a zone has no records.amplifier and no time note', async () => {
    const r = await analyzeLines([amp({ event: 'llm:request', provider: 'p' }), amp({ event: 'llm:response', provider: 'p', status: 'ok' })]);
    expect(r.records.amplifier).toBeUndefined();
    expect(r.notes.filter((n) => n.startsWith('amplifier:'))).toEqual([]);
  });

  it('an old capture whose llm:response has no model still pairs on provider', async () => {
    const r = await analyzeLines([
      amp({ event: 'llm:request', provider: 'anthropic', model: 'claude-3' }),
      amp({ event: 'llm:request', provider: 'openai', model: 'gpt-4' }),
      amp({ event: 'llm:response', provider: 'openai', status: 'ok' }),
      amp({ event: 'llm:response', provider: 'anthropic', status: 'ok' }),
    ]);
    const ch = r.channels[0]!;
    expect(ch.pairs.byMethod.signature).toBe(2);
    expect(ch.pairs.byConfidence.unambiguous).toBe(2);
  });

  it('caller = data.caller, else data.purpose, else main (a terminal: (unstated)); a stated caller joins the signature', async () => {
    const pairs: PairRecord[] = [];
    const line = (event: string, t: number, data: Record<string, unknown>) => ({
      event,
      ts: `2026-09-01T00:00:0${t}Z`,
      session_id: 'S',
      ...(event === 'llm:response' ? { status: 'ok' } : {}),
      data: { provider: 'p', model: 'm', ...data },
    });
    await analyzeLines(
      [
        line('llm:request', 0, { caller: 'agent' }),
        line('llm:request', 1, { purpose: 'session-naming' }),
        line('llm:response', 2, { purpose: 'session-naming' }),
        line('llm:response', 3, { caller: 'agent' }),
        line('llm:request', 4, {}),
        line('llm:response', 5, {}),
      ],
      { onPair: (p) => pairs.push(p) },
    );
    expect(pairs.map((p) => [p.request.caller, p.terminal.caller, p.method, p.confidence])).toEqual([
      ['session-naming', 'session-naming', 'signature', 'unambiguous'],
      ['agent', 'agent', 'signature', 'unambiguous'],
      ['main', '(unstated)', 'signature', 'unambiguous'],
    ]);
  });

  it('an unstated caller is a wildcard: it matches any stated caller', async () => {
    const pairs: PairRecord[] = [];
    await analyzeLines(
      [
        amp({ event: 'llm:request', provider: 'p', model: 'm' }),
        amp({ event: 'llm:request', provider: 'p', model: 'm', caller: 'summarizer' }),
        amp({ event: 'llm:response', provider: 'p', model: 'm', caller: 'summarizer', status: 'ok' }),
      ],
      { onPair: (p) => pairs.push(p) },
    );
    expect(pairs[0]).toMatchObject({ method: 'signature', confidence: 'ambiguous', candidates: 2 });
    expect(pairs[0]!.request.caller).toBe('main');
  });

  it('retry and throttle are interims; legacy :debug/:raw, stream and provider:request events are ignored', async () => {
    const r = await analyzeLines([
      amp({ event: 'provider:request', provider: 'p' }),
      amp({ event: 'llm:request', id: 'a', provider: 'p' }),
      amp({ event: 'llm:request:debug', id: 'a', provider: 'p' }),
      amp({ event: 'llm:request:raw', provider: 'p' }),
      amp({ event: 'llm:stream_block_start', id: 'zzz' }),
      amp({ event: 'provider:retry', id: 'a', provider: 'p' }),
      amp({ event: 'provider:throttle', provider: 'p' }),
      amp({ event: 'llm:response:debug', id: 'a', provider: 'p' }),
      amp({ event: 'llm:response', id: 'a', provider: 'p', status: 'ok' }),
    ]);
    const ch = r.channels[0]!;
    expect(ch.requests).toBe(1);
    expect(ch.terminals).toBe(1);
    expect(ch.interims).toBe(2);
    expect(ch.unattributedInterims).toBe(0);
    expect(r.inputs[0]!.ignored).toBe(5);
  });

  it('an unstamped provider:error after an error llm:response of the same provider is redundant', async () => {
    const r = await analyzeLines([
      amp({ event: 'llm:request', id: 'a', provider: 'anthropic', model: 'm' }),
      amp({ event: 'llm:response', id: 'a', provider: 'anthropic', model: 'm', status: 'error', extra: { error: 'overloaded' } }),
      amp({ event: 'provider:error', provider: 'anthropic', extra: { error: { type: 'APIError', msg: 'overloaded' } } }),
      amp({ event: 'llm:request', provider: 'anthropic', model: 'm' }),
    ]);
    const ch = r.channels[0]!;
    expect(ch.redundant).toBe(1);
    expect(ch.pairs.total).toBe(1);
    expect(ch.orphanRequests).toBe(1); // the redundant error did not take the next request
    expect(ch.orphanResponses).toBe(0);
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('an unstamped provider:error of a session whose last event was forgotten is counted and noted, not guessed', () => {
    const p = amplifierProfileWithWindow(1);
    const { emitted, feed } = openCapture(p, 'a.jsonl');
    feed(amp({ event: 'llm:request', id: 'a', provider: 'anthropic', session: 'S1' }));
    feed(amp({ event: 'llm:response', id: 'a', provider: 'anthropic', session: 'S1', status: 'error' }));
    // Remembered: the re-report is redundant, and nothing is unsure.
    feed(amp({ event: 'provider:error', provider: 'anthropic', session: 'S1' }));
    expect(emitted.map((e) => e.redundant === true)).toEqual([false, false, true]);
    expect(p.summary!()).toBeUndefined();
    feed(amp({ event: 'llm:response', id: 'a', provider: 'anthropic', session: 'S1', status: 'error' }));
    // Two other sessions: S1's last event leaves the window.
    feed(amp({ event: 'llm:request', id: 'b', provider: 'anthropic', session: 'S2' }));
    feed(amp({ event: 'llm:request', id: 'c', provider: 'anthropic', session: 'S3' }));
    feed(amp({ event: 'provider:error', provider: 'anthropic', session: 'S1' }));
    expect(emitted.at(-1)!.redundant).toBeUndefined();
    expect(p.summary!()).toEqual({ numericTimes: 0, naiveTimes: 0, unreadableTimes: 0, unknownPrevious: 1 });
    expect(p.notes!()).toEqual(['amplifier-unknown-previous']);
  });

  it('a stamped provider:error (the timeout path) closes its call', async () => {
    const r = await analyzeLines([
      amp({ event: 'llm:request', id: 'a', provider: 'anthropic', model: 'm' }),
      amp({ event: 'provider:error', id: 'a', provider: 'anthropic' }),
    ]);
    expect(r.channels[0]!.pairs.byMethod.id).toBe(1);
    expect(r.channels[0]!.redundant).toBe(0);
  });

  it('exact duplicate family lines (a logger registered twice) are counted and skipped', async () => {
    const req = amp({ event: 'llm:request', id: 'a', provider: 'p' });
    const resp = amp({ event: 'llm:response', id: 'a', provider: 'p', status: 'ok' });
    const r = await analyzeLines([req, req, resp, resp]);
    expect(r.inputs[0]!.duplicates).toBe(2);
    expect(r.channels[0]!.pairs.total).toBe(1);
    expect(r.channels[0]!.duplicateTerminals).toBe(0);
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('an invalid request_id is an INVALID_ID finding and the event has no id', async () => {
    const r = await analyzeLines([
      amp({ event: 'llm:request', id: 'bad id\u001b[31m', provider: 'p' }),
      amp({ event: 'llm:response', id: 12345, provider: 'p', status: 'ok' }),
    ]);
    expect(r.findingCounts.INVALID_ID).toBe(2);
    expect(r.channels[0]!.pairs.byMethod.signature).toBe(1);
    expect(JSON.stringify(r)).not.toContain('bad id');
    expect(JSON.stringify(r)).not.toContain('12345');
  });

  it('reads usage in both eras, null stays unknown', async () => {
    const pairs: PairRecord[] = [];
    await analyzeLines(
      [
        amp({ event: 'llm:request', id: 'a', provider: 'p' }),
        amp({ event: 'llm:response', id: 'a', provider: 'p', status: 'ok', usage: { input: 10, output: 2, cache_read: 1 } }),
        amp({ event: 'llm:request', id: 'b', provider: 'p' }),
        amp({ event: 'llm:response', id: 'b', provider: 'p', status: 'cancelled', usage: { input_tokens: null, output_tokens: 7 } }),
      ],
      { onPair: (p) => pairs.push(p) },
    );
    expect(pairs[0]!.terminal.attrs.usage).toEqual({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 1, cacheWriteTokens: null });
    expect(pairs[1]!.terminal.attrs.usage).toEqual({ inputTokens: null, outputTokens: 7, cacheReadTokens: null, cacheWriteTokens: null });
    expect(pairs[1]!.terminal.attrs.status).toBe('cancelled');
  });
});
