import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { analyze, type AnalyzeOptions } from '../src/analyze.js';
import type { Report } from '../src/report/report.js';
import type { CallEvent } from '../src/model.js';
import type { Profile, RecordHandler } from '../src/profiles/types.js';
import type { Source } from '../src/input/sources.js';
import { MADE_LIST_ENV } from './global-setup.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(ROOT, 'dist', 'cli', 'main.js');
export const fixture = (name: string) => path.join(ROOT, 'fixtures', name);

const made: string[] = [];
/**
 * A fresh temp directory, removed when the test process exits, or else (vitest ends its forks
 * with SIGTERM: no `exit` event) by the global setup's teardown (test/global-setup.ts).
 */
export function tmpDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'callpair-test-'));
  made.push(d);
  const list = process.env[MADE_LIST_ENV];
  if (list) appendFileSync(list, d + '\n');
  return d;
}
process.on('exit', () => {
  for (const d of made) {
    try {
      rmSync(d, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
});

/** Writes lines (objects are JSON-encoded, strings written as they are) to a temp .jsonl file. */
export function writeCapture(lines: Array<object | string>, name = 'capture.jsonl', dir = tmpDir()): string {
  const p = path.join(dir, name);
  writeFileSync(p, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return p;
}

export async function analyzeLines(lines: Array<object | string>, opts: Partial<AnalyzeOptions> = {}): Promise<Report> {
  return analyze({ inputs: [writeCapture(lines)], ...opts });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns the built binary with NO_COLOR=1. */
export function runCli(args: string[], opts: { stdin?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...opts.env };
    delete env.FORCE_COLOR;
    if (!opts.env || !('GITHUB_STEP_SUMMARY' in opts.env)) delete env.GITHUB_STEP_SUMMARY;
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.on('error', () => undefined);
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
  });
}

/** Amplifier line builders (logging-hook envelope). */
let clock = Date.parse('2026-09-01T00:00:00Z');
export function resetClock(): void {
  clock = Date.parse('2026-09-01T00:00:00Z');
}
export function ts(stepMs = 10): string {
  clock += stepMs;
  return new Date(clock).toISOString();
}

export interface LineSpec {
  event: string;
  session?: string;
  id?: unknown;
  provider?: string;
  model?: string;
  caller?: string;
  status?: string;
  usage?: Record<string, number | null>;
  extra?: Record<string, unknown>;
  ts?: string;
}

export function amp(s: LineSpec): Record<string, unknown> {
  const data: Record<string, unknown> = { parent_id: null };
  if (s.provider !== undefined) data.provider = s.provider;
  if (s.model !== undefined) data.model = s.model;
  if (s.caller !== undefined) data.caller = s.caller;
  if (s.usage !== undefined) data.usage = s.usage;
  const rec: Record<string, unknown> = {
    ts: s.ts ?? ts(),
    lvl: 'INFO',
    schema: { name: 'amplifier.log', ver: '1.0.0' },
    event: s.event,
    session_id: s.session ?? 'S1',
  };
  if (s.id !== undefined) rec.request_id = s.id;
  if (s.status !== undefined) rec.status = s.status;
  Object.assign(rec, s.extra ?? {});
  rec.data = data;
  return rec;
}

/** stderr without analyze's one gate-verdict line (written whatever the report's destination). */
export function withoutGateLine(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => !/^callpair: gate (passed|failed)\b/.test(l))
    .join('\n');
}

/**
 * What `--jobs N` writes on stderr on this machine (docs/inputs.md): a one-line note when N is over
 * the threads used (the cores, at most 4), else nothing. From os.availableParallelism(): a CI
 * machine may have another number of cores than the one the tests were written on.
 */
export function jobsNote(n: number): string {
  const cores = availableParallelism();
  const cap = Math.max(1, Math.min(cores, 4));
  if (n <= cap) return '';
  return `callpair: --jobs ${n} capped at ${cap} (${cores <= 4 ? `${cores} core${cores === 1 ? '' : 's'} available` : 'at most 4 are used'})\n`;
}

/** A child's stdout is read, its stderr (the gate's verdict line) kept out of the test output. */
export const QUIET: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];

/** The bytes of fixtures/seed-trace.jsonl (8 lines). */
export const SEED = readFileSync(fixture('seed-trace.jsonl'));

/** A copy of fixtures/seed-trace.jsonl at DIR/NAME (a fresh temp directory by default). */
export function seedCopy(dir = tmpDir(), name = 'x.jsonl'): string {
  const p = path.join(dir, name);
  writeFileSync(p, SEED);
  return p;
}

/** The report's INPUT_ERROR findings. */
export function inputErrors(r: Report) {
  return r.findings.filter((f) => f.code === 'INPUT_ERROR');
}

/** One line on stderr, no stack trace, no raw control character. */
export function expectOneLine(stderr: string): void {
  expect(stderr.endsWith('\n'), stderr).toBe(true);
  expect(stderr.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  expect(stderr).not.toMatch(/\n\s+at /);
}

/** fixtures/custom/http-profile.json, parsed (a fresh object each call, to patch). */
export const httpProfile = () => JSON.parse(readFileSync(fixture('custom/http-profile.json'), 'utf8')) as Record<string, unknown>;

/** LEAF wrapped in DEPTH arrays. */
export function nest(depth: number, leaf: unknown): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** `buf` cut in chunks of the given sizes, cycled (none: one chunk). */
export function chunksOf(buf: Buffer, sizes: readonly number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let pos = 0;
  let k = 0;
  while (pos < buf.length) {
    const n = Math.max(1, sizes.length ? sizes[k++ % sizes.length]! : buf.length);
    chunks.push(buf.subarray(pos, pos + n));
    pos += n;
  }
  return chunks;
}

/** Feeds `buf` to a streaming reader in chunks of the given sizes, cycled (none: one chunk), then ends it. */
export function feedChunks(r: { push(chunk: Buffer): void; end(): void }, buf: Buffer, sizes: readonly number[]): void {
  for (const c of chunksOf(buf, sizes)) r.push(c);
  r.end();
}

/** A workflow command as the runner reads it (the escapes of @actions/core's command.ts undone). */
const unescapeData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
const unescapeProperty = (s: string) => unescapeData(s.replace(/%3A/g, ':').replace(/%2C/g, ','));

/** The GitHub annotations (`::error …::`, `::warning`, `::notice`) of a `-f github` output, decoded as the runner decodes them. */
export const annotations = (out: string) =>
  out.split('\n').flatMap((l) => {
    const m = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(l);
    if (!m) return [];
    const props = Object.fromEntries((m[2] ?? '').split(',').filter(Boolean).map((p) => p.split('=').map(unescapeProperty) as [string, string]));
    return [{ level: m[1], props, message: unescapeData(m[3]!) }];
  });

/**
 * A profile's handler for one capture file, fed records directly (no reader): `feed(record)` gives
 * it the next line; `emitted` holds the events it made, in order; findings are dropped.
 */
export function openCapture(p: Profile, file = 'capture.jsonl'): { h: RecordHandler; emitted: CallEvent[]; ctx: { emit: (ev: CallEvent) => null; finding: () => void }; feed: (rec: unknown) => void } {
  const emitted: CallEvent[] = [];
  const ctx = {
    emit: (ev: CallEvent) => {
      emitted.push(ev);
      return null;
    },
    finding: () => {},
  };
  const h = p.open({ role: 'capture', path: file } as Source, ctx)!;
  let line = 0;
  return { h, emitted, ctx, feed: (rec) => void h.record(rec, { path: file, line: ++line }, null) };
}
