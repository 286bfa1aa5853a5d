import { mkdirSync, readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { ledgerViolations, type Report } from '../src/report/report.js';
import { BIN, fixture, runCli, tmpDir, withoutGateLine } from './helpers.js';

/** Totals that must not depend on how the capture is packaged. */
function totals(r: Report) {
  return r.channels.map((c) => ({
    channel: c.channel,
    requests: c.requests,
    terminals: c.terminals,
    pairs: c.pairs,
    orphanRequests: c.orphanRequests,
    orphanResponses: c.orphanResponses,
    crossed: c.crossed,
    maxInFlight: c.maxInFlight,
    latencyMs: c.latencyMs && { ...c.latencyMs, minAt: null, maxAt: null },
    scopes: c.scopes.map((s) => ({ scope: s.scope, pairs: s.pairs, crossed: s.crossed, orphanRequests: s.orphanRequests })),
  }));
}

/** A small multi-session capture: two sessions, overlapping calls, an orphan. */
function multiSession(): string[] {
  const lines: string[] = [];
  let t = Date.parse('2026-09-01T00:00:00Z');
  const at = () => new Date((t += 7)).toISOString();
  for (const s of ['s-1', 's-2', 's-3']) {
    for (let i = 0; i < 5; i++) {
      const a = `${s}-a${i}`;
      const b = `${s}-b${i}`;
      lines.push(JSON.stringify({ ts: at(), event: 'llm:request', session_id: s, request_id: a, data: { provider: 'p', model: 'big', caller: 'agent' } }));
      lines.push(JSON.stringify({ ts: at(), event: 'llm:request', session_id: s, request_id: i % 2 ? b : null, data: { provider: 'p', model: 'small', caller: 'bg' } }));
      lines.push(JSON.stringify({ ts: at(), event: 'tool:pre', session_id: s, data: { tool: 'x' } }));
      lines.push(JSON.stringify({ ts: at(), event: 'llm:response', session_id: s, request_id: i % 2 ? b : null, status: 'ok', data: { provider: 'p', model: 'small' } }));
      lines.push(JSON.stringify({ ts: at(), event: 'llm:response', session_id: s, request_id: a, status: 'ok', data: { provider: 'p', model: 'big' } }));
    }
    lines.push(JSON.stringify({ ts: at(), event: 'llm:request', session_id: s, request_id: `${s}-orphan`, data: { provider: 'p', model: 'big' } }));
  }
  return lines;
}

describe('the same capture, packaged four ways', () => {
  it('one file, .gz, stdin, and one file per session in a tree give identical totals', async () => {
    const dir = tmpDir();
    const lines = multiSession();
    const text = lines.join('\n') + '\n';
    const file = path.join(dir, 'all.jsonl');
    writeFileSync(file, text);
    const gz = path.join(dir, 'all.jsonl.gz');
    writeFileSync(gz, gzipSync(text));
    const tree = path.join(dir, 'tree');
    for (const s of ['s-1', 's-2', 's-3']) {
      mkdirSync(path.join(tree, 'sessions', s), { recursive: true });
      writeFileSync(path.join(tree, 'sessions', s, 'events.jsonl'), lines.filter((l) => l.includes(`"session_id":"${s}"`)).join('\n') + '\n');
    }
    const noExt = path.join(dir, 'capture-gzipped-without-extension');
    writeFileSync(noExt, gzipSync(text));

    const a = await analyze({ inputs: [file] });
    const b = await analyze({ inputs: [gz] });
    const c = await runCli(['analyze', '--format', 'json', '-'], { stdin: text });
    const d = await analyze({ inputs: [tree] });
    const e = await analyze({ inputs: [noExt] });
    const f = await analyze({ inputs: [path.join(tree, 'sessions/*/events.jsonl')] });
    expect(a.channels[0]!.pairs.total).toBe(30);
    expect(a.channels[0]!.orphanRequests).toBe(3);
    for (const other of [b, JSON.parse(c.stdout) as Report, d, e, f]) expect(totals(other)).toEqual(totals(a));
    expect(b.inputs[0]!.gzip).toBe(true);
    expect(d.inputs.map((i) => path.relative(tree, i.path))).toEqual(['sessions/s-1/events.jsonl', 'sessions/s-2/events.jsonl', 'sessions/s-3/events.jsonl']);
    for (const r of [a, b, d, e, f]) expect(ledgerViolations(r)).toEqual([]);
  });
});

describe('dirty input', () => {
  it('BOM, CRLF, blanks, malformed lines mid-file, a truncated last line, and a 70 MB line over a 64 MB limit', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'dirty.jsonl');
    const ws = createWriteStream(file);
    const put = async (s: string | Buffer) => {
      if (!ws.write(s)) await once(ws, 'drain');
    };
    await put('\ufeff{"event":"llm:request","session_id":"S","request_id":"a","data":{"provider":"p"}}\r\n'); // 1
    await put('\r\n'); // 2 blank
    await put('{"event":"llm:request","session_id":"S","request_id":"b", BROKEN\r\n'); // 3 malformed
    await put('{"event":"llm:request","session_id":"S","request_id":"c","data":{"provider":"p","raw":"'); // 4 oversized
    const mb = Buffer.alloc(1024 * 1024, 0x78);
    for (let i = 0; i < 70; i++) await put(mb);
    await put('"}}\n');
    await put('   \n'); // 5 blank
    await put('{"event":"llm:response","session_id":"S","request_id":"a","status":"ok","data":{"provider":"p"}}\n'); // 6
    await put('{"event":"tool:pre","session_id":"S"}\n'); // 7 ignored
    await put('{"event":"llm:response","session_id":"S","request_id":"c","sta'); // 8 truncated
    ws.end();
    await once(ws, 'finish');

    const r = await analyze({ inputs: [file] });
    const i = r.inputs[0]!;
    expect(i).toMatchObject({ lines: 8, records: 3, blank: 2, malformed: 2, oversized: 1, ignored: 1, used: 2 });
    expect(ledgerViolations(r)).toEqual([]);
    const where = (code: string) => r.findings.filter((f) => f.code === code).map((f) => f.locations[0]!.line);
    expect(where('MALFORMED_LINE')).toEqual([3, 8]);
    expect(where('OVERSIZED_LINE')).toEqual([4]);
    expect(r.channels[0]!.pairs.byMethod.id).toBe(1);
  }, 60_000);
});

