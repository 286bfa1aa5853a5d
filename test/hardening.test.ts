/**
 * Issue 16 (input and output hardening): one named test per item, each of which failed before the
 * fix. Outputs never destroy an input and fail with one line and exit 2; hostile inputs (mixed gzip
 * members, `[` first, huge document strings, special files, odd names and encodings) are read as
 * far as they can be and said to be what they are.
 */
import { execFileSync, spawn } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { analyze } from '../src/analyze.js';
import type { Report } from '../src/report/report.js';
import { BIN, fixture, ROOT, runCli, tmpDir, withoutGateLine, writeCapture } from './helpers.js';

/** A child's stdout is read, its stderr (the gate's verdict line) kept out of the test output. */
const QUIET: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];

const SEED = readFileSync(fixture('seed-trace.jsonl'));

function seedCopy(dir = tmpDir(), name = 'x.jsonl'): string {
  const p = path.join(dir, name);
  writeFileSync(p, SEED);
  return p;
}

/** One line on stderr, no stack trace, no raw control character. */
function expectOneLine(stderr: string): void {
  expect(stderr.endsWith('\n'), stderr).toBe(true);
  expect(stderr.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('item 3: an output that is an input is refused before anything is written', () => {
  it('pairs x.jsonl -o x.jsonl: exit 2, one line, the capture untouched', async () => {
    const x = seedCopy();
    const res = await runCli(['pairs', x, '-o', x]);
    expect(res.code).toBe(2);
    expectOneLine(res.stderr);
    expect(res.stderr).toMatch(/same file as the input/);
    expect(readFileSync(x)).toEqual(SEED);
  });

  it('hard links, symlinks, --report, directories of inputs, --caller and stdin all count', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir);
    linkSync(x, path.join(dir, 'hard.json'));
    symlinkSync(x, path.join(dir, 'sym.json'));
    const cases: string[][] = [
      ['analyze', x, '-o', path.join(dir, 'hard.json')],
      ['analyze', x, '--report', `json=${path.join(dir, 'sym.json')}`],
      ['analyze', dir, '--report', `sarif=${x}`],
      ['compare', x, '-o', path.join(dir, 'sym.json')],
      ['analyze', '--profile', 'assay', '--caller', x, fixture('seed-trace.jsonl'), '-o', x],
    ];
    for (const args of cases) {
      const res = await runCli(args);
      expect(res.code, args.join(' ')).toBe(2);
      expectOneLine(res.stderr);
      expect(res.stderr).toMatch(/same file as the input/);
    }
    // stdin redirected from the file (`compare - -o x.jsonl < x.jsonl`)
    const code = execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" compare - -o "${x}" < "${x}" 2>/dev/null; echo $?`]).toString().trim();
    expect(code).toBe('2');
    // stdout appended to the input (`pairs x.jsonl >> x.jsonl` would read its own output)
    const append = execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" pairs "${x}" >> "${x}" 2>/dev/null; echo $?`]).toString().trim();
    expect(append).toBe('2');
    expect(readFileSync(x)).toEqual(SEED);
    expect(statSync(x).nlink).toBe(2);
  });

  it('outputs go through a temporary file renamed into place: no temporary is left, a symlink target is replaced, not the link', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir, 'in.jsonl');
    const real = path.join(dir, 'real.json');
    writeFileSync(real, 'old');
    symlinkSync(real, path.join(dir, 'link.json'));
    const res = await runCli(['analyze', '--format', 'json', x, '-o', path.join(dir, 'link.json'), '--report', `markdown=${path.join(dir, 'r.md')}`]);
    expect(withoutGateLine(res.stderr)).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(readFileSync(real, 'utf8')).schema).toBeDefined();
    expect(readdirSync(dir).sort()).toEqual(['in.jsonl', 'link.json', 'r.md', 'real.json']);
  });
});

