/**
 * Output plumbing: stdout is data, stderr is diagnostics. A closed pipe (`| head`) ends quietly;
 * SIGINT stops promptly; the exit code is set, never forced, so piped output is never cut.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

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

/** A file-system error on an output: one line on stderr, exit 2 (options.ts `guarded`). */
export class OutputError extends Error {
  override name = 'OutputError';
}

/** `cannot write FILE: is a directory` and the like, from a file-system error. */
export function outputError(file: string, e: unknown): OutputError {
  const code = (e as NodeJS.ErrnoException)?.code;
  const why: Record<string, string> = {
    EISDIR: 'is a directory',
    ENOTDIR: 'a parent is not a directory',
    EACCES: 'permission denied',
    EPERM: 'not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    ENOENT: 'no such directory',
    EEXIST: 'a parent is a file',
  };
  return new OutputError(`cannot write ${file}: ${(code && why[code]) ?? code ?? String(e)}`);
}

/** Creates the parent directories of an output file (as `--report` always did). */
export async function prepareOutput(file: string): Promise<void> {
  try {
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  } catch (e) {
    throw outputError(file, e);
  }
}

export async function writeFileText(file: string, text: string): Promise<void> {
  await prepareOutput(file);
  try {
    const ws = createWriteStream(file);
    const done = once(ws, 'finish');
    ws.end(text);
    await done;
  } catch (e) {
    throw outputError(file, e);
  }
}

/** A one-line diagnostic on stderr. */
export function diag(msg: string): void {
  process.stderr.write(`callpair: ${msg}\n`);
}
