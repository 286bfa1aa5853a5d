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
    // Each output waits for its request: the calls pair as the input file names them.
    expect(pairs.map((p) => [p.request.id, p.request.attrs.provider, p.request.attrs.model, p.terminal.attrs.usage?.inputTokens])).toEqual([
      ['request-1', '/v1/chat/completions', 'gpt-3.5-turbo-0125', 20],
      ['request-2', '/v1/chat/completions', 'gpt-3.5-turbo-0125', 22],
    ]);
    expect(r.records['openai-batch']).toEqual({ requests: 2, results: 2, failed: 0, heldUntilEnd: 2 });
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
    // a and b pair as their request comes; c's request waits to the end, unanswered.
    expect(emitted.map((e) => [e.role, e.id, e.unanswered ?? false])).toEqual([
      ['terminal', 'c', false],
      ['request', 'a', false],
      ['terminal', 'a', false],
      ['request', 'b', false],
      ['terminal', 'b', false],
      ['request', 'c', true],
    ]);
    expect(p.summary!()).toEqual({ requests: 3, results: 3, failed: 0, heldUntilEnd: 2, heldOverflow: 1 });
    expect(p.notes!()).toEqual(['openai-batch-order', 'openai-batch-hold-full']);
    expect(NOTE_TEXT['openai-batch-hold-full']).toContain('heldOverflow');
  });

  it('requests wait for their output in the profile, not open in the engine: any batch size pairs, DUPLICATE_ID still', () => {
    const p = batchProfileWithLimits({ maxPending: 100 });
    const { emitted, ctx, feed } = openCapture(p, 'b.jsonl');
    for (const id of ['a', 'b', 'a', 'c']) feed(input(id));
    // The repeated a goes to the engine with the first (line 1), where it is DUPLICATE_ID.
    expect(emitted.map((e) => [e.role, e.id, e.repeatOf?.line ?? null])).toEqual([
      ['request', 'a', null],
      ['request', 'a', 1],
    ]);
    for (const id of ['c', 'a', 'b']) feed(output(id));
    p.finish!(ctx);
    expect(emitted.slice(2).map((e) => [e.role, e.id, e.unanswered ?? false])).toEqual([
      ['request', 'c', false],
      ['terminal', 'c', false],
      ['terminal', 'a', false],
      ['request', 'b', false],
      ['terminal', 'b', false],
    ]);
  });

  it('compare still shows what FIFO would have done in the order the lines were read (the profile does not reorder them there)', async () => {
    const dir = tmpDir();
    const inp = writeCapture(['a', 'b', 'c'].map((id) => input(id)), 'in.jsonl', dir);
    const out = writeCapture(['c', 'a', 'b'].map((id) => output(id)), 'out.jsonl', dir);
    const c = await compare({ inputs: [inp, out] });
    const ch = c.channels[0]!;
    expect(ch.maxInFlight).toBe(3);
    // FIFO gives a to c's output, b to a's, c to b's: three crossed.
    expect(ch.strategies.fifo).toMatchObject({ crossed: 3 });
    // analyze: the same in-flight count (requests waiting in the profile count as open).
    const r = await analyze({ inputs: [inp, out] });
    expect(r.channels[0]).toMatchObject({ maxInFlight: 3, orphanRequests: 0 });
  });

  it('in flight counts requests waiting after the last one the engine saw (input first: A, A, B then their outputs: 3)', async () => {
    const dir = tmpDir();
    const inp = writeCapture([input('A'), input('A'), input('B')], 'in.jsonl', dir);
    const out = writeCapture([output('A'), output('A'), output('B')], 'out.jsonl', dir);
    const r = await analyze({ inputs: [inp, out] });
    expect(r.channels[0]).toMatchObject({ maxInFlight: 3, duplicateIds: 1, orphanRequests: 0 });
    expect(r.channels[0]!.pairs.total).toBe(3);
  });

  it('a request read after the ids of closed calls were forgotten may repeat one unseen: channels[].unsureRepeats, a note, --fail-on DUPLICATE_ID unknown', async () => {
    const dir = tmpDir();
    const ids = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'];
    const out = writeCapture(ids.map((id) => output(id)), 'batch_output.jsonl', dir);
    const inp = writeCapture([...ids, 'c0'].map((id) => input(id)), 'batchinput.jsonl', dir);
    // closedWindow 2: the profile remembers the ids of the last 2 to 4 calls it handed the engine.
    const r = await analyze({ inputs: [dir], closedWindow: 2, gate: { failOn: ['DUPLICATE_ID'] } });
    const ch = r.channels[0]!;
    expect(ch).toMatchObject({ duplicateIds: 0, unsureRepeats: 2, orphanRequests: 1 });
    expect(r.notes.some((n) => n.includes('channels[].unsureRepeats'))).toBe(true);
    expect(r.gate.checks.find((c) => c.name === 'fail-on:DUPLICATE_ID')).toMatchObject({ actual: null, passed: false, unknown: 'window' });
    // Input first nothing closes before every request is read: no request goes unchecked.
    const clean = await analyze({ inputs: [inp, out], closedWindow: 2, gate: { failOn: ['DUPLICATE_ID'] } });
    expect(clean.channels[0]!.unsureRepeats).toBeUndefined();
    expect(clean.channels[0]!.duplicateIds).toBe(1);
    expect(clean.notes.some((n) => n.includes('unsureRepeats'))).toBe(false);
    expect(clean.gate.checks.find((c) => c.name === 'fail-on:DUPLICATE_ID')).toMatchObject({ actual: 1, passed: false });
    // Repeats in the input alone go to the engine open: dropping their ids forgets no closed call
    // (an adversarial review found them counted unsure, the gate unknown).
    const rep = tmpDir();
    const rin = writeCapture(['c0', 'c0', 'c1', 'c1', 'c2', 'c2', 'c0'].map((id) => input(id)), 'in.jsonl', rep);
    const rout = writeCapture(['c0', 'c1', 'c2'].map((id) => output(id)), 'out.jsonl', rep);
    const repeats = await analyze({ inputs: [rin, rout], closedWindow: 1, gate: { failOn: ['DUPLICATE_ID'] } });
    expect(repeats.channels[0]).toMatchObject({ duplicateIds: 4 });
    expect(repeats.channels[0]!.unsureRepeats).toBeUndefined();
    expect(repeats.gate.checks.find((c) => c.name === 'fail-on:DUPLICATE_ID')).toMatchObject({ actual: 4 });
  });

  it('a repeated custom_id is DUPLICATE_ID whatever the file order (output first: its call closed before the repeat came)', async () => {
    const dir = tmpDir();
    const out = writeCapture([output('x'), output('y')], 'batch_output.jsonl', dir);
    const inp = writeCapture([input('x'), input('y'), input('x')], 'batchinput.jsonl', dir);
    const r = await analyze({ inputs: [dir] });
    expect(r.inputs.map((i) => i.path)).toEqual([out, inp]);
    expect(r.findings.filter((f) => f.code === 'DUPLICATE_ID').map((f) => f.locations.map((l) => l.line))).toEqual([[1, 3]]);
    const ch = r.channels.find((c) => c.channel === 'openai-batch')!;
    expect(ch).toMatchObject({ requests: 3, terminals: 2, orphanRequests: 1, duplicateIds: 1 });
    expect(ch.pairs.total).toBe(2);
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('past ten times --max-open-calls waiting requests, the oldest go to the engine; evicted there: ORPHAN_RESPONSE id-evicted, the rest pair', async () => {
    const dir = tmpDir();
    const ids = Array.from({ length: 30 }, (_, i) => `r${i + 1}`);
    const inp = writeCapture(ids.map((id) => input(id)), 'batchinput.jsonl', dir);
    const out = writeCapture([...ids].reverse().map((id) => output(id)), 'batch_output.jsonl', dir);
    // --max-open-calls 2: 20 wait in the profile; r1..r10 go to the engine, which evicts r1..r8, and r9
    // when the first pair's request opens there (r10 stays open until its output).
    const r = await analyze({ inputs: [inp, out], maxOpenCalls: 2 });
    const ch = r.channels.find((c) => c.channel === 'openai-batch')!;
    expect(ch).toMatchObject({ requests: 30, terminals: 30, evictedRequests: 9, orphanResponses: 9 });
    expect(ch.pairs.total).toBe(21);
    expect(r.records['openai-batch']).toMatchObject({ pendingOverflow: 10 });
    const orphans = r.findings.filter((f) => f.code === 'ORPHAN_RESPONSE');
    expect(orphans.map((f) => [f.data.id, f.data.reason])).toEqual(['r9', 'r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1'].map((id) => [id, 'id-evicted']));
    expect(orphans[0]!.message).toBe('batch output (its record states no caller) answers a request evicted while open (--max-open-calls reached)');
    expect(r.notes.some((n) => n.startsWith('openai-batch: 9 open request(s) were evicted at --max-open-calls 2'))).toBe(true);
    // In flight: the engine's open requests (never more than the bound) and those waiting in the
    // profile — 2 + 19 when the first output came.
    expect(ch.maxInFlight).toBe(21);
    expect(ledgerViolations(r)).toEqual([]);
    // compare (and trace) read the lines in the order read, for FIFO's shadows: every request is open
    // in the engine, which evicts 28. compare says the orphans come from the bound; trace does not
    // pick by FIFO on an arbitrary order.
    const c = await compare({ inputs: [inp, out], maxOpenCalls: 2 });
    expect(c.channels[0]).toMatchObject({ channel: 'openai-batch', evictedRequests: 28 });
    const t = await trace({ inputs: [inp, out], maxOpenCalls: 2, target: { kind: 'location', path: out, line: 30 } });
    expect(t.calls.map((x) => [x.outcome, x.terminalOrder, x.why])).toEqual([
      ['orphan-response', 'arbitrary', 'nothing took it: its request was evicted while open (--max-open-calls reached) before it came'],
    ]);
    expect(traceBlocks(t).map((b) => (b.kind === 'text' ? b.text : '')).join('\n')).toContain('FIFO is meaningless here');
  });

  it('more evictions than evicted ids remembered: a note says the id-not-open orphans may answer one', async () => {
    const dir = tmpDir();
    const ids = Array.from({ length: 16 }, (_, i) => `r${i + 1}`);
    const inp = writeCapture(ids.map((id) => input(id)), 'batchinput.jsonl', dir);
    const out = writeCapture(ids.map((id) => output(id)), 'batch_output.jsonl', dir);
    // --max-open-calls 1: 10 wait; r1..r6 go to the engine, which evicts r1..r5 and remembers the last 2 of them.
    const r = await analyze({ inputs: [inp, out], maxOpenCalls: 1, closedWindow: 2 });
    expect(r.findings.filter((f) => f.code === 'ORPHAN_RESPONSE').map((f) => [f.data.id, f.data.reason])).toEqual([
      ['r1', 'id-not-open'],
      ['r2', 'id-not-open'],
      ['r3', 'id-not-open'],
      ['r4', 'id-evicted'],
      ['r5', 'id-evicted'],
    ]);
    expect(r.notes.filter((n) => n.startsWith('openai-batch: some orphan'))).toEqual([
      'openai-batch: some orphan responses with reason id-not-open were read after the engine had forgotten closed or evicted ids (it remembers the last 2 closed and 2 evicted): each may repeat a call closed earlier or answer a request evicted at --max-open-calls',
    ]);
  });
});