describe('item 12: any output failure is one line on stderr and exit 2', () => {
  it('-o under a file, -o /dev/full, --report json=/dev/full, -o a directory, for every command', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir);
    const notDir = path.join(dir, 'plain');
    writeFileSync(notDir, 'x');
    const bad = [
      ['-o', path.join(notDir, 'd', 'x')],
      ['-o', '/dev/full'],
      ['-o', dir],
    ];
    for (const cmd of ['analyze', 'compare', 'pairs']) {
      for (const o of bad) {
        const res = await runCli([cmd, x, ...o]);
        expect(res.code, `${cmd} ${o.join(' ')}: ${res.stderr}`).toBe(2);
        expectOneLine(res.stderr);
        expect(res.stdout).toBe('');
      }
    }
    for (const fmt of ['json', 'markdown', 'sarif']) {
      const res = await runCli(['analyze', x, '--report', `${fmt}=/dev/full`]);
      expect(res.code).toBe(2);
      expectOneLine(res.stderr);
      expect(res.stderr).toMatch(/ENOSPC/);
    }
    const summary = await runCli(['analyze', x, '--step-summary'], { env: { GITHUB_STEP_SUMMARY: '/dev/full' } });
    expect(summary.code).toBe(2);
    expectOneLine(summary.stderr);
    expect(readdirSync(dir).sort()).toEqual(['plain', 'x.jsonl']);
  });

  it('a missing output folder is created (as --report does); /dev/null is written in place', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir);
    for (const cmd of ['analyze', 'compare', 'pairs']) {
      const out = path.join(dir, cmd, 'deep', 'out.txt');
      const res = await runCli([cmd, x, '-o', out]);
      expect(res.code, res.stderr).toBe(0);
      expect(statSync(out).size).toBeGreaterThan(0);
      expect((await runCli([cmd, x, '-o', '/dev/null'])).code).toBe(0);
    }
  });
});

function inputErrors(r: Report) {
  return r.findings.filter((f) => f.code === 'INPUT_ERROR');
}

function waitExit(child: ReturnType<typeof spawn>): Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }> {
  return new Promise((res) => child.on('exit', (code, signal) => res({ code, signal, at: Date.now() })));
}

describe('item 10: SIGINT while blocked opening a FIFO', () => {
  it('exits 130 within a second, reading from or writing to a FIFO nobody opens', async () => {
    const dir = tmpDir();
    const fifo = path.join(dir, 'wait.jsonl');
    execFileSync('mkfifo', [fifo]);
    const x = seedCopy(dir);
    for (const args of [['analyze', fifo], ['pairs', x, '-o', fifo]]) {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = waitExit(child);
      await new Promise((r) => setTimeout(r, 1500));
      expect(child.exitCode, stderr).toBeNull();
      const sent = Date.now();
      child.kill('SIGINT');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      const { code, signal, at } = await exited;
      clearTimeout(killer);
      const seen = `${args.join(' ')}: exit ${code} signal ${signal} after ${at - sent} ms, stderr ${JSON.stringify(stderr)}`;
      expect(code === 130 || signal === 'SIGINT', seen).toBe(true);
      expect(at - sent, seen).toBeLessThan(1000);
      expect(stderr.trim(), seen).toBe('callpair: interrupted');
    }
  });
});

