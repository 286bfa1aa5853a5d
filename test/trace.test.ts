/**
 * `callpair trace ID|PATH:LINE`: one call explained from its id or its line (docs/trace.md).
 */
import { describe, expect, it } from 'vitest';
import { trace, parseTarget } from '../src/trace/trace.js';
import { fixture, runCli, writeCapture } from './helpers.js';

const SEED = 'fixtures/seed-trace.jsonl';

describe('trace (library)', () => {
  it("the seed trace's summarizer response: its true request (line 4), FIFO's pick (line 2), the crossed finding", async () => {
    const t = await trace({ inputs: [fixture('seed-trace.jsonl')], target: { kind: 'location', path: fixture('seed-trace.jsonl'), line: 5 } });
    expect(t.calls).toHaveLength(1);
    const c = t.calls[0]!;
    expect(c.outcome).toBe('paired');
    expect(c.request!.loc.line).toBe(4);
    expect(c.request!.caller).toBe('summarizer');
    expect(c.terminal!.loc.line).toBe(5);
    expect(c.terminal!.at).toBe('2026-09-03T10:00:01.014Z');
    expect(c.method).toBe('id');
    expect(c.confidence).toBe('exact');
    expect(c.why).toMatch(/^id: /);
    expect(c.fifo).toEqual({ request: expect.objectContaining({ line: 2, caller: 'agent' }), crossed: true });
    expect(c.signature).toEqual({ request: expect.objectContaining({ line: 4 }), crossed: false });
    expect(c.open.map((o) => [o.loc.line, o.taken])).toEqual([[2, false], [3, false], [4, true]]);
    expect(c.findings.map((f) => f.code)).toEqual(['CROSSED_PAIR']);
  });

  it('the same call by its id, and by its request line', async () => {
    const id = '32fc2255-2544-415b-84fd-be9576d5fc59';
    const byId = await trace({ inputs: [fixture('seed-trace.jsonl')], target: { kind: 'id', id } });
    const byReq = await trace({ inputs: [fixture('seed-trace.jsonl')], target: { kind: 'location', path: fixture('seed-trace.jsonl'), line: 4 } });
    expect(byId.calls).toEqual(byReq.calls);
    expect(byId.calls[0]!.id).toBe(id);
  });

  it('an orphan request and an orphan response say why nothing paired them', async () => {
    const f = fixture('orphan-crossed.jsonl');
    const req = await trace({ inputs: [f], target: { kind: 'location', path: f, line: 6 } });
    expect(req.calls[0]!.outcome).toBe('orphan-request');
    expect(req.calls[0]!.findings.map((x) => x.code)).toContain('ORPHAN_REQUEST');
    const resp = await trace({ inputs: [f], target: { kind: 'location', path: f, line: 10 } });
    expect(resp.calls[0]!.outcome).toBe('orphan-response');
    expect(resp.calls[0]!.why).toMatch(/id no open request has/);
    expect(resp.calls[0]!.fifo?.request?.line).toBe(6);
  });

  it('parseTarget: PATH:LINE when the path exists, an id otherwise; an invalid id is refused without echoing it', () => {
    expect(parseTarget(`${SEED}:5`, [], () => true)).toEqual({ kind: 'location', path: SEED, line: 5 });
    expect(parseTarget('abc-12', [], () => false)).toEqual({ kind: 'id', id: 'abc-12' });
    expect(() => parseTarget('no such:5', [], () => false)).toThrow(/look the call up by PATH:LINE/);
    try {
      parseTarget('secret\u001b[31mvalue', [], () => false);
    } catch (e) {
      expect(String(e)).not.toContain('secret');
      expect(String(e)).toMatch(/bad-characters, length 16, sha256 [0-9a-f]{12}/);
    }
  });
});

