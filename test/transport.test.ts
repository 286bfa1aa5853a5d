/**
 * Broken transport: corrupt and truncated gzip, a read that fails mid-stream, a file that
 * vanishes mid-run, directories with unreadable entries, non-UTF-8 bytes, deep nesting. What was
 * read is analyzed; the failure is an INPUT_ERROR (error severity) with path and byte offset; a
 * path missing at start is exit 2.
 */
import { execFileSync, spawn } from 'node:child_process';
import { promises as fsp, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyze } from '../src/analyze.js';
import { ledgerViolations, type Report } from '../src/report/report.js';
import { amp, BIN, resetClock, ROOT, runCli, tmpDir, withoutGateLine } from './helpers.js';

function capture(n: number): string {
  resetClock();
  const lines: string[] = [];
  for (let k = 0; k < n; k++) {
    lines.push(JSON.stringify(amp({ event: 'llm:request', id: `r${k}`, provider: 'anthropic', model: 'm', caller: 'agent' })));
    lines.push(JSON.stringify(amp({ event: 'llm:response', id: `r${k}`, provider: 'anthropic', model: 'm', caller: 'agent', status: 'ok' })));
  }
  return lines.join('\n') + '\n';
}

function inputErrors(r: Report) {
  return r.findings.filter((f) => f.code === 'INPUT_ERROR');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('corrupt and truncated gzip', () => {
  const text = capture(3000);
  const gz = gzipSync(Buffer.from(text));
  const totalLines = 6000;

  it('a truncated .gz: the lines before the cut are analyzed; INPUT_ERROR with path and byte offset', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'cut.jsonl.gz');
    writeFileSync(file, gz.subarray(0, Math.floor(gz.length / 2)));
    const r = await analyze({ inputs: [file] });
    expect(ledgerViolations(r)).toEqual([]);
    const i = r.inputs[0]!;
    expect(i.gzip).toBe(true);
    expect(i.lines).toBeGreaterThan(100);
    expect(i.lines).toBeLessThan(totalLines);
    expect(r.channels[0]!.pairs.total).toBeGreaterThan(50);
    const [e, ...more] = inputErrors(r);
    expect(more).toEqual([]);
    expect(e!.severity).toBe('error');
    expect(e!.code === 'INPUT_ERROR' && e!.data.path).toBe(file);
    expect(e!.code === 'INPUT_ERROR' && e!.data.byteOffset).toBeGreaterThan(0);
    expect(e!.locations[0]!.path).toBe(file);
    expect(e!.message).toMatch(/read failed at byte \d+: .*gzip/);
  });

  it('a corrupt .gz (bytes overwritten mid-stream): what was read is kept, the run goes on to the next input', async () => {
    const dir = tmpDir();
    const bad = Buffer.from(gz);
    bad.fill(0x5a, Math.floor(bad.length / 2), Math.floor(bad.length / 2) + 64);
    const file = path.join(dir, 'corrupt.jsonl.gz');
    const next = path.join(dir, 'next.jsonl');
    writeFileSync(file, bad);
    writeFileSync(next, capture(2));
    const r = await analyze({ inputs: [file, next] });
    expect(ledgerViolations(r)).toEqual([]);
    expect(r.inputs[0]!.lines).toBeGreaterThan(0);
    expect(r.inputs[1]!.lines).toBe(4);
    const errs = inputErrors(r);
    expect(errs).toHaveLength(1);
    expect(errs[0]!.code === 'INPUT_ERROR' && errs[0]!.data.path).toBe(file);
  });

  it('through the CLI: exit 1 (an error finding fails the gate), the report still written, no stack trace', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'cut.jsonl.gz');
    writeFileSync(file, gz.subarray(0, 300));
    const res = await runCli(['analyze', '--format', 'json', file]);
    expect(res.code).toBe(1);
    expect(withoutGateLine(res.stderr)).toBe('');
    const r = JSON.parse(res.stdout) as Report;
    expect(r.findingCounts.INPUT_ERROR).toBe(1);
  });
});

