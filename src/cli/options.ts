/**
 * Options shared by every command that reads a capture, and the guard that turns usage and input
 * errors into one line on stderr with exit 2.
 */
import { availableParallelism } from 'node:os';
import type { Argv } from 'yargs';
import { DEFAULT_MAX_FINDINGS, DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_OPEN_CALLS, type AnalyzeOptions } from '../analyze.js';
import { profileNames, UnknownProfileError } from '../profiles/index.js';
import { InputUsageError } from '../input/sources.js';
import { jobsCap, JOBS_LIMIT } from '../pass/options.js';
import { debugStack, diag, EXIT_USAGE, oneLine } from './io.js';
import { capYoungGeneration } from './memory.js';
import { OutputError } from './outputs.js';
import { ReaderWorkerError } from '../input/parallel.js';

/**
 * `--jobs` default: 1. Parallel reading hands whole lines to workers without copying them
 * (docs/performance.md), but on the 2-core machine this project is measured on, shared with other
 * work, no shape showed a gain that held from run to run: the main thread's serial part (profiles,
 * pairing, applying results in order) bounds two threads to well under 2×, and with the cores
 * already busy a second thread only adds CPU time. So workers stay opt-in (`--jobs N`, at most the
 * cores) until a machine shows a gain.
 */
export const DEFAULT_JOBS = 1;
/** The most threads `--jobs` uses: the cores, at most 4. */
export const MAX_USEFUL_JOBS = jobsCap(availableParallelism());

/**
 * What a user asking for more threads than are used is told (docs/inputs.md, `--jobs`): null when
 * `requested` is used as it is. The report does not change with the threads, so this is a note,
 * not an error.
 */
export function jobsCapNote(requested: number, cores = availableParallelism()): string | null {
  const cap = jobsCap(cores);
  if (requested <= cap) return null;
  return `--jobs ${requested} capped at ${cap} (${cores <= JOBS_LIMIT ? `${cores} core${cores === 1 ? '' : 's'} available` : `at most ${JOBS_LIMIT} are used`})`;
}

/** The `--jobs` cap note on stderr, when there is one: called once the options are valid, before the capture is read. */
export function noteJobsCap(a: Pick<InputArgs, 'jobs'>): void {
  const note = jobsCapNote(a.jobs);
  if (note !== null) diag(note);
}

/** Options every capture-reading command takes. */
export function inputOptions<T>(y: Argv<T>) {
  return y
    .positional('inputs', { type: 'string', array: true, describe: 'files, directories, globs, or - for stdin' })
    .option('profile', { type: 'string', default: 'auto', describe: `record family: ${profileNames().join(', ')}, or a custom profile file (*.json); several joined by ',' (channel names must differ)` })
    .option('max-line-bytes', { type: 'number', default: DEFAULT_MAX_LINE_BYTES, describe: 'longer lines are oversized and skipped' })
    .option('validate-all', { type: 'boolean', default: false, describe: 'parse every line, so malformed lines anywhere are found' })
    .option('max-findings', { type: 'number', default: DEFAULT_MAX_FINDINGS, describe: 'findings listed per code (all are counted)' })
    .option('max-open-calls', { type: 'number', default: DEFAULT_MAX_OPEN_CALLS, describe: 'open calls per channel before the oldest is evicted as an orphan (OpenAI Batch: 10 × as many requests wait for their output first)' })
    .option('max-scopes', { type: 'number', describe: 'list at most N scopes per channel in the report, the most troubled first chosen (default: all)' })
    .option('jobs', { type: 'number', default: DEFAULT_JOBS, describe: 'threads that decode and parse JSONL (same report for any N; at most 4, and at most the cores, are used: a larger N is capped, with a note on stderr)' })
    // Shown as the form people type; `--color` still parses (hidden).
    .option('color', { type: 'boolean', default: true, hidden: true })
    .option('no-color', { type: 'boolean', describe: 'no colour (also NO_COLOR=1; FORCE_COLOR=1 forces it)' })
    .option('caller', { type: 'string', array: true, nargs: 1, describe: 'assay: the caller\'s sent JSON-RPC log (repeatable)' })
    .option('upstream', { type: 'string', array: true, nargs: 1, describe: 'assay: the upstream\'s received JSON-RPC log (repeatable)' })
    .option('allow-empty', { type: 'boolean', default: false, describe: 'a run with no call events (no input, or nothing matched the profile) is not an error' })
    .option('correlation-key', { type: 'string', describe: 'assay: the params._meta key of the correlation id (default assay.correlation_id)' });
}

