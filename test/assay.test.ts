import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, ROOT, runCli, tmpDir, writeCapture } from './helpers.js';
import path from 'node:path';

const A = 'fixtures/assay';
const threeFiles = (v: 'ids' | 'noids') => [`${A}/run-${v}.decisions.ndjson`, '--caller', `${A}/run-${v}.caller.jsonl`, '--upstream', `${A}/run-${v}.upstream.jsonl`];

describe('callpair analyze: the three-file assay audit', () => {
  it('shows the delivery audit matrix and the validation counts, and fails the gate on the bypass', async () => {
    const res = await runCli(['analyze', ...threeFiles('ids')]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('Assay decision records');
    expect(res.stdout).toMatch(/│ valid │ malformed │ unsupported schema │ inconsistent │/);
    expect(res.stdout).toMatch(/│ 6 +│ 0 +│ 0 +│ 0 +│ 3 +│ 3 +│ 6 present · 0 absent · 0 invalid · 0 duplicated │/);
    expect(res.stdout).toMatch(/│ delivery audit │ arrived upstream +│ not arrived │/);
    expect(res.stdout).toMatch(/│ allow +│ 2 +│ 1 +│/);
    expect(res.stdout).toMatch(/│ deny +│ 1 DENIED_BUT_DELIVERED │ 2 +│/);
    expect(res.stdout).toMatch(/│ no decision +│ 1 UNRECORDED_DELIVERY +│ — +│/);
    expect(res.stdout).toContain('allowed, not observed upstream');
    expect(res.stdout).toContain('gate failed: error-findings: 2 (limit <= 0)');
  });

  it('the worked example of docs/assay.md shows the real assay section of that run', async () => {
    const sec = readFileSync(path.join(ROOT, 'docs', 'assay.md'), 'utf8');
    const block = sec.slice(sec.indexOf('```text\n') + 8, sec.indexOf('\n```', sec.indexOf('```text\n') + 8));
    const from = block.indexOf('Assay decision records');
    const to = block.indexOf('\n', block.indexOf('└', block.indexOf('│ no decision')));
    expect(from).toBeGreaterThan(0);
    // The docs show output at COLUMNS=100 (test/docs.test.ts), tables fitted to it.
    const res = await runCli(['analyze', ...threeFiles('ids')], { env: { COLUMNS: '100' } });
    // Each shown segment (between `…` lines, as test/docs.test.ts reads them) is in the output, in order.
    let at = 0;
    for (const seg of block.slice(from, to).split('\n…\n')) {
      const i = res.stdout.indexOf(seg, at);
      expect(i, seg).toBeGreaterThanOrEqual(0);
      at = i + seg.length;
    }
    expect(sec).toContain(`\`\`\`sh runnable exit=${res.code}\n`);
  });

  it('carries the same in the JSON report, byte-identical on two runs', async () => {
    const a = await runCli(['analyze', '-f', 'json', ...threeFiles('noids')]);
    const b = await runCli(['analyze', '-f', 'json', ...threeFiles('noids')]);
    expect(a.stdout).toBe(b.stdout);
    const r = JSON.parse(a.stdout);
    expect(r.records.assay.valid).toBe(6);
    expect(r.records.assay.delivery.deny.arrived).toBe(1);
    expect(r.channels.map((c: { channel: string }) => c.channel)).toEqual(['decision', 'delivery']);
    expect(r.findingCounts.DENIED_BUT_DELIVERED).toBe(1);
  });

  it('says, without the caller log and ids, that bypass detection needs ids or the caller log', async () => {
    const res = await runCli(['analyze', `${A}/run-noids.decisions.ndjson`, '--upstream', `${A}/run-noids.upstream.jsonl`]);
    expect(res.stdout).toContain('note: assay: bypass detection needs ids or the caller log');
    expect(res.stdout).toMatch(/│ deny +│ n\/a +│ n\/a \(3 without an id: unchecked\) │/);
  });

  it('validates decision records alone: 10 valid, no orphans, exit 0', async () => {
    const res = await runCli(['analyze', `${A}/contract.v0.ndjson`]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/│ 10 +│ 0 +│ 0 +│ 0 +│ 1 +│ 9 +│/);
    expect(res.stdout).not.toContain('Orphan');
  });

  it('takes --correlation-key', async () => {
    const dir = tmpDir();
    const rec = JSON.parse(readFileSync(fixture('assay/contract.v0.ndjson'), 'utf8').split('\n').find((l) => l.includes('"decision":"allow"'))!);
    const decisions = writeCapture([{ ...rec, correlation_id: 'k1' }], 'd.ndjson', dir);
    const caller = writeCapture([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: rec.tool.name, _meta: { 'x.cid': 'k1' } } }], 'c.jsonl', dir);
    const res = await runCli(['analyze', '-f', 'json', decisions, '--caller', caller, '--correlation-key', 'x.cid']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).channels[0].pairs.byConfidence.exact).toBe(1);
    const bad = await runCli(['analyze', decisions, '--correlation-key', '']);
    expect(bad.code).toBe(2);
  });

  it('takes --caller/--upstream before or after the inputs, each once per file (repeatable)', async () => {
    const res = await runCli(['analyze', '-f', 'json', '--caller', `${A}/run-ids.caller.jsonl`, `${A}/run-ids.decisions.ndjson`, '--upstream', `${A}/run-ids.upstream.jsonl`]);
    const r = JSON.parse(res.stdout);
    expect(r.inputs.map((i: { path: string }) => i.path)).toEqual([`${A}/run-ids.caller.jsonl`, `${A}/run-ids.decisions.ndjson`, `${A}/run-ids.upstream.jsonl`]);
    expect(r.records.assay.calls).toEqual({ caller: 6, upstream: 4, establishSkipped: 0 });
    const two = await runCli(['analyze', '-f', 'json', `${A}/contract.v0.ndjson`, '--caller', `${A}/run-ids.caller.jsonl`, '--caller', `${A}/run-noids.caller.jsonl`]);
    expect(JSON.parse(two.stdout).records.assay.calls.caller).toBe(12);
  });

  it('exits 2 for a missing --caller file', async () => {
    const res = await runCli(['analyze', `${A}/contract.v0.ndjson`, '--caller', 'no-such-caller.jsonl']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no-such-caller.jsonl');
  });

  it('exits 2 when --caller is given with a profile that does not read caller logs', async () => {
    const res = await runCli(['analyze', '--profile', 'amplifier', '--caller', `${A}/run-ids.caller.jsonl`, `${A}/run-ids.decisions.ndjson`]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('no profile in use reads caller logs');
  });

  it('prints a tool name and a caller id with ANSI escapes and bidi overrides inert in the table', async () => {
    const dir = tmpDir();
    const rec = JSON.parse(readFileSync(fixture('assay/contract.v0.ndjson'), 'utf8').split('\n').find((l) => l.includes('"decision":"allow"'))!);
    const tool = 'evil\u001b[31m\u001b]8;;http://x\u0007.tool\u202egnp.exe\u2066';
    const callerId = 'agent\u001b[2J\u202e\u2069\u009b31m';
    const hostile = { ...rec, caller: { id: callerId }, tool: { ...rec.tool, name: tool } };
    const decisions = writeCapture([hostile, hostile], 'd.ndjson', dir);
    // One allow arrives, one is never observed (its caller id is listed); an arrival of another
    // hostile tool no decision covers (its tool name is in the finding).
    const upstream = writeCapture(
      [
        { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: tool } },
        { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: `${tool}2` } },
      ],
      'u.jsonl',
      dir,
    );
    const res = await runCli(['analyze', decisions, '--upstream', upstream]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('UNRECORDED_DELIVERY');
    expect(res.stdout).toMatch(/d\.ndjson:2 +│ delivery │ agent +│ allowed, not observed upstream/);
    expect(res.stdout).toContain("evil.toolgnp.exe");
    expect(res.stdout).toContain('evil');
    expect(res.stdout).toContain('agent');
    expect(res.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });
});
