/** Assay logs: a tools/call-shaped line under another method spelling is ignored, counted and noted with its location. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Chalk } from 'chalk';
import { analyze } from '../../analyze.js';
import { table } from '../../formatters/table.js';
import { noteText } from '../../report/notes.js';
import { reportProblem } from '../../report/validate.js';
import { fixture, tmpDir, writeCapture } from '../../../test/helpers.js';

describe('tools/call under another method spelling', () => {
  it('TOOLS/CALL and Tools/Call on the upstream: not read as calls, counted, the first located, a note, DELIVERY_UNVERIFIED (method-spelling); the report validates', async () => {
    const dir = tmpDir();
    const up = readFileSync(fixture('assay/run-ids.upstream.jsonl'), 'utf8').trim().split('\n');
    const odd = (m: string, id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: m, params: { name: 'github.delete_repo', arguments: {} } });
    const upstream = writeCapture([...up, odd('TOOLS/CALL', 91), odd('Tools/Call', 92)], 'u.jsonl', dir);
    const plain = await analyze({ inputs: [fixture('assay/run-ids.decisions.ndjson')], caller: [fixture('assay/run-ids.caller.jsonl')], upstream: [fixture('assay/run-ids.upstream.jsonl')] });
    const report = await analyze({ inputs: [fixture('assay/run-ids.decisions.ndjson')], caller: [fixture('assay/run-ids.caller.jsonl')], upstream: [upstream] });
    const a = report.records.assay as { calls: { upstream: number }; methodSpellings?: { count: number; first: { path: string; line: number } } };
    expect(a.calls.upstream).toBe((plain.records.assay as { calls: { upstream: number } }).calls.upstream);
    expect(a.methodSpellings).toEqual({ count: 2, first: { path: upstream, line: up.length + 1 } });
    expect(report.notes).toContain(noteText('assay-method-spelling'));
    // On the upstream such a line may still have been run by a lenient server: the audit fails closed.
    expect(report.findingCounts).toEqual({ ...plain.findingCounts, DELIVERY_UNVERIFIED: (plain.findingCounts.DELIVERY_UNVERIFIED ?? 0) + 1 });
    const u = report.findings.find((f) => f.code === 'DELIVERY_UNVERIFIED' && f.data.cause === 'method-spelling');
    expect(u?.data).toMatchObject({ cause: 'method-spelling', count: 2, path: upstream });
    expect(report.gate.passed).toBe(false);
    expect(reportProblem(JSON.parse(JSON.stringify(report)))).toBeNull();
    expect(table.render(report, { chalk: new Chalk({ level: 0 }), cwd: process.cwd() })).toContain(`2 tools/call-shaped line(s) under another method spelling, the first at ${upstream}:${up.length + 1}`);
    expect((plain.records.assay as Record<string, unknown>).methodSpellings).toBeUndefined();
    expect(plain.notes).not.toContain(noteText('assay-method-spelling'));
  });

  it('blanks around tools/call on the upstream (" tools/call", "tools/call\\t", "tools/call "): the same path, DELIVERY_UNVERIFIED (method-spelling), the gate fails, in both readings', async () => {
    const dir = tmpDir();
    const up = readFileSync(fixture('assay/run-ids.upstream.jsonl'), 'utf8').trim().split('\n');
    const odd = (m: string, id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: m, params: { name: 'github.delete_repo', arguments: {} } });
    const upstream = writeCapture([...up, odd(' tools/call', 91), odd('tools/call\t', 92), odd('tools/call ', 93), odd('\u00a0TOOLS/call\n', 94)], 'u.jsonl', dir);
    for (const validateAll of [false, true]) {
      const report = await analyze({ inputs: [fixture('assay/run-ids.decisions.ndjson')], caller: [fixture('assay/run-ids.caller.jsonl')], upstream: [upstream], validateAll });
      const a = report.records.assay as { methodSpellings?: { count: number; first: { path: string; line: number } } };
      expect(a.methodSpellings).toEqual({ count: 4, first: { path: upstream, line: up.length + 1 } });
      const u = report.findings.find((f) => f.code === 'DELIVERY_UNVERIFIED' && f.data.cause === 'method-spelling');
      expect(u?.data).toMatchObject({ cause: 'method-spelling', count: 4, path: upstream });
      expect(report.gate.passed).toBe(false);
    }
  });

  it('inside a JSON-RPC batch, and with a NUL, control or zero-width character in the method: DELIVERY_UNVERIFIED (method-spelling), the gate fails, in both readings', async () => {
    const dir = tmpDir();
    const up = readFileSync(fixture('assay/run-ids.upstream.jsonl'), 'utf8').trim().split('\n');
    const odd = (m: string, id: number) => ({ jsonrpc: '2.0', id, method: m, params: { name: 'github.delete_repo', arguments: {} } });
    const cases = [
      JSON.stringify([odd('TOOLS/CALL', 91)]),
      JSON.stringify([odd('tools/call ', 92)]),
      JSON.stringify(odd('tools/call\u0000', 93)),
      JSON.stringify(odd('tools/\u0007call', 94)),
      JSON.stringify(odd('tools/call\u200b', 95)),
      JSON.stringify(odd('\ufefftools/call', 96)),
      // ſ (long s) is S to a case-insensitive decoder (Go's strings.EqualFold, Python's casefold).
      JSON.stringify(odd('toolſ/call', 97)),
    ];
    for (const line of cases) {
      const upstream = writeCapture([...up, line], 'u.jsonl', dir);
      for (const validateAll of [false, true]) {
        const report = await analyze({ inputs: [fixture('assay/run-ids.decisions.ndjson')], caller: [fixture('assay/run-ids.caller.jsonl')], upstream: [upstream], validateAll });
        const u = report.findings.find((f) => f.code === 'DELIVERY_UNVERIFIED' && f.data.cause === 'method-spelling');
        expect(u?.locations, line).toEqual([{ path: upstream, line: up.length + 1 }]);
        expect(report.gate.passed).toBe(false);
      }
    }
  });
});