describe('item 11: the special-file rule applies after following links', () => {
  it('links in a directory (or matched by a glob) to /dev/zero and to a FIFO are skipped with a message; the rest is read', async () => {
    const dir = tmpDir();
    const d = path.join(dir, 'caps');
    mkdirSync(d);
    seedCopy(d, 'a.jsonl');
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    symlinkSync('/dev/zero', path.join(d, 'zero.jsonl'));
    symlinkSync(path.join(dir, 'fifo'), path.join(d, 'fifo.jsonl'));
    for (const arg of [d, path.join(d, '*.jsonl')]) {
      const t0 = Date.now();
      const res = await runCli(['analyze', '--format', 'json', arg]);
      expect(Date.now() - t0).toBeLessThan(20_000);
      expect(withoutGateLine(res.stderr)).toBe('');
      const r = JSON.parse(res.stdout) as Report;
      expect(r.inputs.find((i) => i.path.endsWith('a.jsonl'))!.lines).toBe(8);
      const errs = inputErrors(r).map((f) => f.message);
      expect(errs.find((m) => m.includes('zero.jsonl') || m.includes('character device')), JSON.stringify(errs)).toMatch(/skipped, a (link to a )?character device/);
      expect(errs.find((m) => m.includes('FIFO')), JSON.stringify(errs)).toMatch(/skipped, a (link to a )?FIFO/);
    }
  });

  it('given directly, a FIFO is still read (process substitution)', () => {
    const out = execFileSync('/bin/bash', ['-c', `"${process.execPath}" "${BIN}" analyze --format json <(cat "${fixture('seed-trace.jsonl')}")`], { cwd: ROOT, stdio: QUIET }).toString();
    expect((JSON.parse(out) as Report).inputs[0]!.lines).toBe(8);
  });
});

describe('item 11, neighbouring path: the look before the pass (fileContains) never consumes a FIFO', () => {
  it('--caller and --upstream given as process substitution are read whole', () => {
    const a = (f: string) => fixture(`assay/${f}`);
    const out = execFileSync('/bin/bash', ['-c', `"${process.execPath}" "${BIN}" analyze --format json "${a('run-ids.decisions.ndjson')}" --caller <(cat "${a('run-ids.caller.jsonl')}") --upstream <(cat "${a('run-ids.upstream.jsonl')}") || true`], { cwd: ROOT, stdio: QUIET }).toString();
    const r = JSON.parse(out) as Report;
    expect(r.inputs.map((i) => i.lines)).toEqual([9, 6, 8]);
  });
});

describe('item 14: file names are bytes', () => {
  it('a name that is not UTF-8 is read inside a directory, given directly and by a glob, and printed escaped', () => {
    const dir = tmpDir();
    const d = path.join(dir, 'caps');
    mkdirSync(d);
    // caf\xe9 + ESC [31m: Latin-1 and a terminal escape in one name.
    execFileSync('/bin/sh', ['-c', `cp "${fixture('seed-trace.jsonl')}" "$(printf '${d}/caf\\351\\033[31m.jsonl')"`]);
    for (const arg of [`"${d}"`, `"$(printf '${d}/caf\\351\\033[31m.jsonl')"`, `"${d}/caf*.jsonl"`]) {
      const out = execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" analyze --format json ${arg}`], { cwd: ROOT, stdio: QUIET }).toString();
      const r = JSON.parse(out) as Report;
      expect(inputErrors(r)).toEqual([]);
      expect(r.inputs).toHaveLength(1);
      expect(r.inputs[0]!.lines).toBe(8);
      expect(r.inputs[0]!.path.endsWith('caps/caf\\xe9\u001b[31m.jsonl'), r.inputs[0]!.path).toBe(true);
    }
    // An output name that is not UTF-8 is written under its bytes.
    execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" analyze "${d}" -o "$(printf '${dir}/out\\351.txt')"`], { stdio: QUIET });
    expect(readdirSync(Buffer.from(dir), { encoding: 'buffer' }).map((b) => b.toString('latin1')).sort()).toEqual(['caps', 'out\u00e9.txt']);
    const table = execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" analyze "${d}"`], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: QUIET }).toString();
    expect(table).toContain('caf\\xe9');
    expect(table).not.toMatch(/[\u001b\ufffd]/);
  });
});

