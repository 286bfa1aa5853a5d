/**
 * Parallel reading never hangs and never crashes on what `--jobs 1` reads: values
 * nested too deep for a structured clone are evaluated by the main thread, and a worker that fails
 * ends the run with one line and exit 2.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobsNote, ROOT, runCli, tmpDir, withoutGateLine } from './helpers.js';
import { ReaderWorkerError, WorkerPool } from '../src/input/parallel.js';
import type { BatchOut } from '../src/input/parallel-protocol.js';

let base = '';
beforeAll(() => {
  const file = path.join(tmpDir(), 'capture.jsonl');
  execFileSync(process.execPath, [path.join(ROOT, 'bench', 'generate.mjs'), '--size', '6', '--seed', '3', '--shape', 'line-heavy', '--out', file], { stdio: 'ignore' });
  base = readFileSync(file, 'utf8');
});

/** The capture, then deep lines (parsed: they hold a needle), then the capture again. */
function deepInput(levels: number): string {
  const arr = '['.repeat(levels) + '"llm:request"' + ']'.repeat(levels);
  const usage = '['.repeat(levels) + ']'.repeat(levels);
  const lines = [arr, `{"event": "llm:request", "session_id": "deep", "data": {"provider": "p", "usage": ${usage}}}`, `{"event": "llm:response", "session_id": "deep", "data": {"error": ${usage}}}`];
  return base + lines.join('\n') + '\n' + base;
}

describe('--jobs on deep nesting, from stdin', () => {
  for (const levels of [5_000, 20_000]) {
    it(`${levels} nested arrays: --jobs 2 finishes with the report of --jobs 1`, { timeout: 60_000 }, async () => {
      const input = deepInput(levels);
      const args = ['analyze', '--format', 'json', '-'];
      const one = await runCli([...args, '--jobs', '1'], { stdin: input });
      const two = await runCli([...args, '--jobs', '2'], { stdin: input });
      expect(withoutGateLine(one.stderr)).toBe('');
      expect(withoutGateLine(two.stderr)).toBe(jobsNote(2));
      expect(two.code).toBe(one.code);
      expect(two.stdout).toBe(one.stdout);
      expect(JSON.parse(one.stdout).totals.records).toBeGreaterThan(1000);
    });
  }
});

describe('a worker given values too deep to send', () => {
  it('hands the batch back (redo) instead of sending what the main thread cannot read', { timeout: 30_000 }, async () => {
    const pool = new WorkerPool(1, { keep: null, keeps: {}, needles: ['"llm:'], validateAll: false, maxLineBytes: 1 << 20 });
    pool.start();
    while (pool.minPending() === Infinity) await new Promise((r) => setTimeout(r, 10));
    const n = 5000;
    const text = `{"event": "llm:request", "data": {"usage": ${'['.repeat(n)}${']'.repeat(n)}}}\n{"event": "llm:response"}\n`;
    const buf = new Uint8Array(Buffer.from(text));
    const out = await new Promise<BatchOut>((resolve, reject) => pool.submit({ seq: 0, classify: 'null', buf, start: 0, end: buf.length }, [buf.buffer], resolve, reject));
    await pool.close();
    expect(out.redo).toEqual({ start: 0, end: text.length });
    expect(Buffer.from(out.buf).toString()).toBe(text);
  });
});

describe('a failing worker', () => {
  it('fails the batch with one line (ReaderWorkerError), never a hang', { timeout: 30_000 }, async () => {
    const pool = new WorkerPool(1, { keep: null, keeps: {}, needles: ['"llm:'], validateAll: false, maxLineBytes: 1 << 20 });
    pool.start();
    while (pool.minPending() === Infinity) await new Promise((r) => setTimeout(r, 10));
    // A batch without its buffer: the worker throws evaluating it.
    const bad = { seq: 0, classify: 'null', buf: null as unknown as Uint8Array, start: 0, end: 10 };
    const err = await new Promise<Error>((resolve) => pool.submit(bad, [], () => resolve(new Error('answered')), resolve));
    await pool.close();
    expect(err).toBeInstanceOf(ReaderWorkerError);
    expect(err.message).toMatch(/^a reader worker failed: /);
    expect(err.message).not.toMatch(/\n/);
  });

  it('ends a command with one line on stderr and exit 2', { timeout: 30_000 }, () => {
    // The CLI's guard (every command runs in it) given the error a failing pool rejects with.
    const script = `const { guarded } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist/cli/options.js')).href)});
      const { ReaderWorkerError } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist/input/parallel.js')).href)});
      await guarded(async () => { throw new ReaderWorkerError('a reader worker failed: boom'); });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('callpair: a reader worker failed: boom\n');
  });
});
