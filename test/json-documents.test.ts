/**
 * JSON documents (a top-level array, or concatenated pretty-printed values) beside JSONL: which one
 * a file is is decided on evidence; a document is read as JSON.parse reads it, even with objects at
 * column 0 inside its records; a syntax error does not drop the rest; a huge value is bounded like
 * a JSONL line. The scanner itself: src/input/documents.scan.test.ts.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import type { Report } from '../src/report/report.js';
import { runCli, tmpDir, withoutGateLine, writeCapture } from './helpers.js';

describe('JSONL or a JSON document, decided on evidence', () => {
  it('`[]` then `{"a":1}`: JSONL, 2 lines, 2 records', async () => {
    const r = await analyze({ inputs: [writeCapture(['[]', '{"a":1}'])] });
    expect(r.inputs[0]).toMatchObject({ format: 'jsonl', lines: 2, records: 2 });
  });

  it('`[{request}]` then `{response}`: no more records than values, no false orphan', async () => {
    const req = { ts: '2026-09-01T00:00:00Z', event: 'llm:request', session_id: 's', request_id: 'r1', data: { provider: 'p' } };
    const res = { ts: '2026-09-01T00:00:01Z', event: 'llm:response', session_id: 's', request_id: 'r1', status: 'ok', data: { provider: 'p' } };
    const r = await analyze({ inputs: [writeCapture([`[${JSON.stringify(req)}]`, res])] });
    expect(r.inputs[0]!.format).toBe('jsonl');
    expect(r.inputs[0]!.records).toBe(2);
    expect(r.findingCounts.ORPHAN_REQUEST ?? 0).toBe(0);
  });

  it('a syntax error in a document does not drop the rest', async () => {
    const rec = (k: number) => JSON.stringify({ ts: `2026-09-01T00:00:0${k}Z`, event: 'llm:request', session_id: 's', request_id: `r${k}`, data: { provider: 'p' } });
    const doc = ['[', `  ${rec(1)},`, '  {"event": "llm:request", "broken": [1, 2}', `  ${rec(2)},`, '  {"unterminated": "abc', `  ${rec(3)}`, ']'].join('\n');
    const file = writeCapture([doc], 'doc.json');
    const r = await analyze({ inputs: [file] });
    expect(r.inputs[0]!.format).toBe('json');
    expect(r.inputs[0]!.malformed).toBe(2);
    expect(r.inputs[0]!.records).toBe(3);
    expect(r.channels[0]!.requests).toBe(3);
    expect(r.findings.filter((f) => f.code === 'MALFORMED_LINE').map((f) => f.locations[0]!.line)).toEqual([3, 5]);
  });

  it('pretty-printed and single-line documents are still documents; a one-line `[…]` JSONL file with more lines is JSONL', async () => {
    const recs = [1, 2, 3].map((k) => ({ ts: `2026-09-01T00:00:0${k}Z`, event: 'llm:request', session_id: 's', request_id: `r${k}`, data: { provider: 'p' } }));
    const pretty = await analyze({ inputs: [writeCapture([JSON.stringify(recs, null, 2)], 'p.jsonl')] });
    expect(pretty.inputs[0]).toMatchObject({ format: 'json', records: 3 });
    const one = await analyze({ inputs: [writeCapture([JSON.stringify(recs)], 'one.jsonl')] });
    expect(one.inputs[0]).toMatchObject({ format: 'json', records: 3 });
    const lines = await analyze({ inputs: [writeCapture([JSON.stringify(recs), JSON.stringify(recs[0])], 'l.jsonl')] });
    expect(lines.inputs[0]).toMatchObject({ format: 'jsonl', records: 2 });
  });
});

describe('a huge value in a JSON document is bounded like a JSONL line', () => {
  it('a 150 MB string is skipped as oversized within a 96 MB heap, and the records after it are read', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'huge.json');
    const rec = (k: number) => JSON.stringify({ ts: `2026-09-01T00:00:0${k}Z`, event: 'llm:request', session_id: 's', request_id: `r${k}`, data: { provider: 'p' } });
    writeFileSync(file, Buffer.concat([Buffer.from(`[\n${rec(1)},\n{"event":"llm:request","blob":"`), Buffer.alloc(150 << 20, 0x78), Buffer.from(`"},\n${rec(2)},\n${rec(3)}\n]\n`)]));
    const res = await runCli(['analyze', '--format', 'json', file], { env: { NODE_OPTIONS: '--max-old-space-size=96' } });
    expect(withoutGateLine(res.stderr)).toBe('');
    const r = JSON.parse(res.stdout) as Report;
    expect(r.inputs[0]).toMatchObject({ format: 'json', records: 3, oversized: 1, malformed: 0 });
    expect(r.channels[0]!.requests).toBe(3);
  });
});

describe('a valid document with objects at column 0 inside records', () => {
  it('Python json.dump(indent=0) of events holding arrays of objects: 2 records, 1 pair, no finding', async () => {
    const file = path.join(tmpDir(), 'min.json');
    writeFileSync(
      file,
      [
        '[',
        '{"event":"llm:request","session_id":"s","request_id":"r1","data":{"provider":"p","model":"m","messages":[',
        '{"role":"user"}',
        ']}},',
        '{"event":"llm:response","session_id":"s","request_id":"r1","data":{"provider":"p","model":"m"}}',
        ']',
        '',
      ].join('\n'),
    );
    const res = await runCli(['analyze', file, '-f', 'json']);
    expect(res.code).toBe(0);
    const r = JSON.parse(res.stdout) as Report;
    expect(r.inputs[0]).toMatchObject({ format: 'json', lines: 6, records: 2, malformed: 0, used: 2 });
    expect(r.findingCounts).toEqual({});
    expect(r.channels[0]!.pairs.total).toBe(1);
  });

  it('{"a":[ objects at column 0 ]}: one record, not its inner objects', async () => {
    const file = path.join(tmpDir(), 'wrapped.json');
    writeFileSync(file, '{"a":[\n{"event":"llm:request","session_id":"s","request_id":"r1"},\n{"event":"llm:request","session_id":"s","request_id":"r2"}\n]}\n');
    const r = await analyze({ inputs: [file], allowEmpty: true });
    expect(r.inputs[0]).toMatchObject({ format: 'json', records: 1, malformed: 0, used: 0 });
  });
});
