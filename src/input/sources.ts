/**
 * Turning input arguments into an ordered list of sources: paths, directories (recursed in natural
 * order, `run-9` before `run-10`, for *.jsonl, *.ndjson, *.json, *.har and the same with .gz), globs expanded by the tool itself,
 * and `-` for stdin.
 */
import { promises as fs, fstatSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { displayArg } from '../formatters/safe.js';

export interface Source {
  /** Displayed path (as given, or relative to the directory argument's own path); bytes of a name that are not UTF-8 are shown as `\\xNN`. */
  path: string;
  /** Filesystem path (bytes when the name is not UTF-8), or null for stdin. */
  file: string | Buffer | null;
  /** Role for profiles that need it (assay: `caller`, `upstream`); default `capture`. */
  role: SourceRole;
  /**
   * Found by walking a directory or expanding a glob: read only if, after following links, it is a
   * regular file (checked again on the open descriptor, so a swap after the walk is caught too).
   */
  regularOnly?: boolean;
}

export type SourceRole = 'capture' | 'caller' | 'upstream';

/** Thrown for a usage problem or an input that cannot be opened at start (exit 2). */
export class InputUsageError extends Error {
  override name = 'InputUsageError';
}

const CAPTURE_EXT = /\.(jsonl|ndjson|json|har)(\.gz)?$/i;

export function isCaptureName(name: string): boolean {
  return CAPTURE_EXT.test(name);
}

/**
 * Natural order of names as bytes (docs/inputs.md): runs of ASCII digits compare by their value
 * (`run-9` before `run-10`), everything else byte by byte; equal-valued names (`run-09`, `run-9`)
 * fall back to plain byte order. It does not depend on locale or filesystem, and is total.
 */
export function naturalOrder(a: Buffer, b: Buffer): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (isDigit(x) && isDigit(y)) {
      // Skip leading zeros, then the longer run is the larger number; same length: by digits.
      let i0 = i;
      let j0 = j;
      while (i0 < a.length && a[i0] === 0x30) i0++;
      while (j0 < b.length && b[j0] === 0x30) j0++;
      let i1 = i0;
      let j1 = j0;
      while (i1 < a.length && isDigit(a[i1]!)) i1++;
      while (j1 < b.length && isDigit(b[j1]!)) j1++;
      if (i1 - i0 !== j1 - j0) return i1 - i0 - (j1 - j0);
      const c = Buffer.compare(a.subarray(i0, i1), b.subarray(j0, j1));
      if (c !== 0) return c;
      i = i1;
      j = j1;
      continue;
    }
    if (x !== y) return x - y;
    i++;
    j++;
  }
  if (i < a.length || j < b.length) return i < a.length ? 1 : -1;
  return Buffer.compare(a, b);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function byteOrder(a: string, b: string): number {
  return naturalOrder(Buffer.from(a), Buffer.from(b));
}

/**
 * A file name's bytes for display: valid UTF-8 as it is, every byte that is not part of a valid
 * UTF-8 sequence as `\\xNN` (names are bytes on POSIX; docs/inputs.md).
 */
export function displayName(name: Buffer | string): string {
  if (typeof name === 'string') return name;
  const text = name.toString('utf8');
  if (!text.includes('\ufffd') || Buffer.from(text).equals(name)) return text;
  let out = '';
  let i = 0;
  while (i < name.length) {
    const b = name[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n > 0 && i + n <= name.length) {
      const piece = name.subarray(i, i + n);
      const dec = piece.toString('utf8');
      if (!dec.includes('\ufffd') && Buffer.from(dec).equals(piece)) {
        out += dec;
        i += n;
        continue;
      }
    }
    out += `\\x${b.toString(16).padStart(2, '0')}`;
    i++;
  }
  return out;
}

/** A name's bytes as the path to open: a string when it is UTF-8 (round-trips), else the bytes. */
function fsName(bytes: Buffer): string | Buffer {
  const text = bytes.toString('utf8');
  return Buffer.from(text).equals(bytes) ? text : bytes;
}

