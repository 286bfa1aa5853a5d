import { describe, expect, it } from 'vitest';
import { LineReader, type LineSink } from './lines.js';
import { keepFunction, keepFunctions } from '../profiles/keep.js';

function read(chunks: Array<string | Buffer>, opts: { needles?: string[]; max?: number; all?: boolean } = {}) {
  const records: Array<[number, unknown]> = [];
  const malformed: Array<[number, string]> = [];
  const oversized: number[] = [];
  const sink: LineSink = {
    record: (v, line) => records.push([line, v]),
    malformed: (line, reason) => malformed.push([line, reason]),
    oversized: (line) => oversized.push(line),
  };
  const r = new LineReader({
    needles: (opts.needles ?? ['"llm:']).map((n) => Buffer.from(n)),
    maxLineBytes: opts.max ?? 1024,
    validateAll: opts.all ?? false,
    sink,
  });
  for (const c of chunks) r.push(typeof c === 'string' ? Buffer.from(c) : c);
  r.end();
  const l = r.ledger;
  expect(l.lines).toBe(l.parsed + l.unparsed + l.blank + l.malformed + l.oversized);
  return { records, malformed, oversized, ledger: l };
}

describe('LineReader', () => {
  it('keeps physical line numbers and parses only needle lines', () => {
    const { records, ledger } = read(['{"event":"llm:request"}\n{"event":"tool:pre"}\n\n{"event":"llm:response"}\n']);
    expect(records.map((r) => r[0])).toEqual([1, 4]);
    expect(ledger).toMatchObject({ lines: 4, parsed: 2, unparsed: 1, blank: 1 });
  });

  it('joins lines split across chunks, at any byte', () => {
    const text = '{"event":"llm:request","x":"héllo"}\n{"event":"llm:response"}\n';
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const { records } = read([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(records.map((r) => r[0])).toEqual([1, 2]);
      expect((records[0]![1] as { x: string }).x).toBe('héllo');
    }
  });

  it('strips a BOM on line 1 and accepts CRLF', () => {
    const { records, ledger } = read(['\ufeff{"event":"llm:request"}\r\n\r\n{"event":"llm:response"}\r\n']);
    expect(records.map((r) => r[0])).toEqual([1, 3]);
    expect(ledger.blank).toBe(1);
  });

  it('strips a BOM cut across chunks (a pipe delivering 0xEF alone) exactly as a whole one', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const body = Buffer.from('{"event":"llm:request"}\r\n\r\n{"event":"llm:response"}\n');
    const input = Buffer.concat([bom, body]);
    const whole = read([input], { all: true });
    expect(whole.records.map((r) => r[0])).toEqual([1, 3]);
    expect(whole.malformed).toEqual([]);
    expect(whole.ledger.bytes).toBe(input.length);
    const bytes = (b: Buffer, from = 0, to = b.length) => Array.from(b.subarray(from, to), (x) => Buffer.from([x]));
    const cuts = [
      bytes(input), // 1-byte chunks
      [...bytes(input, 0, 3), input.subarray(3)], // 0xEF, 0xBB, 0xBF, the rest
      [input.subarray(0, 1), input.subarray(1)], // 0xEF, then 0xBB 0xBF and the rest
      [input.subarray(0, 2), input.subarray(2)], // 0xEF 0xBB, then 0xBF and the rest
      [Buffer.alloc(0), input.subarray(0, 1), Buffer.alloc(0), input.subarray(1, 2), input.subarray(2)], // empty reads between
    ];
    for (const chunks of cuts) expect(read(chunks, { all: true }), `${chunks.length} chunks`).toEqual(whole);
    // A line 1 as long as the limit: the BOM's bytes held from earlier chunks do not make it
    // oversized; a limit below 3 bytes, which they pass, neither.
    const lf = Buffer.concat([bom, Buffer.from('{"event":"llm:request"}\n{}\n')]);
    for (const max of [lf.indexOf(0x0a) - 3, 2, 1]) expect(read(bytes(lf), { all: true, max }), `limit ${max}`).toEqual(read([lf], { all: true, max }));
    expect(read(bytes(lf), { all: true, max: lf.indexOf(0x0a) - 3 }).oversized).toEqual([]);
    expect(read(bytes(lf), { all: true, max: 2 }).oversized).toEqual([1]);
  });

  it('leaves the bytes alone when the input starts with 0xEF not followed by 0xBB 0xBF, however the reads cut it', () => {
    const body = '{"event":"llm:request"}\n{"event":"llm:response"}\n';
    for (const head of [[0xef], [0xef, 0xbb], [0xef, 0x0a], [0xef, 0xbb, 0x0a], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], [0xbb, 0xbf]]) {
      const input = Buffer.concat([Buffer.from(head), Buffer.from(body)]);
      const whole = read([input], { all: true });
      expect(whole.malformed.length, head.join(' ')).toBeGreaterThan(0); // line 1 keeps its stray bytes
      expect(read(Array.from(input, (x) => Buffer.from([x])), { all: true }), head.join(' ')).toEqual(whole);
      expect(read([input.subarray(0, 1), input.subarray(1)], { all: true }), head.join(' ')).toEqual(whole);
    }
    // An input that is only the start of a BOM: one line holding those bytes, as read whole.
    for (const only of [[0xef], [0xef, 0xbb]]) {
      const whole = read([Buffer.from(only)], { all: true });
      expect(whole.malformed).toEqual([[1, 'truncated']]);
      expect(read(only.map((x) => Buffer.from([x])), { all: true })).toEqual(whole);
    }
    // With the BOM alone the input is empty, however it is cut.
    expect(read([Buffer.from([0xef]), Buffer.from([0xbb]), Buffer.from([0xbf])]).ledger).toMatchObject({ lines: 0, bytes: 3 });
  });

  it('counts malformed lines mid-file and a truncated last line', () => {
    const { records, malformed } = read(['{"event":"llm:request"}\n{"event":"llm:oops\n{"event":"llm:response"}\n{"event":"llm:resp']);
    expect(records.map((r) => r[0])).toEqual([1, 3]);
    expect(malformed).toEqual([
      [2, 'invalid-json'],
      [4, 'truncated'],
    ]);
  });

  it('a truncated last line without a needle is still malformed', () => {
    const { malformed } = read(['{"event":"llm:request"}\n{"event":"tool:p']);
    expect(malformed).toEqual([[2, 'truncated']]);
  });

  it('skips an oversized line without buffering it, in one chunk or many', () => {
    const big = `{"event":"llm:request","pad":"${'x'.repeat(5000)}"}`;
    const one = read([`{"event":"llm:request"}\n${big}\n{"event":"llm:response"}\n`]);
    expect(one.oversized).toEqual([2]);
    expect(one.records.map((r) => r[0])).toEqual([1, 3]);
    const pieces = [`{"event":"llm:request"}\n`, ...big.match(/.{1,300}/gs)!, '\n{"event":"llm:response"}\n'];
    const many = read(pieces);
    expect(many.oversized).toEqual([2]);
    expect(many.records.map((r) => r[0])).toEqual([1, 3]);
    const tail = read([`{"event":"llm:request"}\n`, ...big.match(/.{1,300}/gs)!]);
    expect(tail.oversized).toEqual([2]);
  });

  it('--validate-all parses every line', () => {
    const { malformed, ledger } = read(['{"event":"tool:pre"}\nnot json\n'], { all: true });
    expect(ledger.parsed).toBe(1);
    expect(malformed).toEqual([[2, 'invalid-json']]);
  });

  it('a needle must lie inside the line', () => {
    // The next occurrence lies in a later line: the lines before it are not matches.
    const { records, ledger } = read(['{"a":1}\n{"b":2}\n{"event":"llm:x"}\n{"c":3}\n'], { needles: ['"llm:'] });
    expect(records.map((r) => r[0])).toEqual([3]);
    expect(ledger.unparsed).toBe(3);
  });

  it('parses exactly the lines holding a needle, whichever bytes each chunk makes the probes start at', () => {
    let seed = 11;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const needles = ['"llm:request"', '"llm:response"', '"provider:', '"q'];
    const words = ['"llm:request"', '"llm:response"', '"provider:x"', '"llm:re"', '"q"', 'qqq', 'mmm', ':::', 'zz', '"'];
    for (let round = 0; round < 100; round++) {
      const lines = Array.from({ length: 1 + rnd(20) }, () => `{"a":[${Array.from({ length: rnd(5) }, () => JSON.stringify(words[rnd(words.length)])).join(',')}]}`);
      const text = lines.join('\n') + '\n';
      const cut = rnd(text.length);
      const { records } = read([text.slice(0, cut), text.slice(cut)], { needles });
      const want = lines.flatMap((l, i) => (needles.some((n) => l.includes(n)) ? [i + 1] : []));
      expect(records.map((r) => r[0])).toEqual(want);
    }
  });

  it('hands a line its first rule claims over whole, with the pruning the later handlers read (recordClaimed)', () => {
    const spec = { tree: { event: true as const, a: true as const } };
    const lines = '{"event":"x","a":1,"b":2}\n{"event":"y","a":1,"b":2}\n{"event":"x","a":1,"b":"é"}\n';
    const run = (claimed: boolean) => {
      const got: Array<[number, unknown, unknown]> = [];
      const sink: LineSink = {
        record: (v, line) => got.push([line, v, null]),
        malformed: () => {},
        oversized: () => {},
        ...(claimed ? { recordClaimed: (v: unknown, line: number, _raw: Buffer, keep: (v: unknown) => unknown) => got.push([line, v, keep(v)]) } : {}),
      };
      const r = new LineReader({
        // With no needle every line is parsed whole (validate-all): no classifier.
        needles: [Buffer.from('"x"')],
        maxLineBytes: 1024,
        validateAll: false,
        sink,
        keep: keepFunction({ tree: { event: true, a: true, b: true } }),
        classify: [{ key: 'event', values: ['x'], other: 'unclaimed', absent: 'unclaimed', profile: 'p' }],
        keeps: keepFunctions({ p: spec }),
      });
      r.push(Buffer.from(lines));
      r.end();
      return got;
    };
    // Without the method (a worker's sink): pruned by the first profile's keep, as before.
    expect(run(false)).toEqual([
      [1, { event: 'x', a: 1 }, null],
      [3, { event: 'x', a: 1 }, null],
    ]);
    // With it: the ASCII line whole, with that same pruning for later handlers; a non-ASCII one
    // (pruned from its latin1 reading) as before. Line 2, which no rule claims, is not read.
    expect(run(true)).toEqual([
      [1, { event: 'x', a: 1, b: 2 }, { event: 'x', a: 1 }],
      [3, { event: 'x', a: 1 }, null],
    ]);
  });
});