describe('a BOM cut across reads of stdin', () => {
  it('is dropped as a whole one is: JSONL (--jobs 1 and 2) and a JSON document, read a byte at a time', async () => {
    // Object mode: each Buffer is one read, as a pipe may deliver 0xEF alone.
    const reads = (buf: Buffer, size: number) => Readable.from(Array.from({ length: Math.ceil(buf.length / size) }, (_, i) => buf.subarray(i * size, (i + 1) * size)), { objectMode: true });
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const seed = readFileSync(fixture('seed-trace.jsonl'));
    const records = seed.toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    const inputs: Array<[string, Buffer]> = [
      ['jsonl', Buffer.concat([bom, seed])],
      ['json', Buffer.concat([bom, Buffer.from(`${JSON.stringify(records, null, 1)}\n`)])],
    ];
    for (const [format, buf] of inputs) {
      for (const jobs of [1, 2]) {
        const what = `${format}, --jobs ${jobs}`;
        const whole = await analyze({ inputs: ['-'], stdin: reads(buf, buf.length), validateAll: true, jobs });
        expect(whole.inputs[0]!.format, what).toBe(format);
        expect(whole.totals, what).toMatchObject({ malformed: 0, records: 8 });
        for (const size of [1, 2]) expect(await analyze({ inputs: ['-'], stdin: reads(buf, size), validateAll: true, jobs }), `${what}, reads of ${size}`).toEqual(whole);
      }
    }
  });
});

