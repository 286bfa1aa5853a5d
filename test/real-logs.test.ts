/**
 * Real public logs, each read by the CLI with a built-in profile or a profile shipped in
 * `profiles/`, against counts made by hand from the file itself (how each was counted is written
 * beside it; the sources and licences are in each fixture's README). Producers: Claude Code
 * (4 sessions), OpenHands (2 trajectories), Playwright (HAR), OpenTelemetry (OTLP/JSON), an MCP client interceptor, the OpenAI
 * Batch guide, Assay and the JSON-RPC 2.0 specification.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers.js';

interface Counts {
  requests: number;
  terminals: number;
  pairs: { total: number; byMethod: Record<string, number>; byConfidence: Record<string, number> };
  orphanRequests: number;
  orphanResponses: number;
  crossed: { fifo: number };
  failed: number;
}

interface JsonReport {
  inputs: Array<{ path: string; profile: string; lines: number }>;
  channels: Array<Counts & { channel: string }>;
  findings: Array<{ code: string; locations: Array<{ path: string; line: number }>; data: Record<string, unknown>; message: string }>;
  findingCounts: Record<string, number>;
  records: Record<string, Record<string, unknown>>;
}

async function report(args: string[]): Promise<JsonReport> {
  const r = await runCli(['analyze', ...args, '--format', 'json', '--no-fail']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as JsonReport;
}

function only(r: JsonReport, channel: string): Counts {
  expect(r.channels.map((c) => c.channel)).toEqual([channel]);
  return r.channels[0]!;
}

const CC = 'fixtures/real/claude-code';

describe('real logs read right', () => {
  it('Claude Code sub-agent with parallel tool calls: every result pairs by id (exact), the FIFO mis-pairs are listed as crossed', async () => {
    // Counted with jq (`.message.content[] | select(.type=="tool_use") | .id` and `tool_use_id`):
    // lines 3–8 call WebSearch ×6 (ids …Pjr, …N5B, …L5C, …GrF, …NH2, …Rs9 in that order); results
    // come back Pjr(10) GrF(12) L5C(14) Rs9(16) NH2(18) N5B(20). FIFO hands GrF's result to N5B,
    // Rs9's to GrF, N5B's to Rs9: 3 wrong. Lines 22–24 and 29–31 call WebFetch ×6 (XQA, 16s, WvB,
    // Dfq, WfZ, NUt); results XQA(26) 16s(28) WvB(33) Dfq(35) NUt(37) WfZ(39): FIFO gives NUt's
    // result to WfZ and WfZ's to NUt: 2 wrong. 12 calls, 12 results, 5 crossed, no orphan.
    const r = await report([`${CC}/agent-aac57f5.jsonl`]);
    expect(r.inputs[0]!.profile).toBe('transcript');
    const ch = only(r, 'transcript');
    expect(ch).toMatchObject({ requests: 12, terminals: 12, orphanRequests: 0, orphanResponses: 0, failed: 0 });
    expect(ch.pairs.total).toBe(12);
    expect(ch.pairs.byMethod).toMatchObject({ id: 12, signature: 0, fifo: 0 });
    expect(ch.pairs.byConfidence).toMatchObject({ exact: 12, unambiguous: 0, ambiguous: 0 });
    expect(ch.crossed.fifo).toBe(5);
    const crossed = r.findings.filter((f) => f.code === 'CROSSED_PAIR' && f.data.shadow === 'fifo');
    // Each lists the result's line, its true call's line and the line FIFO would have taken.
    expect(crossed.map((f) => f.locations.map((l) => l.line))).toEqual([
      [12, 6, 4],
      [16, 8, 6],
      [20, 4, 8],
      [37, 31, 30],
      [39, 30, 31],
    ]);
    // The 6 WebSearch blocks of lines 3–8 are one API message (msg_01XnP8…), the 6 WebFetch blocks
    // one more (msg_01QUWJ…, its lines interleaved with results), plus 12 result lines: 14.
    expect(r.records.transcript).toMatchObject({ messages: 14, toolCalls: 12, toolResults: 12, repeatedBlocks: 0, sidechainLines: 24, scopes: 1 });
  });

  it('Claude Code main session, 16 tool calls: 3 results out of order', async () => {
    // jq: 16 tool_use ids, 16 tool_result ids, the same set. Lines 9–12 call WebFetch (…UBu),
    // WebSearch ×3 (…FqW, …PPH, …Dgy); results UBu(13) PPH(14) Dgy(15) FqW(16): FIFO gives PPH's
    // to FqW, Dgy's to PPH, FqW's to Dgy — 3 crossed. Every later call is answered before the next
    // (77 and 81 both open, answered 82 then 86: in order).
    const ch = only(await report([`${CC}/subagent.jsonl`]), 'transcript');
    expect(ch).toMatchObject({ requests: 16, terminals: 16, orphanRequests: 0, orphanResponses: 0 });
    expect(ch.pairs.byMethod).toMatchObject({ id: 16 });
    expect(ch.crossed.fifo).toBe(3);
  });

  it('Claude Code main session, 6 tool calls: the parallel WebSearch and Glob come back swapped', async () => {
    // jq: calls at lines 5, 13, 29 (WebSearch …DKT), 30 (Glob …JJd), 34, 37; results 11, 17,
    // 32 (JJd), 33 (DKT), 36, 38: FIFO swaps the two of lines 29/30 — 2 crossed.
    const r = await report([`${CC}/tool_heavy.jsonl`]);
    const ch = only(r, 'transcript');
    expect(ch).toMatchObject({ requests: 6, terminals: 6, orphanRequests: 0 });
    expect(ch.pairs.byConfidence.exact).toBe(6);
    expect(ch.crossed.fifo).toBe(2);
  });

  it('Claude Code sub-agent cut while two Glob calls ran: 2 ORPHAN_REQUEST at their lines, 8 failed Reads', async () => {
    // jq on the 33 lines: tool_use at 3, 7, 9, …, 21 (Read ×9), 24, 28, 32, 33 (Glob ×4) = 13;
    // tool_result at 6, 8, …, 22 (9, 8 of them `is_error: true`), 27, 31 = 11. Lines 32 and 33
    // have no result.
    const r = await report([`${CC}/agent-a2898e3-cut.jsonl`]);
    const ch = only(r, 'transcript');
    expect(ch).toMatchObject({ requests: 13, terminals: 11, orphanRequests: 2, orphanResponses: 0, failed: 8 });
    expect(ch.crossed.fifo).toBe(0);
    const orphans = r.findings.filter((f) => f.code === 'ORPHAN_REQUEST');
    expect(orphans.map((f) => [f.locations[0]!.line, f.data.tool])).toEqual([
      [32, 'Glob'],
      [33, 'Glob'],
    ]);
    expect(orphans[0]!.message).toBe('tool call with no tool result (tool Glob, caller agent:a2898e3)');
  });

  it('OpenHands trajectories: each tool action pairs with the observation caused by it; finish expects none', async () => {
    // jq '.[] | select(.tool_call_metadata) | [.id, .action, .observation, .cause]':
    // basic.json: edit 3 ← observation 4 (cause 3), finish 5 (no observation) — 1 call;
    // basic_gui_mode.json: run 7 ← 8, edit 9 ← 10, edit 11 ← 12, run 13 ← 14 — 4 calls, in order.
    // The null observations (cause 1, 4, 15) answer a state change and messages: no tool calls.
    const r = await report(['fixtures/real/openhands']);
    expect(r.inputs.map((i) => i.profile)).toEqual(['transcript', 'transcript']);
    const ch = only(r, 'transcript');
    expect(ch).toMatchObject({ requests: 5, terminals: 5, orphanRequests: 0, orphanResponses: 0, failed: 0 });
    expect(ch.pairs.byMethod).toMatchObject({ id: 5 });
    expect(ch.crossed.fifo).toBe(0);
    expect(r.records.transcript).toMatchObject({ toolCalls: 5, toolResults: 5, noObservationActions: 1, scopes: 2 });
  });

  it('Playwright HAR: 3 entries, each a whole call; the 301 redirect is no failure', async () => {
    // jq '.log.entries[] | [.response.status, .time]': [200, 8.286], [301, 15.997], [200, 6.735].
    const r = await report(['fixtures/real/har/har-fulfill.har.json']);
    expect(r.inputs[0]!.profile).toBe('har');
    const ch = only(r, 'har');
    expect(ch).toMatchObject({ requests: 3, terminals: 3, orphanRequests: 0, failed: 0 });
    expect(ch.pairs.byMethod).toMatchObject({ record: 3 });
    expect(r.records.har).toEqual({ entries: 3, noResponse: 0, httpErrors: 0, unreadableTimes: 0 });
  });

  it('OpenTelemetry OTLP/JSON example with the shipped otlp-spans profile: 1 span, 1 s', async () => {
    // jq '.resourceSpans[].scopeSpans[].spans | length' = 1; end − start = 1e9 ns.
    const r = await report(['fixtures/real/otlp-trace/trace.json', '--profile', 'profiles/otlp-spans.json']);
    const ch = only(r, 'spans') as Counts & { latencyMs: { max: number } };
    expect(ch).toMatchObject({ requests: 1, terminals: 1, orphanRequests: 0 });
    expect(ch.latencyMs.max).toBe(1000);
  });

  it('MCP client interceptor log with the shipped mcp-interceptor profile: 4 calls, 1 failed', async () => {
    // 8 lines: request/response for count 1–4; count 3 (list_resources) has "error": "Method not found".
    const ch = only(await report(['fixtures/real/mcp-interceptor/intercepted_logs.jsonl', '--profile', 'profiles/mcp-interceptor.json']), 'mcp');
    expect(ch).toMatchObject({ requests: 4, terminals: 4, orphanRequests: 0, orphanResponses: 0, failed: 1 });
    expect(ch.pairs.byMethod).toMatchObject({ id: 4 });
  });

  it('OpenAI Batch guide files: 2 requests, 2 results by custom_id', async () => {
    // batchinput.jsonl: custom_id request-1, request-2; batch_output.jsonl: request-2, request-1.
    const ch = only(await report(['fixtures/real/openai-batch']), 'openai-batch');
    expect(ch).toMatchObject({ requests: 2, terminals: 2, orphanRequests: 0, failed: 0 });
    expect(ch.pairs.byMethod).toMatchObject({ id: 2 });
  });

  it('Assay decision contract: 10 records, 9 deny and 1 allow', async () => {
    // jq '.records[].record.decision' | sort | uniq -c: 9 "deny", 1 "allow".
    const r = await report(['fixtures/real/assay-contract/enforcement_decision_contract.v0.json']);
    expect(r.records.assay).toMatchObject({ records: 10, valid: 10, byDecision: { allow: 1, deny: 9, other: 0 } });
  });

  it('JSON-RPC 2.0 specification examples: 7 calls, 2 notifications, the null-id error an orphan', async () => {
    // Requests with an id: subtract 1, subtract 3, foobar "1", and in the batch sum "1", subtract
    // "2", foo.get "5", get_data "9" = 7; notifications update, notify_hello; `{"foo": "boo"}` is no
    // message. Responses: 1, 3, "1" (error), and in the batch "1", "2", null (error), "5" (error),
    // "9" = 8: the null-id error answers nothing by id. FIFO hands that error to foo.get "5", then
    // "5"'s error to get_data "9": 2 crossed.
    const r = await report(['fixtures/real/jsonrpc-spec/examples.jsonl']);
    const ch = only(r, 'jsonrpc');
    expect(ch).toMatchObject({ requests: 7, terminals: 8, orphanRequests: 0, orphanResponses: 1, failed: 2 });
    expect(ch.pairs.byMethod).toMatchObject({ id: 7 });
    expect(ch.crossed.fifo).toBe(2);
    expect(r.records.jsonrpc).toMatchObject({ requests: 7, notifications: 2, responses: 8, nonMessages: 1 });
  });

  it('the profiles used above ship in the package (package.json files)', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('profiles');
    for (const f of ['otlp-spans.json', 'mcp-interceptor.json', 'README.md']) expect(existsSync(path.join(ROOT, 'profiles', f))).toBe(true);
  });
});