function joinPath(dir: string | Buffer, name: Buffer): string | Buffer {
  if (typeof dir === 'string') {
    const n = fsName(name);
    if (typeof n === 'string') return path.join(dir, n);
    dir = Buffer.from(dir);
  }
  const sep = dir.length > 0 && dir[dir.length - 1] !== 0x2f ? Buffer.from('/') : Buffer.alloc(0);
  return Buffer.concat([dir, sep, name]);
}

/** What a non-regular file is, for the message that says why it was skipped. */
export function fileKind(st: import('node:fs').Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'an unknown kind of file';
}

/** A directory entry the walk could not read or skipped: where, and why. */
export interface WalkError {
  path: string;
  reason: string;
}

interface Walked {
  file: string | Buffer;
  display: string;
}

async function walk(dir: string | Buffer, display: string, out: Walked[], errors: WalkError[], skipped: string[] = []): Promise<void> {
  let entries: import('node:fs').Dirent<Buffer>[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true, encoding: 'buffer' });
  } catch (e) {
    errors.push({ path: display, reason: `cannot be listed (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}), skipped` });
    return;
  }
  entries.sort((a, b) => naturalOrder(a.name, b.name));
  for (const ent of entries) {
    const p = joinPath(dir, ent.name);
    const shown = path.join(display, displayName(ent.name));
    if (ent.isDirectory()) {
      await walk(p, shown, out, errors, skipped);
      continue;
    }
    if (!isCaptureName(ent.name.toString('latin1'))) {
      // Any entry, a link or a FIFO too: not read, and said so (a --upstream side may be in it).
      skipped.push(shown);
      continue;
    }
    if (ent.isFile()) {
      out.push({ file: p, display: shown });
      continue;
    }
    if (ent.isSymbolicLink()) {
      // The special-file rule applies to what the link names: a link to /dev/zero or to a FIFO
      // would read forever or block, so it is skipped and said so (docs/inputs.md).
      let st: import('node:fs').Stats;
      try {
        st = await fs.stat(p);
      } catch (e) {
        errors.push({ path: shown, reason: `skipped, a link that cannot be followed (${(e as NodeJS.ErrnoException).code ?? 'error'})` });
        continue;
      }
      if (st.isFile()) out.push({ file: p, display: shown });
      else errors.push({ path: shown, reason: `skipped, a link to ${fileKind(st)}, not a regular file` });
      continue;
    }
    // A FIFO, socket or device named like a capture would block or fail: reported, never read.
    // (A filesystem that does not report entry types is asked with lstat.)
    const st = await fs.lstat(p).catch(() => null);
    if (st?.isFile()) out.push({ file: p, display: shown });
    else errors.push({ path: shown, reason: `skipped, ${st ? fileKind(st) : 'not a regular file'}${st && !st.isDirectory() ? ', not a regular file' : ''}` });
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
  // An argument given again (200 000 times, say) is looked up once: a stat each cost ~50 µs of CPU.
  const statted = new Map<string, Stats | null>();
  for (const arg of args) {
    if (arg === '-') {
      if (stdinUsed) throw new InputUsageError('stdin (-) can be given only once');
      stdinUsed = true;
      sources.push({ path: '-', file: null, role });
      continue;
    }
    let st = statted.get(arg);
    if (st === undefined) {
      st = await fs.stat(arg).catch(() => null);
      statted.set(arg, st);
    }
    let file: string | Buffer = arg;
    let shown = arg;
    if (!st && arg.includes('\ufffd')) {
      // A name that is not UTF-8 reaches process.argv with U+FFFD in place of its bytes: the
      // original bytes are taken from the command line itself (Linux /proc/self/cmdline).
      const raw = rawArgument(arg);
      if (raw) {
        try {
          st = await fs.stat(raw);
          file = raw;
          shown = displayName(raw);
        } catch {
          st = null;
        }
      }
    }
    if (st?.isDirectory()) {
      const files: Walked[] = [];
      await walk(file, shown, files, walkErrors, skipped);
      for (const f of files) sources.push({ path: f.display, file: f.file, role, regularOnly: true });
      continue;
    }
    if (st) {
      sources.push({ path: shown, file, role });
      continue;
    }
    // Loaded only when needed: it costs startup time on every run otherwise.
    const { glob, isDynamicPattern } = await import('tinyglobby');
    if (isDynamicPattern(arg)) {
      const matches = (await glob(arg, { onlyFiles: true, dot: false, expandDirectories: false })).sort(byteOrder);
      if (matches.length === 0) throw new InputUsageError(`no input matches ${JSON.stringify(arg)}`);
      // tinyglobby lists FIFOs and devices as files: the special-file rule applies (checked at open).
      for (const f of matches) {
        const raw = f.includes('\ufffd') ? await rawName(f) : null;
        sources.push({ path: raw ? displayName(raw) : f, file: raw ?? f, role, regularOnly: true });
      }
      continue;
    }
    throw new InputUsageError(`cannot read ${displayArg(arg)}: no such file or directory`);
  }
  return { sources, walkErrors, skipped };
}