describe('item 4: gzip members and the bytes after them', () => {
  it('a gzip member followed by plain bytes: every line of the member is read, the fault is reported with its offset', async () => {
    const dir = tmpDir();
    const member = Buffer.from(Array.from({ length: 100_000 }, (_, k) => `{"n":${k}}\n`).join(''));
    const gz = gzipSync(member);
    for (const [name, body] of [
      ['seed.jsonl', SEED],
      ['big.jsonl', member],
    ] as const) {
      const packed = name === 'seed.jsonl' ? gzipSync(SEED) : gz;
      const file = path.join(dir, `mixed-${name}`);
      writeFileSync(file, Buffer.concat([packed, SEED]));
      const r = await analyze({ inputs: [file] });
      expect(r.inputs[0]!.lines).toBe(body.toString().split('\n').length - 1);
      expect(r.inputs[0]!.bytes).toBe(body.length);
      const [e] = inputErrors(r);
      expect(e!.code === 'INPUT_ERROR' && e!.data.byteOffset).toBe(packed.length);
      expect(e!.message).toMatch(/not gzip after gzip member 1/);
    }
  });

  it('concatenated gzip members are all read (as zcat does), with zero padding after them', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'multi.jsonl.gz');
    writeFileSync(file, Buffer.concat([gzipSync(SEED), gzipSync(Buffer.alloc(0)), gzipSync(SEED), Buffer.alloc(512)]));
    const r = await analyze({ inputs: [file] });
    expect(inputErrors(r)).toEqual([]);
    expect(r.inputs[0]!.lines).toBe(16);
    expect(r.inputs[0]!.gzip).toBe(true);
  });

  it('a corrupt second member or a cut stream keeps the first member and names the fault', async () => {
    const dir = tmpDir();
    const good = gzipSync(SEED);
    const bad = Buffer.from(gzipSync(SEED));
    bad.fill(0xaa, 12, 40);
    for (const [tail, re] of [
      [bad, /corrupt gzip data in member 2/],
      [good.subarray(0, good.length - 20), /truncated gzip stream \(member 2/],
      [good.subarray(0, 5), /truncated gzip header \(member 2/],
    ] as const) {
      const file = path.join(dir, `cut-${tail.length}.jsonl.gz`);
      writeFileSync(file, Buffer.concat([good, tail]));
      const r = await analyze({ inputs: [file] });
      expect(r.inputs[0]!.lines).toBeGreaterThanOrEqual(8);
      const [e] = inputErrors(r);
      expect(e!.message).toMatch(re);
      expect(e!.code === 'INPUT_ERROR' && e!.data.byteOffset).toBeGreaterThanOrEqual(good.length);
    }
  });
});

describe('item 5: JSONL or a JSON document, decided on evidence', () => {
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

describe('item 6: a huge value in a JSON document is bounded like a JSONL line', () => {
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

describe('item 15: encodings and compressions callpair does not read are named, not read as junk', () => {
  it('UTF-16 (both BOMs), zstd, bzip2, xz: one INPUT_ERROR naming the file and what it is', async () => {
    const dir = tmpDir();
    const text = SEED.toString('utf8');
    const files: Array<[string, Buffer, RegExp]> = [
      ['le.jsonl', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), /UTF-16 text \(little-endian/],
      ['be.jsonl', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]), /UTF-16 text \(big-endian/],
      ['z.jsonl', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), /zstd/],
      ['b.jsonl', execFileSync('bzip2', ['-c'], { input: SEED }), /bzip2/],
      ['x.jsonl', execFileSync('xz', ['-c'], { input: SEED }), /xz/],
      ['gz-le.jsonl.gz', gzipSync(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])), /gzip holding UTF-16/],
    ];
    for (const [name, body, re] of files) {
      const file = path.join(dir, name);
      writeFileSync(file, body);
      const r = await analyze({ inputs: [file] });
      const [e] = inputErrors(r);
      expect(e, name).toBeDefined();
      expect(e!.message).toMatch(re);
      expect(e!.code === 'INPUT_ERROR' && e!.data.path).toBe(file);
      expect(r.inputs[0]!.lines, name).toBe(0);
    }
    // A text line that happens to start with "BZh" is still a line.
    const r = await analyze({ inputs: [writeCapture(['BZh9 is not bzip2 here, nor (\u00b5/ zstd', '{"a":1}'])] });
    expect(inputErrors(r)).toEqual([]);
    expect(r.inputs[0]!.lines).toBe(2);
  });
});