describe('a read that fails mid-stream', () => {
  it('a stdin stream that errors after two chunks: both chunks analyzed, INPUT_ERROR at the byte offset reached', async () => {
    const lines = capture(10);
    const a = Buffer.from(lines.slice(0, 1000));
    const b = Buffer.from(lines.slice(1000, 1500));
    let n = 0;
    const stdin = new Readable({
      read() {
        n++;
        if (n === 1) this.push(a);
        else if (n === 2) this.push(b);
        else this.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
      },
    });
    const r = await analyze({ inputs: ['-'], stdin });
    expect(ledgerViolations(r)).toEqual([]);
    const i = r.inputs[0]!;
    expect(i.bytes).toBe(1500);
    // Complete lines are records; the cut last line is counted (malformed: truncated).
    expect(i.lines).toBe(lines.slice(0, 1500).split('\n').length);
    expect(i.malformed).toBe(1);
    const [e] = inputErrors(r);
    expect(e!.code === 'INPUT_ERROR' && e!.data).toEqual({ error: 'EIO: i/o error, read', byteOffset: 1500, path: '-' });
    expect(e!.severity).toBe('error');
  });

  it('a file that vanishes between resolution and read (while an earlier FIFO input is still being read)', async () => {
    const dir = tmpDir();
    const fifo = path.join(dir, 'live.jsonl');
    const gone = path.join(dir, 'gone.jsonl');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(gone, capture(1));
    const child = spawn(process.execPath, [BIN, 'analyze', '--format', 'json', fifo, gone], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const done = new Promise<number | null>((res) => child.on('close', (c) => res(c)));
    const w = await fsp.open(fifo, 'w'); // blocks until callpair opens the FIFO
    await w.write(capture(3));
    await fsp.unlink(gone); // gone vanishes mid-run
    await w.close();
    const code = await done;
    expect(withoutGateLine(Buffer.concat(err).toString())).toBe('');
    expect(code).toBe(1);
    const r = JSON.parse(Buffer.concat(out).toString()) as Report;
    expect(ledgerViolations(r)).toEqual([]);
    expect(r.inputs[0]!.lines).toBe(6);
    expect(r.channels[0]!.pairs.total).toBe(3);
    const [e] = inputErrors(r);
    expect(e!.code === 'INPUT_ERROR' && e!.data.path).toBe(gone);
    expect(e!.code === 'INPUT_ERROR' && e!.data.byteOffset).toBe(0);
    expect(e!.message).toContain('ENOENT');
  });
});

describe('directories with unreadable entries', () => {
  it('dangling symlinks, FIFOs, sockets and links to directories are INPUT_ERRORs; the readable files are analyzed', async () => {
    const dir = tmpDir();
    const root = path.join(dir, 'caps');
    mkdirSync(root);
    writeFileSync(path.join(root, 'a.jsonl'), capture(2));
    symlinkSync('/nonexistent/callpair', path.join(root, 'dangling.jsonl'));
    symlinkSync('.', path.join(root, 'loop.jsonl'));
    execFileSync('mkfifo', [path.join(root, 'pipe.jsonl')]);
    const server = createServer();
    await new Promise<void>((res) => server.listen(path.join(root, 'sock.ndjson'), res));
    try {
      const r = await analyze({ inputs: [root] });
      expect(ledgerViolations(r)).toEqual([]);
      expect(r.channels[0]!.pairs.total).toBe(2);
      const paths = inputErrors(r)
        .map((f) => (f.code === 'INPUT_ERROR' ? f.data.path : ''))
        .sort();
      expect(paths).toEqual(['dangling.jsonl', 'loop.jsonl', 'pipe.jsonl', 'sock.ndjson'].map((n) => path.join(root, n)));
      for (const f of inputErrors(r)) expect(f.severity).toBe('error');
    } finally {
      server.close();
    }
  });

  it('a subdirectory whose listing fails (the walker error path) is an INPUT_ERROR; its siblings are read', async () => {
    const dir = tmpDir();
    const root = path.join(dir, 'caps');
    mkdirSync(path.join(root, 'locked'), { recursive: true });
    writeFileSync(path.join(root, 'locked', 'hidden.jsonl'), capture(1));
    writeFileSync(path.join(root, 'b.jsonl'), capture(1));
    // Root reads every directory, so the failure is injected at readdir.
    const real = fsp.readdir;
    vi.spyOn(fsp, 'readdir').mockImplementation((async (p: string, o: unknown) => {
      if (String(p).endsWith('locked')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      return (real as (p: string, o: unknown) => Promise<unknown>)(p, o);
    }) as typeof fsp.readdir);
    const r = await analyze({ inputs: [root] });
    expect(r.inputs.map((i) => path.basename(i.path))).toEqual(['b.jsonl']);
    const [e] = inputErrors(r);
    expect(e!.code === 'INPUT_ERROR' && e!.data.path).toBe(path.join(root, 'locked'));
    expect(e!.message).toContain('EACCES');
  });
});

describe('bytes that are not UTF-8, and deep nesting', () => {
  it('invalid UTF-8 inside strings is replaced (U+FFFD), outside strings the line is malformed; every line counted', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'latin1.jsonl');
    const bytes = Buffer.concat([
      Buffer.from('{"event":"llm:request","session_id":"s\xe9","request_id":"r1","data":{"caller":"caf', 'latin1'),
      Buffer.from([0xe9, 0xc3, 0x28, 0xf0, 0x9f]),
      Buffer.from('"}}\n'),
      Buffer.from([0xff, 0xfe, 0x7b]),
      Buffer.from('"event":"llm:response"}\n'),
      Buffer.from('{"event":"llm:response","session_id":"s\xe9","request_id":"r1"}\n', 'latin1'),
      Buffer.from([0x80, 0x81, 0x0a, 0xc0, 0xaf, 0x0a]),
    ]);
    writeFileSync(file, bytes);
    const r = await analyze({ inputs: [file], validateAll: true });
    expect(ledgerViolations(r)).toEqual([]);
    const i = r.inputs[0]!;
    expect(i.lines).toBe(5);
    expect(i.malformed).toBe(3);
    expect(r.channels[0]!.pairs.byMethod.id).toBe(1);
    expect(r.channels[0]!.scopes[0]!.scope).toBe('s\ufffd');
  });

  it('deeply nested JSON (50 000 levels, far past the stack) in a needle line and in a JSON document: counted, never a crash', async () => {
    const dir = tmpDir();
    const d = 50_000;
    const deep = `${'['.repeat(d)}${']'.repeat(d)}`;
    const deepObj = `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`;
    const jsonl = path.join(dir, 'deep.jsonl');
    writeFileSync(
      jsonl,
      [
        `{"event":"llm:request","session_id":"s","request_id":${deep},"data":${deepObj}}`,
        `{"event":"llm:response","session_id":"s","data":{"caller":${deepObj}}}`,
        deep,
        `{"event":"llm:request","session_id":${deepObj}}`,
        `{"event":"llm:x","x":${'['.repeat(d)}`,
      ].join('\n') + '\n',
    );
    const r = await analyze({ inputs: [jsonl], validateAll: true });
    expect(ledgerViolations(r)).toEqual([]);
    const i = r.inputs[0]!;
    expect(i.lines).toBe(5);
    expect(i.records + i.malformed).toBe(5);
    expect(r.findings.filter((f) => f.code === 'MALFORMED_LINE' && f.data.reason === 'unusable')).toEqual([]);
    expect(r.findingCounts.INVALID_ID).toBe(1);
    expect(inputErrors(r)).toEqual([]);

    const doc = path.join(dir, 'deep.json');
    writeFileSync(doc, `[\n{"event":"llm:request","session_id":"a","request_id":${deep}},\n{"event":"llm:request","session_id":"b"}\n]\n`);
    const r2 = await analyze({ inputs: [doc] });
    expect(ledgerViolations(r2)).toEqual([]);
    expect(r2.inputs[0]!.records).toBe(2);
    expect(r2.channels[0]!.requests).toBe(2);
    // Through the binary too: exit 0, no stack trace.
    const res = await runCli(['analyze', jsonl, doc]);
    expect(withoutGateLine(res.stderr)).toBe('');
    expect(res.code).toBe(0);
  });
});

describe('a path that does not exist at start', () => {
  it('is exit 2 with one line on stderr and no report, even beside readable inputs', async () => {
    const dir = tmpDir();
    const ok = path.join(dir, 'ok.jsonl');
    writeFileSync(ok, capture(1));
    const res = await runCli(['analyze', '--format', 'json', ok, path.join(dir, 'missing.jsonl')]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('missing.jsonl');
  });
});
