/**
 * Output plumbing: stdout is data, stderr is diagnostics. A closed pipe (`| head`) ends quietly;
 * SIGINT stops promptly; the exit code is set, never forced, so piped output is never cut.
 */
import { unlinkSync } from 'node:fs';
import { safeText } from '../formatters/safe.js';
export { displayArg, oneLine } from '../formatters/safe.js';
import { blockingOpens } from '../input/blocking.js';

export const EXIT_OK = 0;
export const EXIT_GATE = 1;
export const EXIT_USAGE = 2;

export function installPipeGuards(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') {
      // The reader left (`| head`): stop, but what the run still owes (the gate's verdict and
      // exit code, gate-exit.ts) is said first.
      const owed = closedStdoutHook;
      closedStdoutHook = null;
      owed?.();
      process.exit(process.exitCode ?? 0);
    }
    // Any other write failure (disk full, a closed terminal): one line, no stack trace.
    diag(`cannot write output: ${e.code ?? e.message}`);
    process.exit(2);
  });
  process.on('SIGINT', () => {
    removeTemps();
    diag('interrupted');
    if (blockingOpens() > 0) {
      // A thread is blocked opening a FIFO: process.exit would wait for it forever. Die by the
      // signal itself (the shell sees 130, like exit 130).
      process.removeAllListeners('SIGINT');
      process.kill(process.pid, 'SIGINT');
    }
    process.exit(130);
  });
  process.on('exit', removeTemps);
  // Whatever escapes the commands' own guard (a fault in a stream callback, a bug) is still one
  // line and exit 2, never a stack trace with exit 1, which reads as "gate failed".
  const fatal = (e: unknown) => {
    const err = e as NodeJS.ErrnoException;
    const text = err instanceof Error ? String(err.message).split('\n')[0]! : String(e);
    diag(err instanceof Error && !err.code ? `internal error: ${text}` : text);
    debugStack(err);
    process.exit(2);
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
}

/** Temporary output files not yet renamed into place (src/cli/outputs.ts): removed on any exit. */
export const pendingTemps = new Set<string | Buffer>();
export function trackTemp(file: string | Buffer): void {
  pendingTemps.add(file);
}
function removeTemps(): void {
  for (const f of pendingTemps) {
    try {
      unlinkSync(f);
    } catch {
      // already gone
    }
  }
  pendingTemps.clear();
}

let closedStdoutHook: (() => void) | null = null;

/** What to do before exiting when stdout's reader goes away (null: nothing). */
export function onClosedStdout(hook: (() => void) | null): void {
  closedStdoutHook = hook;
}

/** Writes text to stdout and waits until it is flushed (or the pipe closed). */
export async function writeStdout(text: string | Iterable<string>): Promise<void> {
  await writeText(process.stdout, text);
}

/** UTF-16 code units handed to a stream at a time. */
const WRITE_SLICE = 1 << 20;

/**
 * Writes text, or text in pieces (a formatter's `pieces`), in slices of about a MiB, waiting for
 * the stream to drain between them: a report of many scopes is megabytes, and the stream would
 * otherwise hold all of it encoded at once beside the string (docs/performance.md, "Memory").
 * Stops early once `failed()` says the stream broke.
 */
export async function writeText(stream: NodeJS.WritableStream, text: string | Iterable<string>, failed: () => boolean = () => false): Promise<void> {
  const errored = () => failed() || (stream as { errored?: unknown }).errored != null;
  for (const slice of slices(text)) {
    if (errored()) break;
    if (!stream.write(slice) && !errored()) await drained(stream);
  }
  // A synchronous stream (a file as stdout) reports a failed write on the next tick: let its error
  // handler speak (one line, exit 2) before the caller goes on to the gate's verdict.
  if (errored()) await new Promise((r) => setImmediate(r));
}

/**
 * The stream drained, closed or failed; the listeners are removed again (waited for once per write).
 * A stream that has drained already (its 'drain' came while the caller was awaiting something
 * else: `callpair pairs` between two inputs) is not waited for: that event will not come again.
 */
export function drained(stream: NodeJS.WritableStream): Promise<void> {
  const w = stream as NodeJS.WritableStream & { writableNeedDrain?: boolean; destroyed?: boolean };
  if (w.writableNeedDrain === false || w.destroyed === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}

function* slices(text: string | Iterable<string>): Generator<string> {
  if (typeof text === 'string') return yield* cut(text);
  let parts: string[] = [];
  let n = 0;
  for (const p of text) {
    parts.push(p);
    n += p.length;
    if (n >= WRITE_SLICE) {
      yield* cut(parts.join(''));
      parts = [];
      n = 0;
    }
  }
  if (n > 0) yield* cut(parts.join(''));
}

/** `text` in slices of at most WRITE_SLICE, never cut between the two halves of a surrogate pair. */
function* cut(text: string): Generator<string> {
  if (text.length <= WRITE_SLICE) return yield text;
  for (let i = 0; i < text.length; ) {
    let end = Math.min(i + WRITE_SLICE, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(i, end);
    i = end;
  }
}

/** Longest diagnostic line (a message may echo a path or a profile's text). */
const MAX_DIAG_LINE = 1000;

/**
 * The one way a message reaches stderr: each line through safeText (docs/design.md §4), since a
 * message may echo an argument, a path, a profile's text or a capture's; no escape sequence, C0/C1
 * control or bidi override ever reaches the terminal, and each line is bounded.
 */
export function diagText(msg: string): string {
  return `callpair: ${msg
    .split('\n')
    .map((line) => safeText(line, MAX_DIAG_LINE))
    .join('\n')}`;
}

/** A diagnostic on stderr (one line, or a few our own code joined with `\n`), made safe. */
export function diag(msg: string): void {
  process.stderr.write(`${diagText(msg)}\n`);
}

/** With CALLPAIR_DEBUG set, an internal fault's stack follows its one-line message (through diag). */
export function debugStack(err: unknown): void {
  if (process.env.CALLPAIR_DEBUG && err instanceof Error && err.stack) diag(err.stack);
}
