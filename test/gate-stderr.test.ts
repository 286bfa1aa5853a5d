/**
 * The gate's verdict is one line on stderr whatever the report's destination.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES } from '../src/formatters/index.js';
import { BIN, fixture, runCli, tmpDir } from './helpers.js';

const CAPTURE = fixture('orphan-crossed.jsonl');

describe('gate verdict on stderr', () => {
  const dir = tmpDir();
  it.each(FORMAT_NAMES)('%s with -o: exit 1 and stderr names the failing check with value and limit', async (format) => {
    const out = path.join(dir, `out.${format}`);
    const r = await runCli(['analyze', CAPTURE, '-f', format, '-o', out, '--max-orphan-requests', '0']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('callpair: gate failed: max-orphan-requests: 1 (limit <= 0)\n');
  });

  it('a passing gate says so, naming its checks (the default gate: error-findings)', async () => {
    const r = await runCli(['analyze', fixture('seed-trace.jsonl'), '-f', 'json', '-o', path.join(dir, 'ok.json')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('callpair: gate passed (error-findings)\n');
  });

  it('--no-fail: the failure is still on stderr, the exit code 0', async () => {
    const r = await runCli(['analyze', CAPTURE, '-f', 'json', '-o', path.join(dir, 'nf.json'), '--max-orphan-requests', '0', '--no-fail']);
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toBe('callpair: gate failed: max-orphan-requests: 1 (limit <= 0) (--no-fail: exit 0)\n');
  });
});

describe('a reader that leaves early (`| head`) never turns a failed gate into exit 0', () => {
  it.each(['json', 'ndjson', 'sarif', 'table'])('analyze -f %s: exit 1 and the verdict line, stdout closed after one chunk', async (format) => {
    const { spawn } = await import('node:child_process');
    const { writeFileSync } = await import('node:fs');
    const { BIN } = await import('./helpers.js');
    const file = path.join(tmpDir(), 'o.jsonl');
    writeFileSync(file, Array.from({ length: 3000 }, (_, i) => `{"event":"llm:request","session_id":"s","request_id":"r${i}"}\n`).join(''));
    const child = spawn(process.execPath, [BIN, 'analyze', file, '-f', format, '--fail-on', 'warning'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^callpair: gate failed: fail-on:warning: 3000/m);
  });
});

describe('gate verdict on a terminal (a pty, by script(1))', () => {
  const pty = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
  /** Runs the binary under a pseudo-terminal: stdout and stderr are both that terminal. */
  const onTerminal = (args: string, redirect = '') =>
    spawnSync('script', ['-qec', `"${process.execPath}" "${BIN}" ${args} ${redirect}`, '/dev/null'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', COLUMNS: '200' }, timeout: 30_000 });

  it.skipIf(!pty)('the table on a terminal shows the verdict once, and the exit code still says it failed', () => {
    const r = onTerminal(`analyze "${CAPTURE}" --max-orphan-requests 0`);
    expect(r.status).toBe(1);
    expect(r.stdout.match(/gate failed: max-orphan-requests/g)).toHaveLength(1);
    // stderr elsewhere than the terminal still gets its line.
    const dir = tmpDir();
    const err = path.join(dir, 'err.txt');
    expect(onTerminal(`analyze "${CAPTURE}" --max-orphan-requests 0`, `2>"${err}"`).status).toBe(1);
    expect(readFileSync(err, 'utf8')).toContain('callpair: gate failed: max-orphan-requests: 1 (limit <= 0)\n');
    // JSON on a terminal carries no verdict of its own: stderr gives it.
    expect(onTerminal(`analyze "${CAPTURE}" -f json --max-orphan-requests 0`).stdout).toContain('callpair: gate failed: max-orphan-requests');
  });
});
