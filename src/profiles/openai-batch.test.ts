import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { isFailed, type PairRecord } from '../model.js';
import { BATCH_CHANNEL, batchProfileWithLimits } from './openai-batch.js';
import { NOTE_TEXT } from '../report/notes.js';
import { compare } from '../compare/compare.js';
import { trace } from '../trace/trace.js';
import { traceBlocks } from '../formatters/trace/blocks.js';
import { ledgerViolations } from '../report/report.js';
import { fixture, openCapture, tmpDir, writeCapture } from '../../test/helpers.js';

const input = (id: string, model = 'gpt-4o-mini') => ({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [] } });
const output = (id: string, extra: object = {}) => ({
  id: `batch_req_${id}`,
  custom_id: id,
  response: { status_code: 200, request_id: `req_${id}`, body: { model: 'gpt-4o-mini-2024-07-18', usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 } } },
  error: null,
  ...extra,
});

describe('openai-batch profile', () => {
  it('acceptance: the guide\'s 2 requests and their results in the other order pair by custom_id, no crossed pairs', async () => {
    const pairs: PairRecord[] = [];
    // The directory order reads batch_output.jsonl before batchinput.jsonl.
    const r = await analyze({ inputs: [fixture('real/openai-batch')], onPair: (p) => pairs.push(p) });
    expect(r.inputs.map((i) => [i.path.split('/').pop(), i.profile])).toEqual([
      ['batch_output.jsonl', 'openai-batch'],
      ['batchinput.jsonl', 'openai-batch'],
    ]);
    const ch = r.channels.find((c) => c.channel === 'openai-batch')!;
    expect(ch).toMatchObject({ requests: 2, terminals: 2, orphanRequests: 0, orphanResponses: 0 });
    expect(ch.pairs.byMethod).toEqual({ id: 2, signature: 0, fifo: 0 });
    expect(ch.pairs.byConfidence.exact).toBe(2);
    expect(ch.crossed).toMatchObject({ comparable: 0, fifo: 0, signature: 0 });
    expect(r.findingCounts.CROSSED_PAIR).toBeUndefined();
    expect(pairs.map((p) => [p.request.id, p.request.attrs.provider, p.request.attrs.model, p.terminal.attrs.usage?.inputTokens])).toEqual([
      ['request-2', '/v1/chat/completions', 'gpt-3.5-turbo-0125', 22],
      ['request-1', '/v1/chat/completions', 'gpt-3.5-turbo-0125', 20],
    ]);
    expect(r.notes.join(' ')).toContain('arbitrary by contract');
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('reversed output in one file after the input: still no crossed pairs (order is arbitrary by contract)', async () => {
    const r = await analyze({ inputs: [writeCapture([input('a'), input('b'), input('c'), output('c'), output('a'), output('b')])] });
    const ch = r.channels.find((c) => c.channel === 'openai-batch')!;
    expect(ch.pairs.byMethod.id).toBe(3);
    expect(r.findingCounts.CROSSED_PAIR).toBeUndefined();
  });

  it('failed on error or status_code ≥ 400; repeated custom_id is DUPLICATE_ID; unanswered requests are orphans', async () => {
    const pairs: PairRecord[] = [];
    const dir = tmpDir();
    const inFile = writeCapture([input('a'), input('b'), input('b'), input('c'), input('d')], 'in.jsonl', dir);
    const outFile = writeCapture(
      [
        output('a', { response: { status_code: 400, request_id: 'r', body: { error: { message: 'bad model' } } } }),
        output('b', { response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } }),
        output('c'),
      ],
      'out.jsonl',
      dir,
    );
    const r = await analyze({ inputs: [inFile, outFile], profile: 'openai-batch', onPair: (p) => pairs.push(p) });
    expect(pairs.map((p) => [p.request.id, p.terminal.attrs.status, p.terminal.attrs.error])).toEqual([
      ['a', '400', 'HTTP 400: bad model'],
      ['b', null, 'batch_expired: This request could not be executed before the completion window expired.'],
      ['c', '200', null],
    ]);
    expect(r.findingCounts.DUPLICATE_ID).toBe(1);
    const ch = r.channels[0]!;
    expect(ch.orphanRequests).toBe(2); // the second "b" and "d"
    expect(r.records['openai-batch']).toMatchObject({ requests: 5, results: 3, failed: 2 });
    // The channel's failure rule (error set, or status ≥ 400) is what the report counts.
    expect(pairs.map((p) => isFailed(BATCH_CHANNEL, p.terminal.attrs))).toEqual([true, true, false]);
  });

  it('the inputs read lately are always remembered: an interleaved file longer than the window pairs at once', () => {
    const p = batchProfileWithLimits({ maxHeld: 100, maxSeen: 4 });
    const { emitted, ctx, feed } = openCapture(p, 'b.jsonl');
    for (let i = 0; i < 10; i++) {
      feed(input(`r${i}`));
      feed(output(`r${i}`));
    }
    // Each output right after its request: none waits for the end.
    expect(emitted.map((e) => `${e.role[0]}${e.id}`).slice(-4)).toEqual(['rr8', 'tr8', 'rr9', 'tr9']);
    expect(p.summary!()).toMatchObject({ requests: 10, results: 10, heldUntilEnd: 0 });
  });

  it('an output past the full hold is read as it comes and counted (heldOverflow), with a note', () => {
    const p = batchProfileWithLimits({ maxHeld: 2, maxSeen: 10 });
    const { emitted, ctx, feed } = openCapture(p, 'b.jsonl');
    for (const id of ['a', 'b', 'c']) feed(output(id));
    // a and b wait for their input; c finds the hold full and goes at once.
    expect(emitted.map((e) => [e.role, e.id])).toEqual([['terminal', 'c']]);
    for (const id of ['a', 'b', 'c']) feed(input(id));
    p.finish!(ctx);
    expect(emitted.map((e) => [e.role, e.id])).toEqual([
      ['terminal', 'c'],
      ['request', 'a'],
      ['request', 'b'],
      ['request', 'c'],
      ['terminal', 'a'],
      ['terminal', 'b'],
    ]);
    expect(p.summary!()).toEqual({ requests: 3, results: 3, failed: 0, heldUntilEnd: 2, heldOverflow: 1 });
    expect(p.notes!()).toEqual(['openai-batch-order', 'openai-batch-hold-full']);
    expect(NOTE_TEXT['openai-batch-hold-full']).toContain('heldOverflow');
  });

  it('a request evicted at --max-open-calls: its output is ORPHAN_RESPONSE id-evicted, the rest pair', async () => {
    const dir = tmpDir();
    const ids = ['r1', 'r2', 'r3', 'r4'];
    const inp = writeCapture(ids.map((id) => input(id)), 'batchinput.jsonl', dir);
    const out = writeCapture([...ids].reverse().map((id) => output(id)), 'batch_output.jsonl', dir);
    const r = await analyze({ inputs: [inp, out], maxOpenCalls: 2 });
    const ch = r.channels.find((c) => c.channel === 'openai-batch')!;
    expect(ch).toMatchObject({ requests: 4, terminals: 4, evictedRequests: 2, orphanResponses: 2 });
    expect(ch.pairs.total).toBe(2);
    expect(r.findings.filter((f) => f.code === 'ORPHAN_RESPONSE').map((f) => [f.data.id, f.data.reason, f.message])).toEqual([
      ['r2', 'id-evicted', 'batch output (its record states no caller) answers a request evicted while open (--max-open-calls reached)'],
      ['r1', 'id-evicted', 'batch output (its record states no caller) answers a request evicted while open (--max-open-calls reached)'],
    ]);
    expect(r.notes).toContain(
      'openai-batch: 2 open request(s) were evicted at --max-open-calls 2: orphans of the bound, not of the capture (ORPHAN_REQUEST reason evicted; a terminal read later for one is an orphan response, id-evicted while its id is remembered), and the pairs after it, with their crossed counts, confidence, duplicates, latencies and failed count, may differ from an unbounded reading (--max-crossed-rate, --max-ambiguous and --fail-on of the findings it can hide cannot be evaluated); raise --max-open-calls',
    );
    // No scope is said to hold more than the bound at once.
    expect(ch.maxInFlight).toBe(2);
    expect(ledgerViolations(r)).toEqual([]);
    // compare says the orphans come from the bound; trace does not pick by FIFO on an arbitrary order.
    const c = await compare({ inputs: [inp, out], maxOpenCalls: 2 });
    expect(c.channels[0]).toMatchObject({ channel: 'openai-batch', evictedRequests: 2 });
    const t = await trace({ inputs: [inp, out], maxOpenCalls: 2, target: { kind: 'location', path: out, line: 4 } });
    expect(t.calls.map((x) => [x.outcome, x.terminalOrder, x.why])).toEqual([
      ['orphan-response', 'arbitrary', 'nothing took it: its request was evicted while open (--max-open-calls reached) before it came'],
    ]);
    expect(traceBlocks(t).map((b) => (b.kind === 'text' ? b.text : '')).join('\n')).toContain('FIFO is meaningless here');
  });

  it('more evictions than evicted ids remembered: a note says the id-not-open orphans may answer one', async () => {
    const dir = tmpDir();
    const ids = ['r1', 'r2', 'r3', 'r4', 'r5'];
    const inp = writeCapture(ids.map((id) => input(id)), 'batchinput.jsonl', dir);
    const out = writeCapture(ids.map((id) => output(id)), 'batch_output.jsonl', dir);
    const r = await analyze({ inputs: [inp, out], maxOpenCalls: 1, closedWindow: 2 });
    expect(r.findings.filter((f) => f.code === 'ORPHAN_RESPONSE').map((f) => [f.data.id, f.data.reason])).toEqual([
      ['r1', 'id-not-open'],
      ['r2', 'id-not-open'],
      ['r3', 'id-evicted'],
      ['r4', 'id-evicted'],
    ]);
    expect(r.notes.filter((n) => n.includes('forgotten'))).toEqual([
      'openai-batch: some orphan responses with reason id-not-open were read after the engine had forgotten closed or evicted ids (it remembers the last 2 closed and 2 evicted): each may repeat a call closed earlier or answer a request evicted at --max-open-calls',
    ]);
  });
});
