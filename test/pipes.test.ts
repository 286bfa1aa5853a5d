/**
 * Pipes and signals: `callpair analyze big | head -1` ends quietly (no stack trace, exit 0), and
 * SIGINT stops a run promptly (exit 130) whether it waits on a slow stdin, reads a big file, or is
 * blocked opening a FIFO nobody opens.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { amp, BIN, resetClock, ROOT, runCli, seedCopy, tmpDir, withoutGateLine } from './helpers.js';

/** Many unanswered calls: a large JSON report (every orphan listed). */
function bigCapture(file: string, n: number): void {
  resetClock();
  const lines: string[] = [];
  for (let k = 0; k < n; k++) lines.push(JSON.stringify(amp({ event: 'llm:request', id: `r${k}`, session: `s${k % 50}`, provider: 'p', caller: 'agent' })));
  writeFileSync(file, lines.join('\n') + '\n');
}

describe('a closed pipe', () => {
  it('`callpair analyze big | head -1` ends quietly, exit 0, nothing on stderr (real shell pipe)', () => {
    const dir = tmpDir();
    const big = path.join(dir, 'big.jsonl');
    bigCapture(big, 3_000); // a JSON report of ~1.4 MB, far over a pipe buffer
    const err = path.join(dir, 'err.txt');
    const code = path.join(dir, 'code.txt');
    for (const format of ['json', 'table']) {
      const script = `( "${process.execPath}" "${BIN}" analyze --format ${format} --max-findings 100000 "${big}" 2>"${err}"; echo $? >"${code}" ) | head -1`;
      const out = execFileSync('/bin/sh', ['-c', script], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } }).toString();
      expect(out.split('\n').filter(Boolean)).toHaveLength(1);
      expect(withoutGateLine(readFileSync(err, 'utf8'))).toBe('');
      expect(readFileSync(code, 'utf8').trim()).toBe('0');
    }
  });
});

function waitExit(child: ReturnType<typeof spawn>): Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }> {
  return new Promise((res) => child.on('exit', (code, signal) => res({ code, signal, at: Date.now() })));
}

describe('stdin', () => {
  it('`callpair analyze -` reads stdin', async () => {
    const res = await runCli(['analyze', '--format', 'json', '-'], { stdin: readFileSync(path.join(ROOT, 'fixtures', 'seed-trace.jsonl')) });
    expect(withoutGateLine(res.stderr)).toBe('');
    expect(res.code).toBe(0);
    const r = JSON.parse(res.stdout) as { inputs: { path: string; lines: number }[] };
    expect(r.inputs).toEqual([expect.objectContaining({ path: '-', lines: 8 })]);
  });
});

describe('SIGINT', () => {
  it('stops a run waiting on a slow stdin within a second, exit 130, one line on stderr', async () => {
    const child = spawn(process.execPath, [BIN, 'analyze', '-'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = waitExit(child);
    resetClock();
    child.stdin!.write(JSON.stringify(amp({ event: 'llm:request', id: 'a' })) + '\n');
    // Give node time to start and install its handler (the machine may be busy).
    await new Promise((r) => setTimeout(r, 1500));
    // Still running: it waits on stdin (a lone `-` must reach the command as stdin).
    expect(child.exitCode, stderr).toBeNull();
    const sent = Date.now();
    child.kill('SIGINT');
    const { code, signal, at } = await exited;
    const seen = `exit ${code} signal ${signal} after ${at - sent} ms, stderr ${JSON.stringify(stderr)}`;
    expect(at - sent, seen).toBeLessThan(1000);
    expect(code === 130 || signal === 'SIGINT', seen).toBe(true);
    expect(stderr, seen).not.toMatch(/at .*\.js:\d+/);
    expect(stderr.trim().split('\n').length, seen).toBeLessThanOrEqual(1);
  });

  it('stops a run busy reading a large file within a second', async () => {
    const dir = tmpDir();
    const big = path.join(dir, 'large.jsonl');
    // ~150 MB of needle lines: the reader is busy parsing when the signal arrives.
    const line = JSON.stringify(amp({ event: 'llm:request', id: 'x', session: 's', provider: 'p' }));
    const block = `${line}\n`.repeat(10_000);
    writeFileSync(big, block.repeat(Math.ceil(150e6 / block.length)));
    const child = spawn(process.execPath, [BIN, 'analyze', '--max-open-calls', '1000', big], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = waitExit(child);
    await new Promise((r) => setTimeout(r, 600));
    const sent = Date.now();
    child.kill('SIGINT');
    const { code, signal, at } = await exited;
    const seen = `exit ${code} signal ${signal} after ${at - sent} ms`;
    expect(at - sent, seen).toBeGreaterThanOrEqual(0); // still running when the signal came
    expect(at - sent, seen).toBeLessThan(1000);
    expect(code === 130 || signal === 'SIGINT', seen).toBe(true);
  });

  it('blocked opening a FIFO nobody opens, reading from it or writing to it: exit 130 within a second', async () => {
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