describe('CRLF lines at --max-line-bytes, cut anywhere by the reads', () => {
  it('a line of exactly the bound plus its CR is read, one byte longer is oversized (with the same byte count), whatever the reads and --jobs', async () => {
    const reads = (buf: Buffer, size: number) => Readable.from(Array.from({ length: Math.ceil(buf.length / size) }, (_, i) => buf.subarray(i * size, (i + 1) * size)), { objectMode: true });
    const max = 120;
    const line = (id: string, event: string, len: number) => {
      const base = JSON.stringify({ event, session_id: 'S', request_id: id, pad: '' });
      return base.replace('"pad":""', `"pad":"${'x'.repeat(len - base.length)}"`);
    };
    const text = [line('a', 'llm:request', max), line('a', 'llm:response', max), line('b', 'llm:request', max + 1), line('b', 'llm:response', max - 1)].join('\r\n');
    for (const last of ['\r\n', '\r', '']) {
      const buf = Buffer.from(text + last);
      for (const jobs of [1, 2]) {
        const whole = await analyze({ inputs: ['-'], stdin: reads(buf, buf.length), maxLineBytes: max, jobs });
        const what = `ending ${JSON.stringify(last)}, --jobs ${jobs}`;
        expect(whole.totals, what).toMatchObject({ oversized: 1 });
        expect(whole.findings.filter((f) => f.code === 'OVERSIZED_LINE').map((f) => [f.locations[0]!.line, f.data]), what).toEqual([[3, { bytes: max + 1, limit: max }]]);
        for (const size of [1, 7, max - 1, max, max + 1, max + 2]) expect(await analyze({ inputs: ['-'], stdin: reads(buf, size), maxLineBytes: max, jobs }), `${what}, reads of ${size}`).toEqual(whole);
      }
    }
  });
});

describe('JSON documents', () => {
  it('a top-level array and concatenated pretty-printed values, with the line each record starts on', async () => {
    const dir = tmpDir();
    const recs = [
      { event: 'llm:request', session_id: 'S', request_id: 'a', data: { provider: 'p' } },
      { event: 'llm:response', session_id: 'S', request_id: 'a', status: 'ok', data: { provider: 'p' } },
    ];
    const arr = path.join(dir, 'arr.json');
    writeFileSync(arr, JSON.stringify(recs, null, 2));
    const cat = path.join(dir, 'cat.json');
    writeFileSync(cat, recs.map((r) => JSON.stringify(r, null, 2)).join('\n'));
    for (const f of [arr, cat]) {
      const pairs: number[][] = [];
      const r = await analyze({ inputs: [f], onPair: (p) => pairs.push([p.request.loc.line, p.terminal.loc.line]) });
      expect(r.inputs[0]!.format).toBe('json');
      expect(r.channels[0]!.pairs.byMethod.id).toBe(1);
      expect(pairs).toEqual(f === arr ? [[2, 10]] : [[1, 9]]);
    }
  });
});

describe('the CLI', () => {
  it('`| head -1` ends quietly, with no stack trace', () => {
    const r = spawnSync('bash', ['-c', `node ${BIN} analyze --format json ${fixture('seed-trace.jsonl')} | head -1`], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.stdout.trim()).toBe('{');
    expect(withoutGateLine(r.stderr)).toBe('');
  });

  it('a glob that matches nothing and an unknown profile exit 2 with one line', async () => {
    const g = await runCli(['analyze', 'nothing-here/*.jsonl']);
    expect(g.code).toBe(2);
    expect(g.stderr.trim().split('\n')).toHaveLength(1);
    const p = await runCli(['analyze', '--profile', 'nope', 'fixtures/seed-trace.jsonl']);
    expect(p.code).toBe(2);
    expect(p.stderr).toContain('unknown profile');
  });

  it('--output writes the report to a file', async () => {
    const out = path.join(tmpDir(), 'r.json');
    const r = await runCli(['analyze', '-f', 'json', '-o', out, 'fixtures/seed-trace.jsonl']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8')).channels[0].crossed.fifo).toBe(2);
  });
});
