/**
 * Output plumbing: stdout is data, stderr is diagnostics. A closed pipe (`| head`) ends quietly;
 * SIGINT stops promptly; the exit code is set, never forced, so piped output is never cut.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { safeText } from '../formatters/safe.js';

export const EXIT_OK = 0;
export const EXIT_GATE = 1;
export const EXIT_USAGE = 2;

export function installPipeGuards(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    // Any other write failure (disk full, a closed terminal): one line, no stack trace.
    diag(`cannot write output: ${e.code ?? e.message}`);
    process.exit(2);
  });
  process.on('SIGINT', () => {
    diag('interrupted');
    process.exit(130);
  });
}

/** Writes text to stdout and waits until it is flushed (or the pipe closed). */
export async function writeStdout(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain').catch(() => undefined);
}

export async function writeFileText(file: string, text: string): Promise<void> {
  const ws = createWriteStream(file);
  const done = once(ws, 'finish');
  ws.end(text);
  await done;
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