describe('callpair trace (CLI)', () => {
  it('table: the true request, FIFO\'s pick and the finding; PATH:LINE alone reads that file', async () => {
    const r = await runCli(['trace', `${SEED}:5`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('request  │ fixtures/seed-trace.jsonl:4');
    expect(r.stdout).toContain('FIFO would take fixtures/seed-trace.jsonl:2 (agent) — crossed: not the true request');
    expect(r.stdout).toContain('CROSSED_PAIR');
  });

  it('json and markdown', async () => {
    const j = await runCli(['trace', `${SEED}:5`, '-f', 'json']);
    const t = JSON.parse(j.stdout) as { schema: string; calls: { request: { loc: { line: number } }; fifo: { request: { line: number } } }[] };
    expect(t.schema).toBe('callpair.trace.v1');
    expect(t.calls[0]!.request.loc.line).toBe(4);
    expect(t.calls[0]!.fifo.request.line).toBe(2);
    const m = await runCli(['trace', `${SEED}:5`, '-f', 'markdown']);
    expect(m.stdout).toMatch(/^## callpair trace/);
    expect(m.stdout).toContain('| request | fixtures/seed-trace.jsonl:4 |');
  });

  it('an invalid id: exit 2, one line, the value never printed', async () => {
    const r = await runCli(['trace', 'bad id!', SEED]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toContain('bad id!');
    expect(r.stderr).toContain('look the call up by PATH:LINE');
  });

  it('an id not in the capture: says so, exit 0', async () => {
    const r = await runCli(['trace', 'nothing-here', SEED]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No call found for id nothing-here');
  });

  it.each([80, 120, 200])('COLUMNS=%i: no line longer than the width', async (w) => {
    const r = await runCli(['trace', `${SEED}:5`], { env: { COLUMNS: String(w) } });
    for (const line of r.stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(w);
  });
});

describe('trace on a JSON-RPC batch line (several records share one path:line)', () => {
  const file = fixture('real/jsonrpc-spec/examples.jsonl');
  it('each call has its own request, id and shadows; findings go to the call they name; no internal key is shown', async () => {
    const r = await runCli(['trace', `${file}:9`, '-f', 'json']);
    expect(r.code).toBe(0);
    const t = JSON.parse(r.stdout) as { calls: Array<{ id: string | null; fifo: { crossed: boolean | null } | null; findings: Array<{ code: string; message: string }> }> };
    expect(t.calls.map((c) => c.id)).toEqual(['"1"', '"2"', null, '"5"', '"9"']);
    expect(r.stdout).not.toMatch(/"(s|n|null):[^"]*"/);
    // analyze's CROSSED_PAIR findings name the terminals "5" and "9" — and trace puts them there.
    expect(t.calls.map((c) => c.findings.filter((f) => f.code === 'CROSSED_PAIR').length)).toEqual([0, 0, 0, 2, 2]);
    expect(t.calls[3]!.fifo?.crossed).toBe(true);
  });

  it('looks a string id up as it is shown ("9"), and refuses nothing that is shown', async () => {
    const r = await runCli(['trace', '"9"', file, '-f', 'json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { calls: Array<{ id: string }> }).calls.map((c) => c.id)).toEqual(['"9"']);
  });
});

describe('trace on a request-log line that only resends calls read before', () => {
  it('names the calls it repeats (line.state repeat) and how to trace them, not "read and ignored"', async () => {
    const call = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] };
    const tool = { role: 'tool', tool_call_id: 'call_1', content: 'sunny' };
    const user = { role: 'user', content: 'weather?' };
    const file = writeCapture([{ messages: [user, call, tool] }, { messages: [{ role: 'user', content: 'edited' }, call, tool] }], 'requests.jsonl');
    const t = await runCli(['trace', `${file}:2`]);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('every tool call and result on the line was read before');
    expect(t.stdout).toContain('trace it by its id: call_1');
    const j = JSON.parse((await runCli(['trace', `${file}:2`, '-f', 'json'])).stdout) as { calls: unknown[]; line: { state: string; repeats: string[] } };
    expect(j.calls).toEqual([]);
    expect(j.line).toMatchObject({ state: 'repeat', repeats: ['call_1'] });
  });
});
