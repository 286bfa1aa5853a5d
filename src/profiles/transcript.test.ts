import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import type { PairRecord } from '../model.js';
import { ledgerViolations } from '../report/report.js';
import { analyzeLines, fixture } from '../../test/helpers.js';
import { TRANSCRIPT_CHANNEL, transcriptProfile, type TranscriptSummary } from './transcript.js';

const SESSION = 'c7d1fb1a-0885-4d8b-8427-0f09a0c1a94f';
let clock = Date.UTC(2026, 1, 2, 10, 0, 0);
const at = () => new Date((clock += 1000)).toISOString();

/** A Claude Code assistant line with one content block per line, as Claude Code writes them. */
const use = (msg: string, id: string, name: string, extra: object = {}) => ({
  type: 'assistant',
  sessionId: SESSION,
  isSidechain: false,
  timestamp: at(),
  message: { id: msg, role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'tool_use', id, name, input: {} }] },
  ...extra,
});
const result = (id: string, extra: object = {}, block: object = {}) => ({
  type: 'user',
  sessionId: SESSION,
  isSidechain: false,
  timestamp: at(),
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok', ...block }] },
  ...extra,
});

function channel(r: Awaited<ReturnType<typeof analyze>>) {
  const ch = r.channels.find((c) => c.channel === TRANSCRIPT_CHANNEL.name);
  expect(ch).toBeDefined();
  return ch!;
}

