/**
 * Output plumbing: stdout is data, stderr is diagnostics. A closed pipe (`| head`) ends quietly;
 * SIGINT stops promptly; the exit code is set, never forced, so piped output is never cut.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

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
    process.stderr.write('callpair: interrupted\n');
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

/** A one-line diagnostic on stderr. */
export function diag(msg: string): void {
  process.stderr.write(`callpair: ${msg}\n`);
}
