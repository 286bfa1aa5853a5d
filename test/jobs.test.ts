import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, jobsNote, ROOT, runCli, tmpDir, withoutGateLine } from './helpers.js';

// A generated capture large enough (> 4 MiB) for --jobs to use workers, with hostile lines mixed in.
let file = '';
const injected: Record<string, number> = {};

beforeAll(() => {
  const dir = tmpDir();
  file = path.join(dir, 'capture.jsonl');
  execFileSync(process.execPath, [path.join(ROOT, 'bench', 'generate.mjs'), '--size', '9', '--seed', '7', '--out', file], { stdio: 'ignore' });
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.pop();
  const family = lines.find((l) => l.includes('"llm:response"'))!;
  const extra = [
    '',
    '   ',
    '{"event": "llm:request", "session_id": "S", "data": {"provider": "p", "raw": {"x": [1, 2,}}}',
    family,
    family,
    '{"event": "llm:request", "session_id": "S", "request_id": "bad id with spaces", "data": {"provider": "p"}}\r',
    '\uFEFF{"event": "llm:response", "session_id": "S", "data": {"provider": "p"}}',
    '{"event": "llm:response", "session_id": "S", "data": {"provider": "p", "big": "' + 'x'.repeat(300_000) + '"}}',
  ];
  let n = lines.length;
  const names = ['blank', 'blank2', 'malformed', 'dup1', 'dup2', 'invalidId', 'bom', 'oversized'];
  extra.forEach((_, i) => (injected[names[i]!] = ++n));
  // Some at the end, and a truncated last line.
  appendFileSync(file, extra.join('\n') + '\n' + '{"event": "llm:request", "session_id": "S", "data": {"prov');
  injected.truncated = ++n;
});

describe('--jobs', () => {
  it('writes a byte-identical JSON report with --jobs 1 and --jobs 2 (and 3)', async () => {
    const args = ['analyze', '--format', 'json', '--max-line-bytes', '250000', file];
    const one = await runCli([...args, '--jobs', '1']);
    const two = await runCli([...args, '--jobs', '2']);
    const three = await runCli([...args, '--jobs', '3']);
    expect(withoutGateLine(one.stderr)).toBe('');
    expect(withoutGateLine(two.stderr)).toBe(jobsNote(2)); // a machine with 1 core uses 1 thread, and says so
    expect(one.stdout.length).toBeGreaterThan(1000);
    expect(two.stdout).toBe(one.stdout);
    expect(three.stdout).toBe(one.stdout);
    expect(two.code).toBe(one.code);
  });

  it('keeps line numbers, ledgers and findings identical', async () => {
    const args = ['analyze', '--format', 'json', '--max-line-bytes', '250000', '--max-findings', '100000', file];
    const one = JSON.parse((await runCli([...args, '--jobs', '1'])).stdout);
    const two = JSON.parse((await runCli([...args, '--jobs', '2'])).stdout);
    expect(two.inputs).toEqual(one.inputs);
    expect(two.findings).toEqual(one.findings);
    expect(two.findingCounts).toEqual(one.findingCounts);
    const at = (code: string) =>
      two.findings.filter((f: { code: string }) => f.code === code).flatMap((f: { locations: Array<{ line: number }> }) => f.locations.map((l) => l.line));
    expect(at('MALFORMED_LINE')).toEqual(expect.arrayContaining([injected.malformed, injected.truncated]));
    expect(at('INVALID_ID')).toContain(injected.invalidId);
    expect(at('OVERSIZED_LINE')).toContain(injected.oversized);
    expect(two.inputs[0].duplicates).toBeGreaterThanOrEqual(1);
    expect(two.inputs[0].lines).toBe(injected.truncated);
    const i = two.inputs[0];
    expect(i.lines).toBe(i.records + i.blank + i.malformed + i.oversized);
  });

  it('over the threads used (the cores, at most 4): capped with a one-line note on stderr, the report byte-identical', async () => {
    const cores = availableParallelism();
    const cap = Math.max(1, Math.min(cores, 4));
    const over = cap + 1;
    const why = cores <= 4 ? `${cores} core${cores === 1 ? '' : 's'} available` : 'at most 4 are used';
    const seed = fixture('seed-trace.jsonl');
    // analyze takes the fast path (fast-path.ts), `-o -` and the other commands yargs.
    const runs = await Promise.all(
      [
        ['analyze', seed, '-f', 'json'],
        ['analyze', seed, '-f', 'json', '-o', '-'],
        ['pairs', seed],
        ['compare', seed, '-f', 'json'],
        ['trace', `${seed}:5`, '-f', 'json'],
      ].map(async (args) => ({ args, one: await runCli([...args, '--jobs', '1']), atCap: await runCli([...args, '--jobs', String(cap)]), over: await runCli([...args, '--jobs', String(over)]) })),
    );
    for (const { args, one, atCap, over: o } of runs) {
      const what = args[0]!;
      expect(o.code, what).toBe(one.code);
      expect(o.stdout, what).toBe(one.stdout);
      expect(atCap.stdout, what).toBe(one.stdout);
      expect(withoutGateLine(one.stderr), what).toBe('');
      expect(withoutGateLine(atCap.stderr), what).toBe('');
      expect(withoutGateLine(o.stderr), what).toBe(`callpair: --jobs ${over} capped at ${cap} (${why})\n`);
    }
    // Where no workers could help, the most asked for is still only noted.
    const most = await runCli(['analyze', seed, '--jobs', '64', '-f', 'json']);
    expect(most.stdout).toBe(runs[0]!.one.stdout);
    expect(withoutGateLine(most.stderr)).toBe(`callpair: --jobs 64 capped at ${cap} (${why})\n`);
  });

  it('rejects a bad --jobs', async () => {
    const r = await runCli(['analyze', '--jobs', '0', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jobs/);
  });
});

describe('pairs --jobs 2 writing to a pipe, a large input then stdin', () => {
  it('finishes and prints what --jobs 1 prints (the pipe drained between the inputs was waited for forever)', async () => {
    const dir = tmpDir();
    const gen = (from: number, n: number) => {
      const out: string[] = [];
      for (let i = from; i < from + n; i++) {
        const s = `s${i}`;
        out.push(`{"event":"llm:request","session_id":"${s}","request_id":"r${i}","data":{"provider":"p","model":"m","caller":"c${i % 3}","pad":"${'x'.repeat(i % 40)}"}}`);
        if (i % 3 !== 2) out.push(`{"event":"llm:response","session_id":"${s}","request_id":"r${i}","data":{"provider":"p","model":"m","usage":{"input_tokens":3}}}`);
      }
      return out.join('\n'); // no final newline
    };
    const big = path.join(dir, 'big_nofinal.jsonl');
    writeFileSync(big, gen(0, 36_000));
    // The start of the same capture again, cut mid-line: its calls reuse the first input's ids (found by an adversarial run).
    const stdin = readFileSync(big).subarray(0, 196_976);
    expect(readFileSync(big).length).toBeGreaterThan(4 << 20);
    expect(stdin.length).toBeGreaterThan(64 << 10);
    const one = await runCli(['pairs', big, '-', '--jobs', '1'], { stdin });
    const two = await runCli(['pairs', big, '-', '--jobs', '2'], { stdin });
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(one.stdout.split('\n').length).toBeGreaterThan(36_000);
  }, 30_000);
});