describe('transcript profile', () => {
  it('parallel tool calls answered out of order pair by id (exact) and FIFO mis-pairs are crossed', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyzeLines(
      [use('msg_1', 'toolu_a', 'Read'), use('msg_1', 'toolu_b', 'Grep'), use('msg_1', 'toolu_c', 'Bash'), result('toolu_c'), result('toolu_a'), result('toolu_b')],
      { onPair: (p) => pairs.push(p) },
    );
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 3, terminals: 3, orphanRequests: 0, orphanResponses: 0, maxInFlight: 3 });
    expect(ch.pairs.byMethod).toMatchObject({ id: 3, signature: 0, fifo: 0 });
    expect(ch.pairs.byConfidence).toMatchObject({ exact: 3, unambiguous: 0, ambiguous: 0 });
    // FIFO: c's result → a (wrong), a's → b (wrong), b's → c (wrong).
    expect(ch.crossed.fifo).toBe(3);
    expect(pairs.map((p) => [p.request.attrs.tool, p.request.loc.line, p.terminal.loc.line])).toEqual([
      ['Bash', 3, 4],
      ['Read', 1, 5],
      ['Grep', 2, 6],
    ]);
    expect(r.records.transcript).toMatchObject({ messages: 4, toolCalls: 3, toolResults: 3, repeatedBlocks: 0 });
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('a tool_use with no result is an ORPHAN_REQUEST at its line, a result with no call an ORPHAN_RESPONSE', async () => {
    const r = await analyzeLines([use('msg_1', 'toolu_a', 'Read'), use('msg_1', 'toolu_b', 'WebFetch'), result('toolu_a'), result('toolu_zz')]);
    const ch = channel(r);
    expect(ch).toMatchObject({ orphanRequests: 1, orphanResponses: 1 });
    const orphan = r.findings.find((f) => f.code === 'ORPHAN_REQUEST')!;
    expect(orphan.locations[0]!.line).toBe(2);
    expect(orphan.data).toMatchObject({ id: 'toolu_b', tool: 'WebFetch', note: 'tool call with no tool result' });
    expect(orphan.message).toContain('tool WebFetch');
    expect(r.findings.find((f) => f.code === 'ORPHAN_RESPONSE')!.locations[0]!.line).toBe(4);
  });

  it('one API message over several lines is one message; a block repeated under the same message id is one call, not a duplicate id', async () => {
    const r = await analyzeLines([
      use('msg_1', 'toolu_a', 'Read'),
      result('toolu_a'),
      use('msg_1', 'toolu_b', 'Read'),
      use('msg_1', 'toolu_b', 'Read'),
      result('toolu_b'),
      use('msg_2', 'toolu_c', 'Edit'),
      result('toolu_c'),
    ]);
    expect(channel(r)).toMatchObject({ requests: 3, terminals: 3, duplicateIds: 0, orphanRequests: 0 });
    expect(r.records.transcript).toMatchObject({ messages: 5, toolCalls: 3, repeatedBlocks: 1 });
    expect(r.findingCounts.DUPLICATE_ID).toBeUndefined();
  });

  it('sub-agent (isSidechain) lines in the session file are a scope of their own, by agentId', async () => {
    const side = { isSidechain: true, agentId: 'a1b2c3d' };
    const r = await analyzeLines([
      use('msg_1', 'toolu_task', 'Task'),
      use('msg_s1', 'toolu_s1', 'Grep', side),
      use('msg_s1', 'toolu_s2', 'Read', side),
      result('toolu_s2', side),
      result('toolu_s1', side),
      result('toolu_task'),
    ]);
    const ch = channel(r);
    expect(ch.scopes.map((s) => s.scope).sort()).toEqual([SESSION, `${SESSION}/agent:a1b2c3d`]);
    // Only the sub-agent's two calls cross; the Task call is alone in the main scope.
    expect(ch.crossed.fifo).toBe(2);
    expect(ch.pairs.byMethod.id).toBe(3);
    expect(r.records.transcript).toMatchObject({ sidechainLines: 4, scopes: 2 });
  });

  it('is_error results are failed calls', async () => {
    const r = await analyzeLines([use('msg_1', 'toolu_a', 'Read'), result('toolu_a', {}, { is_error: true, content: 'File does not exist.' })]);
    expect(channel(r).failed).toBe(1);
    expect(r.records.transcript).toMatchObject({ errorResults: 1 });
  });

  it('OpenAI chat: tool_calls[].id pairs with role tool tool_call_id, one message per line or a conversation per line', async () => {
    const assistant = { role: 'assistant', content: null, tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
      { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
    ] };
    const tool2 = { role: 'tool', tool_call_id: 'call_2', content: '12:00' };
    const tool1 = { role: 'tool', tool_call_id: 'call_1', content: 'sunny' };
    const pairs: PairRecord[] = [];
    const r = await analyzeLines([{ role: 'user', content: 'hi' }, assistant, tool2, tool1], { onPair: (p) => pairs.push(p) });
    const ch = channel(r);
    expect(ch.pairs.byMethod.id).toBe(2);
    expect(ch.crossed.fifo).toBe(2);
    expect(pairs.map((p) => p.request.attrs.tool)).toEqual(['get_time', 'get_weather']);

    // The second line resends the history without its first message: the same two calls, now answered.
    const conv = await analyzeLines([{ messages: [{ role: 'user', content: 'hi' }, assistant, tool1] }, { messages: [assistant, tool1, tool2] }]);
    const cc = channel(conv);
    expect(cc.scopes.map((s) => s.scope)).toEqual(['line 1']);
    expect(cc).toMatchObject({ requests: 2, terminals: 2, orphanRequests: 0, orphanResponses: 0 });
    expect(conv.records.transcript).toMatchObject({ repeatedHistory: 3, rewrittenHistory: 1 });
  });

  it('OpenAI Responses items (Codex rollout lines) pair function_call with function_call_output by call_id', async () => {
    const r = await analyzeLines([
      { timestamp: '2026-01-02T03:04:05.000Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{}', call_id: 'call_x' } },
      { timestamp: '2026-01-02T03:04:06.500Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_x', output: 'ok' } },
      { timestamp: '2026-01-02T03:04:07.000Z', type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'call_x' } },
    ]);
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 1, terminals: 1, orphanResponses: 0 });
    expect(ch.latencyMs?.max).toBe(1500);
  });

  it('OpenHands events: a tool action pairs with the observation whose cause is its id; finish expects no observation', async () => {
    const meta = (name: string) => ({ function_name: name, tool_call_id: `toolu_${name}` });
    const r = await analyzeLines([
      { id: 0, source: 'user', action: 'message', args: { content: 'go' } },
      { id: 3, source: 'agent', action: 'run', tool_call_metadata: meta('execute_bash') },
      { id: 4, source: 'agent', action: 'edit', tool_call_metadata: meta('str_replace_editor') },
      { id: 5, source: 'agent', observation: 'edit', cause: 4, tool_call_metadata: meta('str_replace_editor') },
      { id: 6, source: 'agent', observation: 'error', cause: 3, tool_call_metadata: meta('execute_bash') },
      { id: 7, source: 'agent', observation: 'null', cause: 0 },
      { id: 8, source: 'agent', action: 'run', tool_call_metadata: meta('execute_bash') },
      { id: 9, source: 'agent', action: 'finish', tool_call_metadata: meta('finish') },
    ]);
    const ch = channel(r);
    // 3 and 4 answered in the other order: both crossed; 8 never answered: an orphan; finish is none.
    expect(ch).toMatchObject({ requests: 3, terminals: 2, orphanRequests: 1, failed: 1 });
    expect(ch.crossed.fifo).toBe(2);
    expect(r.findings.find((f) => f.code === 'ORPHAN_REQUEST')!.locations[0]!.line).toBe(7);
    expect(r.records.transcript).toMatchObject({ noObservationActions: 1, toolCalls: 3, toolResults: 2 });
  });

  it('OpenHands zone-less timestamps are read as UTC, said once in a note; latency is the time between action and observation', async () => {
    const pairs: PairRecord[] = [];
    const r = await analyze({ inputs: [fixture('transcript/openhands/wrong_initial_state.json')], onPair: (p) => pairs.push(p) });
    expect(pairs.map((p) => [p.request.loc.line, p.terminal.loc.line, Math.round(p.latencyMs! * 1000) / 1000])).toEqual([
      [12, 47, 35.473],
      [82, 117, 648.763],
      [157, 192, 20.823],
    ]);
    expect(r.notes).toEqual(['transcript: timestamps without a zone (naive ISO 8601) were read as UTC (records.transcript.naiveTimes)']);
    expect(r.records.transcript).toMatchObject({ naiveTimes: 6, unreadableTimes: 0 });
  });

  it('a timestamp that is no time is counted and noted, never a silent null', async () => {
    const r = await analyzeLines([use('msg_1', 'toolu_a', 'Read', { timestamp: 'yesterday' }), result('toolu_a')]);
    expect(channel(r).latencyMs).toBeNull();
    expect(r.records.transcript).toMatchObject({ unreadableTimes: 1, naiveTimes: 0 });
    expect(r.notes).toEqual(['transcript: some timestamps could not be read (records.transcript.unreadableTimes): their calls have no latency']);
  });

  it('a sub-agent with agentId only on its result lines: the result finds its call (1 pair, no orphans)', async () => {
    const r = await analyze({ inputs: [fixture('transcript/sidechain-agentid-on-results.jsonl')] });
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 1, terminals: 1, orphanRequests: 0, orphanResponses: 0 });
    expect(ch.pairs.byMethod.id).toBe(1);
    expect(ch.scopes.map((s) => s.scope)).toEqual(['sess-1/sidechain']);
  });

  it('sub-agents with agentId on every line stay apart, and a result written without agentId finds its call', async () => {
    const a = { isSidechain: true, agentId: 'aaaaaaa' };
    const b = { isSidechain: true, agentId: 'bbbbbbb' };
    const r = await analyzeLines([
      use('msg_a', 'toolu_a1', 'Grep', a),
      use('msg_b', 'toolu_b1', 'Read', b),
      result('toolu_b1', b),
      result('toolu_a1', { isSidechain: true }),
    ]);
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 2, terminals: 2, orphanRequests: 0, orphanResponses: 0 });
    expect(ch.pairs.byMethod.id).toBe(2);
    expect(ch.scopes.map((s) => s.scope).sort()).toEqual([`${SESSION}/agent:aaaaaaa`, `${SESSION}/agent:bbbbbbb`]);
  });

  it('a request log resending the whole history counts each tool call once: 1 request, 1 pair, no orphan', async () => {
    const r = await analyze({ inputs: [fixture('transcript/request-log-history.jsonl')] });
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 1, terminals: 1, orphanRequests: 0, orphanResponses: 0 });
    expect(ch.scopes.map((s) => s.scope)).toEqual(['line 1']);
    // Line 2 repeats the call; line 3 the call and its result.
    expect(r.records.transcript).toMatchObject({ toolCalls: 1, toolResults: 1, repeatedHistory: 3 });
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('a request log whose conversations reuse a tool call id with other arguments keeps both calls and says so', async () => {
    const call = (id: string, args: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: args } }] });
    const tool = (id: string) => ({ role: 'tool', tool_call_id: id, content: '1' });
    const r = await analyzeLines([
      { messages: [{ role: 'user', content: 'a' }, call('call_1', '{"q":"a"}'), tool('call_1')] },
      { messages: [{ role: 'user', content: 'b' }, call('call_1', '{"q":"b"}'), tool('call_1')] },
      { messages: [{ role: 'user', content: 'a' }, call('call_1', '{"q":"a"}'), tool('call_1'), { role: 'assistant', content: 'done' }] },
    ]);
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 2, terminals: 2, orphanRequests: 0, orphanResponses: 0, duplicateIds: 0 });
    expect(ch.scopes.map((s) => s.scope)).toEqual(['line 1', 'line 2']);
    expect(r.records.transcript).toMatchObject({ conflictingRepeats: 1, conflictingRepeatsAt: expect.stringMatching(/:2$/), repeatedHistory: 2 });
    expect(r.notes).toContain(
      'transcript: some tool-call ids were read again with another tool name or arguments, or a result again with another is_error (records.transcript.conflictingRepeats, first at conflictingRepeatsAt): each was read as a call or result of its own, not as a repeat',
    );
  });

  it('a request log: the same call id with the same tool and arguments is one call, unless the lines name different sessions', async () => {
    const call = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] };
    const tool = { role: 'tool', tool_call_id: 'call_1', content: '1' };
    const same = await analyzeLines([
      { messages: [{ role: 'user', content: 'a' }, call, tool] },
      { messages: [{ role: 'user', content: 'b' }, call, tool] },
    ]);
    expect(channel(same)).toMatchObject({ requests: 1, terminals: 1, orphanRequests: 0 });
    expect(same.records.transcript).toMatchObject({ repeatedHistory: 2, rewrittenHistory: 1, conflictingRepeats: 0 });
    const apart = await analyzeLines([
      { session_id: 's1', messages: [{ role: 'user', content: 'a' }, call, tool] },
      { session_id: 's2', messages: [{ role: 'user', content: 'a' }, call, tool] },
    ]);
    const ch = channel(apart);
    expect(ch).toMatchObject({ requests: 2, terminals: 2, orphanRequests: 0, duplicateIds: 0 });
    expect(ch.scopes.map((s) => s.scope)).toEqual(['line 1', 'line 2']);
  });

  it('a request log resending a shorter history (a prefix of an earlier list, or one without its oldest messages) counts each call once: 3 requests, 3 pairs, no orphan', async () => {
    const r = await analyze({ inputs: [fixture('transcript/transcript-resent-shorter-history.jsonl')] });
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 3, terminals: 3, orphanRequests: 0, orphanResponses: 0, duplicateIds: 0 });
    expect(ch.pairs.byMethod.id).toBe(3);
    expect(ch.scopes.map((s) => s.scope)).toEqual(['line 1']);
    // Line 2: 3 blocks of line 1's list; line 3: call_Wx1; line 4: call_Tm2 and its result; line 5: line 4's 3.
    expect(r.records.transcript).toMatchObject({ toolCalls: 3, toolResults: 3, repeatedHistory: 9, rewrittenHistory: 2, beyondWindow: 0 });
    expect(r.findings).toEqual([]);
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('a request log resending the history with its system prompt or an earlier user message edited counts each call once', async () => {
    const r = await analyze({ inputs: [fixture('transcript/transcript-edited-system-prompt.jsonl')] });
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 4, terminals: 4, orphanRequests: 0, orphanResponses: 0, duplicateIds: 0, duplicateTerminals: 0 });
    // OpenAI chat (lines 1–4) and Anthropic Messages (lines 5–8): one conversation each.
    expect(ch.scopes.map((s) => s.scope)).toEqual(['line 1', 'line 5']);
    expect(r.records.transcript).toMatchObject({ toolCalls: 4, toolResults: 4, rewrittenHistory: 2, conflictingRepeats: 0 });
    expect(r.findings).toEqual([]);
  });

  it('a sub-agent block written once with its sidechain marking and once without is one call in one scope; its result finds it either way', async () => {
    const r = await analyze({ inputs: [fixture('transcript/sidechain-repeated-block-split-scope.jsonl')] });
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 3, terminals: 3, orphanRequests: 0, orphanResponses: 0, duplicateIds: 0 });
    expect(ch.pairs.byMethod.id).toBe(3);
    // Each call stays in the scope it was first read in: Grep in the sub-agent's, Read in the session's.
    const S = '5b0c6a1e-2f3d-4c8e-9a7b-1d2e3f4a5b6c';
    expect(ch.scopes.map((s) => [s.scope, s.requests, s.terminals])).toEqual([
      [S, 2, 2],
      [`${S}/agent:a1b2c3d`, 1, 1],
    ]);
    expect(r.records.transcript).toMatchObject({ toolCalls: 3, toolResults: 3, repeatedBlocks: 2, messages: 6, scopes: 2 });
    expect(r.findingCounts.ORPHAN_REQUEST).toBeUndefined();
  });

  it('a block written again after another message (answered or still open) is the same call: no second call, no orphan, no duplicate id', async () => {
    const r = await analyze({ inputs: [fixture('transcript/transcript-repeated-block-after-other-message.jsonl')] });
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 4, terminals: 4, orphanRequests: 0, orphanResponses: 0, duplicateIds: 0 });
    expect(r.records.transcript).toMatchObject({ toolCalls: 4, toolResults: 4, repeatedBlocks: 2, messages: 8 });
    expect(r.findingCounts.DUPLICATE_ID).toBeUndefined();
    expect(r.findingCounts.ORPHAN_REQUEST).toBeUndefined();
  });

  it('OpenAI chat messages, one per line: a tool call and its result written again are counted once (repeatedBlocks)', async () => {
    const assistant = { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_time', arguments: '{}' } }] };
    const tool = { role: 'tool', tool_call_id: 'call_9', content: '12:00' };
    const r = await analyzeLines([assistant, tool, { role: 'user', content: 'again?' }, assistant, tool]);
    expect(channel(r)).toMatchObject({ requests: 1, terminals: 1, orphanRequests: 0, duplicateTerminals: 0 });
    expect(r.records.transcript).toMatchObject({ repeatedBlocks: 2, messages: 2 });
  });

  it('a tool call resent with its arguments in another key order or spacing is the same call: no second call, no orphan, no conflict', async () => {
    const block = (input: object) => ({ type: 'tool_use', id: 'toolu_k', name: 'Bash', input });
    const r = await analyzeLines([
      { ...use('msg_1', 'toolu_k', 'Bash'), message: { id: 'msg_1', role: 'assistant', content: [block({ a: 1, b: { c: [1, { d: 2, e: 3 }], f: 'x' } })] } },
      result('toolu_k'),
      { ...use('msg_1', 'toolu_k', 'Bash'), message: { id: 'msg_1', role: 'assistant', content: [block({ b: { f: 'x', c: [1, { e: 3, d: 2 }] }, a: 1 })] } },
    ]);
    expect(channel(r)).toMatchObject({ requests: 1, terminals: 1, orphanRequests: 0 });
    expect(r.records.transcript).toMatchObject({ repeatedBlocks: 1, conflictingRepeats: 0 });
    // OpenAI `arguments` strings: compared by the JSON they hold when they parse, else as written.
    const call = (args: string) => ({ role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'g', arguments: args } }] });
    const oa = await analyzeLines([call('{"a":1,"b":[1,2]}'), call(' {"b": [1, 2], "a": 1.0}'), { role: 'tool', tool_call_id: 'c2', content: 'y' }]);
    expect(channel(oa)).toMatchObject({ requests: 1, terminals: 1, orphanRequests: 0 });
    expect(oa.records.transcript).toMatchObject({ repeatedBlocks: 1, conflictingRepeats: 0 });
    // Other values, or text that is no JSON written otherwise, stay another call.
    const other = await analyzeLines([call('{"a":1}'), call('{"a":2}'), call('not json'), call('not  json')]);
    expect(other.records.transcript).toMatchObject({ toolCalls: 4, conflictingRepeats: 3 });
  });

  it('a tool call and its result first read on one request-log line have no latency (not 0): out of the percentiles and the zero-latency count, counted and noted', async () => {
    const pairs: PairRecord[] = [];
    const user = { role: 'user', content: 'weather?' };
    const call = (id: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: '{}' } }] });
    const tool = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'sunny' });
    const use = (id: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'get_weather', input: {} }] });
    const res = (id: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'sunny' }] });
    const r = await analyzeLines(
      [
        { timestamp: '2026-01-01T00:00:00Z', messages: [user] },
        // OpenAI chat: call_1 and its result first read together; call_2 first, its result a line later.
        { timestamp: '2026-01-01T00:00:09Z', messages: [user, call('call_1'), tool('call_1'), call('call_2')] },
        { timestamp: '2026-01-01T00:00:12Z', messages: [user, call('call_1'), tool('call_1'), call('call_2'), tool('call_2')] },
        // Anthropic Messages: the same.
        { timestamp: '2026-01-01T00:01:00Z', messages: [{ role: 'user', content: 'b' }, use('toolu_1'), res('toolu_1')] },
      ],
      { onPair: (p) => pairs.push(p) },
    );
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 3, terminals: 3, orphanRequests: 0, zeroLatencies: 0 });
    expect(pairs.map((p) => [p.request.id, p.latencyMs, p.terminal.time])).toEqual([
      ['call_1', null, null],
      ['call_2', 3000, Date.UTC(2026, 0, 1, 0, 0, 12)],
      ['toolu_1', null, null],
    ]);
    expect(ch.latencyMs).toMatchObject({ count: 1, min: 3000, max: 3000 });
    expect(r.records.transcript).toMatchObject({ sameLineResults: 2 });
    expect(r.notes).toEqual([
      'transcript: some tool calls and their results were first read on one line (a request log whose one line holds both; records.transcript.sameLineResults): that line’s time times neither, so those pairs have no latency',
    ]);
  });

  it('a tool_use id read again with another tool name is a call of its own, counted and noted at its line', async () => {
    const r = await analyzeLines([use('msg_1', 'toolu_a', 'Read'), result('toolu_a'), use('msg_2', 'toolu_a', 'Bash'), result('toolu_a')]);
    const ch = channel(r);
    expect(ch).toMatchObject({ requests: 2, terminals: 2, orphanRequests: 0 });
    expect(r.records.transcript).toMatchObject({ conflictingRepeats: 1, conflictingRepeatsAt: expect.stringMatching(/:3$/), repeatedBlocks: 0 });
    expect(r.notes.some((n) => n.includes('records.transcript.conflictingRepeats'))).toBe(true);
  });

  it('the windows of remembered message lists and call ids are bounded: a line that may continue a forgotten conversation is counted (beyondWindow, first path:line) and noted', () => {
    const call = (id: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }] });
    const tool = (id: string) => ({ role: 'tool', tool_call_id: id, content: '1' });
    const a = [{ role: 'user', content: 'a' }, call('a1'), tool('a1')];
    const lines = [
      { messages: a.slice(0, 2) },
      { messages: a },
      // Three other conversations, each its first line; b's with two tool calls.
      { messages: [{ role: 'user', content: 'b' }, { role: 'assistant', content: null, tool_calls: [call('b1').tool_calls[0], call('b2').tool_calls[0]] }] },
      ...['c', 'd'].map((u) => ({ messages: [{ role: 'user', content: u }] })),
      // Conversation a goes on: its history holds call a1.
      { messages: [...a, call('a2')] },
    ];
    const read = (opts: { conversationWindow?: number; callIdWindow?: number }) => {
      const p = transcriptProfile(opts);
      let requests = 0;
      const h = p.open({ path: 'req.jsonl', file: null, role: 'capture' }, { emit: (ev) => ((requests += ev.role === 'request' ? 1 : 0), null), finding: () => {} })!;
      lines.forEach((l, i) => h.record(l, { path: 'req.jsonl', line: i + 1 }, null));
      return { requests, sum: p.summary!() as TranscriptSummary, notes: p.notes!() };
    };
    // Within the windows: a1, b1, b2, a2 once each, nothing said.
    expect(read({})).toMatchObject({ requests: 4, sum: { beyondWindow: 0, beyondWindowAt: null, rewrittenHistory: 0 }, notes: [] });
    // One list per generation: line 6's list continues none held, but its call a1 is still in the
    // window of ids, so it continues conversation a.
    expect(read({ conversationWindow: 1 })).toMatchObject({ requests: 4, sum: { beyondWindow: 0, rewrittenHistory: 1 }, notes: [] });
    // One list and one id per generation: conversation a and call a1 are forgotten by line 6, which
    // is read as a new conversation (a1 counted again), and said so, at its path:line.
    expect(read({ conversationWindow: 1, callIdWindow: 1 })).toMatchObject({ requests: 5, sum: { beyondWindow: 1, beyondWindowAt: 'req.jsonl:6' }, notes: ['transcript-beyond-window'] });
  });

  it('session lines: a tool block read as new after the window of ids forgot some is counted (newPastWindow) and noted', () => {
    const line = (id: string, text = 'x') => ({
      sessionId: 's',
      message: { role: 'assistant', id: `m-${id}-${text}`, content: [{ type: 'tool_use', id, name: 'f', input: { q: text } }] },
    });
    // A block written again after two others: a repeat while its id is held, a new call once forgotten.
    const lines = [line('t1'), line('t2'), line('t3'), line('t1')];
    const read = (callIdWindow?: number) => {
      const p = transcriptProfile(callIdWindow === undefined ? {} : { callIdWindow });
      let requests = 0;
      const h = p.open({ path: 's.jsonl', file: null, role: 'capture' }, { emit: (ev) => ((requests += ev.role === 'request' ? 1 : 0), null), finding: () => {} })!;
      lines.forEach((l, i) => h.record(l, { path: 's.jsonl', line: i + 1 }, null));
      return { requests, sum: p.summary!() as TranscriptSummary, notes: p.notes!() };
    };
    const held = read();
    expect(held).toMatchObject({ requests: 3, sum: { repeatedBlocks: 1 }, notes: [] });
    expect(held.sum.newPastWindow).toBeUndefined();
    // One id per generation: t1 is forgotten by line 4, read as a new call, and that is said.
    expect(read(1)).toMatchObject({ requests: 4, sum: { repeatedBlocks: 0, newPastWindow: 1, newPastWindowAt: 's.jsonl:4' }, notes: ['transcript-new-past-window'] });
  });

  it('auto leaves other families alone: an Amplifier trace is read by amplifier only', async () => {
    const r = await analyze({ inputs: [fixture('seed-trace.jsonl')] });
    expect(r.inputs[0]!.profile).toBe('amplifier');
    expect(r.channels.find((c) => c.channel === TRANSCRIPT_CHANNEL.name)).toBeUndefined();
  });
});
