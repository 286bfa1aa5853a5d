/**
 * Capture paths for formats read by CI services (SARIF, GitHub annotations): relative to the
 * working directory, posix separators. A path outside it stays absolute; stdin has no path.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface CapturePath {
  /** Posix path relative to cwd, or null when the file is outside cwd (or stdin). */
  relative: string | null;
  /** The path as reported (stdin is `-`). */
  original: string;
  /** Absolute path, or null for stdin. */
  absolute: string | null;
}

export function capturePath(p: string, cwd: string): CapturePath {
  if (p === '-') return { relative: null, original: p, absolute: null };
  const absolute = path.resolve(cwd, p);
  const rel = path.relative(cwd, absolute);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  return { relative: inside ? rel.split(path.sep).join('/') : null, original: p, absolute };
}

/**
 * A URI reference for SARIF, relative to the working directory (its base `%SRCROOT%`), each segment
 * percent-encoded: a file outside it is reached with `..` segments, so no machine's absolute path
 * lands in the log (docs/ci.md#sarif). Only a path with no relative form (another drive) is a
 * file: URL; null for stdin.
 */
export function captureUri(p: string, cwd: string): { uri: string; relative: boolean } | null {
  const c = capturePath(p, cwd);
  if (c.relative !== null) return { uri: c.relative.split('/').map(encodeURIComponent).join('/'), relative: true };
  if (c.absolute === null) return null;
  const rel = path.relative(cwd, c.absolute);
  if (rel !== '' && !path.isAbsolute(rel)) return { uri: rel.split(path.sep).map(encodeURIComponent).join('/'), relative: true };
  return { uri: pathToFileURL(c.absolute).href, relative: false };
}