let cmdline: Buffer[] | null = null;

/** The raw bytes of the command-line argument that process.argv shows (lossily) as `arg`, if any. */
export function rawArgument(arg: string): Buffer | null {
  if (cmdline === null) {
    try {
      const all = readFileSync('/proc/self/cmdline');
      cmdline = [];
      let s = 0;
      for (let i = 0; i < all.length; i++) {
        if (all[i] === 0) {
          cmdline.push(all.subarray(s, i));
          s = i + 1;
        }
      }
    } catch {
      cmdline = [];
    }
  }
  for (const b of cmdline) if (b.toString('utf8') === arg && !Buffer.from(arg).equals(b)) return b;
  // `--opt=value` forms carry the value after the `=`.
  for (const b of cmdline) {
    const eq = b.indexOf(0x3d);
    if (eq > 0 && b.subarray(eq + 1).toString('utf8') === arg && !Buffer.from(arg).equals(b.subarray(eq + 1))) return Buffer.from(b.subarray(eq + 1));
  }
  return null;
}

/** The bytes of a file name that a glob returned lossily (U+FFFD for bytes that are not UTF-8). */
async function rawName(f: string): Promise<Buffer | null> {
  const dir = path.dirname(f);
  const base = path.basename(f);
  try {
    const names = await fs.readdir(dir, { encoding: 'buffer' });
    const hit = names.find((n) => n.toString('utf8') === base);
    return hit ? Buffer.concat([Buffer.from(dir === '.' && !f.startsWith('.') ? '' : `${dir}/`), hit]) : null;
  } catch {
    return null;
  }
}

/** A file's identity (device and inode): the same for every name of it (hard links, symlinks, `./x`). */
export function fileId(st: Pick<Stats, 'dev' | 'ino'>): string {
  return `${st.dev}:${st.ino}`;
}

/** The identity of what a source reads (stdin: fd 0 when it is a file), or null when it cannot be known. */
export function sourceFileId(source: Source): string | null {
  try {
    if (source.file === null) {
      const st = fstatSync(0);
      return st.isFile() ? fileId(st) : null;
    }
    return fileId(statSync(source.file));
  } catch {
    return null;
  }
}

export interface Repeated {
  /** The source not read (displayed path). */
  path: string;
  /** The source it is the same file as (read in its place). */
  same: string;
}

/**
 * Sources that name a file already named for the same role (`x`, `./x`, a hard link, stdin
 * redirected from it) are read once, at their first place (docs/inputs.md): each file's lines are
 * counted once. The others are returned to be named in a note.
 */
export function dropRepeatedFiles(sources: readonly Source[]): { sources: Source[]; repeated: Repeated[] } {
  const first = new Map<string, string>();
  const kept: Source[] = [];
  const repeated: Repeated[] = [];
  // One stat per path named (a path given again is the same file).
  const ids = new Map<string, string | null>();
  for (const s of sources) {
    let id: string | null;
    if (typeof s.file === 'string') {
      const known = ids.get(s.file);
      if (known === undefined) ids.set(s.file, (id = sourceFileId(s)));
      else id = known;
    } else id = sourceFileId(s);
    if (id === null) {
      kept.push(s);
      continue;
    }
    const key = `${s.role}\0${id}`;
    const same = first.get(key);
    if (same !== undefined) repeated.push({ path: s.path, same });
    else {
      first.set(key, s.path);
      kept.push(s);
    }
  }
  return { sources: kept, repeated };
}
