/**
 * A minified JSON document is one physical line: it is fed to the tokenizer in parts, never held
 * whole (a 2 GB single line must not grow memory or re-scan the line on every chunk).
 */
import { describe, expect, it } from 'vitest';
import { DocumentReader } from './documents.js';

function run(text: string, chunk: number, maxValueBytes = 1 << 20) {
  const records: Array<{ value: unknown; line: number }> = [];
  const oversized: number[] = [];
  const malformed: number[] = [];
  const r = new DocumentReader({
    maxValueBytes,
    sink: { record: (value, line) => records.push({ value, line }), oversized: (line) => oversized.push(line), malformed: (line) => malformed.push(line) },
  });
  const buf = Buffer.from(text);
  for (let i = 0; i < buf.length; i += chunk) r.push(buf.subarray(i, i + chunk));
  r.end();
  return { records, oversized, malformed, ledger: r.ledger };
}

describe('DocumentReader on one very long line', () => {
  const rec = (k: number) => JSON.stringify({ event: 'llm:request', session_id: 's', request_id: `r${k}`, data: { blob: 'x'.repeat(1000) } });
  const doc = `[${Array.from({ length: 3000 }, (_, k) => rec(k)).join(',')}]`;

  it('reads every record of a 3 MB single-line array, all on line 1', () => {
    const out = run(doc, 65_536);
    expect(out.records).toHaveLength(3000);
    expect(out.records.every((r) => r.line === 1)).toBe(true);
    expect(out.ledger.lines).toBe(1);
    expect(out.malformed).toEqual([]);
  });

  it('counts lines the same whether a line arrives whole or in parts', () => {
    const text = `[\n${rec(1)},${rec(2)},\n${rec(3)}\n]\n`;
    const whole = run(text, text.length);
    const parts = run(text, 7);
    expect(parts.ledger.lines).toBe(whole.ledger.lines);
    expect(parts.records.map((r) => r.line)).toEqual(whole.records.map((r) => r.line));
    expect(parts.records.map((r) => r.line)).toEqual([2, 2, 3]);
  });

  it('skips an oversized value inside a single-line document and keeps reading', () => {
    const big = JSON.stringify({ event: 'llm:request', blob: 'y'.repeat(300_000) });
    const out = run(`[${rec(1)},${big},${rec(2)}]`, 65_536, 100_000);
    expect(out.oversized).toEqual([1]);
    expect(out.records).toHaveLength(2);
  });
});
