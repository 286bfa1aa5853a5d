/**
 * Output plumbing: stdout is data, stderr is diagnostics. A closed pipe (`| head`) ends quietly;
 * SIGINT stops promptly; the exit code is set, never forced, so piped output is never cut.
 */
import { once } from 'node:events';
import { unlinkSync } from 'node:fs';
import { blockingOpens } from '../input/blocking.js';

export const EXIT_OK = 0;
export const EXIT_GATE = 1;
export const EXIT_USAGE = 2;

export function installPipeGuards(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    // Any other write failure (disk full, a closed terminal): one line, no stack trace.
    process.stderr.write(`callpair: cannot write output: ${e.code ?? e.message}\n`);
    process.exit(2);
  });
  process.on('SIGINT', () => {
    removeTemps();
    process.stderr.write('callpair: interrupted\n');
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
    if (process.env.CALLPAIR_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
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

/** Writes text to stdout and waits until it is flushed (or the pipe closed). */
export async function writeStdout(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain').catch(() => undefined);
}

/**
 * Text made safe for one line of a terminal: C0/C1 controls (ESC, newline, CR…), DEL, bidi
 * controls, line separators and lone surrogates are written as visible escapes (`\x1b`, `\u202e`),
 * never raw; long text is cut with a marker.
 */
export function oneLine(s: string, max = 2000): string {
  let out = s.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  if (out.length > max) out = `${out.slice(0, max)}…[+${out.length - max} chars]`;
  return out;
}
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** An argument (a path, a value) quoted into a diagnostic: escaped as by `oneLine`, at most 300 chars. */
export function displayArg(s: string): string {
  return oneLine(s, 300);
}

/** A one-line diagnostic on stderr; whatever it quotes, nothing reaches the terminal raw. */
export function diag(msg: string): void {
  process.stderr.write(`callpair: ${oneLine(msg)}\n`);
}