export interface InputArgs {
  inputs?: string[];
  profile: string;
  maxLineBytes: number;
  validateAll: boolean;
  maxFindings: number;
  maxOpenCalls: number;
  maxScopes?: number;
  jobs: number;
  color: boolean;
  caller?: string[];
  upstream?: string[];
  correlationKey?: string;
  allowEmpty?: boolean;
}

/**
 * yargs drops a lone `-` positional, so main.ts hands it over as this token (a NUL can never be part
 * of a path) and `fromArgv` turns it back into `-` (stdin) for every list of inputs.
 */
export const STDIN_TOKEN = '\u0000stdin';

export function fromArgv(list: readonly string[] | undefined): string[] {
  return (list ?? []).map((x) => (x === STDIN_TOKEN ? '-' : x));
}

export function analyzeOptionsFrom(a: InputArgs): AnalyzeOptions {
  const inputs = fromArgv(a.inputs);
  if (!Number.isFinite(a.maxLineBytes) || a.maxLineBytes < 1) throw new InputUsageError('--max-line-bytes must be a positive number');
  if (!Number.isInteger(a.maxFindings) || a.maxFindings < 0) throw new InputUsageError('--max-findings must be a whole number');
  if (!Number.isInteger(a.maxOpenCalls) || a.maxOpenCalls < 1) throw new InputUsageError('--max-open-calls must be a positive whole number');
  if (a.maxScopes !== undefined && (!Number.isInteger(a.maxScopes) || a.maxScopes < 0)) throw new InputUsageError('--max-scopes must be a whole number');
  if (!Number.isInteger(a.jobs) || a.jobs < 1 || a.jobs > 64) throw new InputUsageError('--jobs must be a whole number from 1 to 64');
  return {
    inputs,
    profile: a.profile,
    maxLineBytes: a.maxLineBytes,
    validateAll: a.validateAll,
    maxFindings: a.maxFindings,
    maxOpenCalls: a.maxOpenCalls,
    ...(a.maxScopes !== undefined ? { maxScopes: a.maxScopes } : {}),
    ...assayOptionsFrom(a),
    jobs: Math.min(a.jobs, MAX_USEFUL_JOBS),
    ...(a.allowEmpty ? { allowEmpty: true } : {}),
    // Once per chunk read: the CLI's memory cap (memory.ts); analyze adds its progress display.
    onProgress: capYoungGeneration,
  };
}

/** Runs a command body, turning usage and input errors into one line on stderr and exit 2. */
export async function guarded(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    if (e instanceof InputUsageError || e instanceof UnknownProfileError || e instanceof OutputError || e instanceof ReaderWorkerError) {
      // A usage message quotes what the user typed: always one line, anything unsafe escaped.
      diag(oneLine(e.message));
      process.exitCode = EXIT_USAGE;
      return;
    }
    // Anything else (a system error, an internal fault): still one line and exit 2, never a stack
    // trace and never exit 1, which reads as "gate failed" (docs/guarantees.md). CALLPAIR_DEBUG=1
    // prints the stack as well.
    const err = e as NodeJS.ErrnoException;
    const text = err instanceof Error ? String(err.message).split('\n')[0]! : String(e);
    diag(err instanceof Error && !err.code ? `internal error: ${text}` : text);
    debugStack(err);
    process.exitCode = EXIT_USAGE;
  }
}

/** Assay's inputs and options (`--caller`, `--upstream`, `--correlation-key`). */
function assayOptionsFrom(a: InputArgs): Pick<AnalyzeOptions, 'caller' | 'upstream' | 'profileOptions'> {
  const out: Pick<AnalyzeOptions, 'caller' | 'upstream' | 'profileOptions'> = {};
  if (a.caller && a.caller.length > 0) out.caller = fromArgv(a.caller.map(String));
  if (a.upstream && a.upstream.length > 0) out.upstream = fromArgv(a.upstream.map(String));
  if (a.correlationKey !== undefined) {
    const k = String(a.correlationKey);
    if (k === '') throw new InputUsageError('--correlation-key must not be empty');
    out.profileOptions = { correlationKey: k };
  }
  return out;
}
