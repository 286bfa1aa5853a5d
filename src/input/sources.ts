/**
 * Turning input arguments into an ordered list of sources: paths, directories (recursed in sorted
 * order for *.jsonl, *.ndjson, *.json and the same with .gz), globs expanded by the tool itself,
 * and `-` for stdin.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface Source {
  /** Displayed path (as given, or relative to the directory argument's own path). */
  path: string;
  /** Filesystem path, or null for stdin. */
  file: string | null;
  /** Role for profiles that need it (assay: `caller`, `upstream`); default `capture`. */
  role: SourceRole;
}

export type SourceRole = 'capture' | 'caller' | 'upstream';

/** Thrown for a usage problem or an input that cannot be opened at start (exit 2). */
export class InputUsageError extends Error {
  override name = 'InputUsageError';
}

const CAPTURE_EXT = /\.(jsonl|ndjson|json)(\.gz)?$/i;

export function isCaptureName(name: string): boolean {
  return CAPTURE_EXT.test(name);
}

/** Byte-wise comparison, so the order does not depend on locale or filesystem. */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A directory entry the walk could not read: where, and why (an errno code, or `not a regular file`). */
export interface WalkError {
  path: string;
  reason: string;
}

async function walk(dir: string, out: string[], errors: WalkError[], skipped: string[] = []): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (e) {
    errors.push({ path: dir, reason: (e as NodeJS.ErrnoException).code ?? (e as Error).message });
    return;
  }
  entries.sort((a, b) => byteOrder(a.name, b.name));
  for (const ent of entries) {
    const p = path.join(dir, ent.name);
    if (ent.isDirectory()) await walk(p, out, errors, skipped);
    else if ((ent.isFile() || ent.isSymbolicLink()) && isCaptureName(ent.name)) out.push(p);
    // A FIFO, socket or device named like a capture would block or fail: reported, never read.
    else if (isCaptureName(ent.name)) errors.push({ path: p, reason: 'not a regular file' });
    else if (ent.isFile()) skipped.push(p);
  }
}

export interface ResolvedSources {
  sources: Source[];
  /** Unreadable directory entries met while walking (reported, the run goes on). */
  walkErrors: WalkError[];
  /** Regular files met while walking a directory that are not named like captures (not read). */
  skipped: string[];
}

/** Resolves input arguments. A path that does not exist (or a glob matching nothing) is a usage error. */
export async function resolveSources(args: readonly string[], role: SourceRole = 'capture'): Promise<ResolvedSources> {
  const sources: Source[] = [];
  const walkErrors: WalkError[] = [];
  const skipped: string[] = [];
  let stdinUsed = false;
  for (const arg of args) {
    if (arg === '-') {
      if (stdinUsed) throw new InputUsageError('stdin (-) can be given only once');
      stdinUsed = true;
      sources.push({ path: '-', file: null, role });
      continue;
    }
    let st: import('node:fs').Stats | null = null;
    try {
      st = await fs.stat(arg);
    } catch {
      st = null;
    }
    if (st?.isDirectory()) {
      const files: string[] = [];
      await walk(arg, files, walkErrors, skipped);
      for (const f of files) sources.push({ path: f, file: f, role });
      continue;
    }
    if (st) {
      sources.push({ path: arg, file: arg, role });
      continue;
    }
    // Loaded only when needed: it costs startup time on every run otherwise.
    const { glob, isDynamicPattern } = await import('tinyglobby');
    if (isDynamicPattern(arg)) {
      const matches = (await glob(arg, { onlyFiles: true, dot: false, expandDirectories: false })).sort(byteOrder);
      if (matches.length === 0) throw new InputUsageError(`no input matches ${JSON.stringify(arg)}`);
      for (const f of matches) sources.push({ path: f, file: f, role });
      continue;
    }
    throw new InputUsageError(`cannot read ${arg}: no such file or directory`);
  }
  return { sources, walkErrors, skipped };
}
