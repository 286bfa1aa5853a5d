/**
 * Output files (`--output`, `--report FORMAT=FILE`), for every command (docs/guarantees.md):
 *
 * - an output that is the same file as an input (same device and inode: hard links and symlinks
 *   count, and stdin redirected from a file) is refused, exit 2, before anything is opened for writing;
 * - so is an output inside a directory given as an input (docs/inputs.md, "Outputs"), existing or
 *   not, whatever its name: the next run over that directory would read it;
 * - a regular file is written to a temporary file in the same folder, then renamed over the target,
 *   so a failed or interrupted run never leaves a half-written report or truncates what was there;
 * - a target that exists and is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) is written
 *   in place; a directory is refused;
 * - the target's folder is created when missing;
 * - any failure (no space, no permission, a path under a file) is one line on stderr and exit 2.
 */
import { fstatSync, type Stats, type WriteStream } from 'node:fs';
import { mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { crypto } from '../builtins.js';
import { displayName, fileId, isCaptureName, rawArgument, resolveSources, type Source } from '../input/sources.js';
import { displayArg, pendingTemps, trackTemp, writeText } from './io.js';
import { blockingOpen } from '../input/blocking.js';
import { profileNames } from '../profiles/index.js';

/** A failure to write an output: one line on stderr, exit 2. */
export class OutputError extends Error {
  override name = 'OutputError';
}


function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOSPC') return 'no space left on device (ENOSPC)';
  if (err?.code === 'EACCES' || err?.code === 'EPERM') return `permission denied (${err.code})`;
  if (err?.code === 'ENOTDIR') return 'a part of the path is not a directory (ENOTDIR)';
  if (err?.code === 'EISDIR') return 'is a directory';
  if (err?.code === 'EROFS') return 'read-only file system (EROFS)';
  if (err?.code) return err.code;
  return String(err?.message ?? e).split('\n')[0]!;
}

export function outputError(file: string, e: unknown): OutputError {
  return e instanceof OutputError ? e : new OutputError(`cannot write ${displayArg(file)}: ${reason(e)}`);
}

async function statOrNull(p: string | Buffer): Promise<Stats | null> {
  try {
    return await stat(p);
  } catch {
    return null;
  }
}

/**
 * The first file named twice in `files` (the same device and inode under two names, or one name
 * twice), as [the later name, the earlier one]; null when all differ. Files that cannot be stat'ed
 * are left to their reader.
 */
export async function sameFileTwice(files: readonly string[]): Promise<[string, string] | null> {
  const seen = new Map<string, string>();
  for (const f of files) {
    const s = await statOrNull(osPath(f));
    if (!s?.isFile()) continue;
    const id = fileId(s);
    const other = seen.get(id);
    if (other !== undefined) return [f, other];
    seen.set(id, f);
  }
  return null;
}

/**
 * A path as the string of its bytes (latin1: one character per byte), so names that are not UTF-8
 * compare exactly; `fsPath` turns it back into the bytes to give the file system.
 */
function bytesOf(p: string | Buffer): string {
  return (typeof p === 'string' ? Buffer.from(p) : p).toString('latin1');
}
function fsPath(bytes: string): Buffer {
  return Buffer.from(bytes, 'latin1');
}

async function realBytes(bytes: string): Promise<string | null> {
  try {
    return bytesOf(await realpath(fsPath(bytes), 'buffer'));
  } catch {
    return null;
  }
}

/** The directory an input argument names, resolved (symlinks followed), as bytes; null for anything else. */
async function inputDirectory(arg: string): Promise<string | null> {
  if (arg === '-') return null;
  const s = await statOrNull(osPath(arg));
  if (!s?.isDirectory()) return null;
  return realBytes(bytesOf(osPath(arg)));
}

/**
 * Where an output lands, resolved (as bytes), in every reading that can apply: its folder with
 * symlinks followed (the nearest folder that exists when missing ones are to be created, as
 * `openOutput` creates them) and its name in it; the folder of the name as given (`link/../x`
 * goes through the link); and, when it exists, the file it resolves to (a symlink's target, which
 * `openOutput` replaces).
 */
async function outputLocations(file: string): Promise<string[]> {
  const given = bytesOf(osPath(file));
  const cwd = bytesOf(process.cwd());
  const abs = path.posix.resolve(cwd, given);
  const out = new Set<string>();
  // The nearest existing ancestor of the folder, resolved, then the parts still to be created.
  let dir = path.posix.dirname(abs);
  const rest: string[] = [path.posix.basename(abs)];
  for (;;) {
    const real = await realBytes(dir);
    if (real !== null) {
      out.add(path.posix.join(real, ...rest));
      break;
    }
    const up = path.posix.dirname(dir);
    if (up === dir) break;
    rest.unshift(path.posix.basename(dir));
    dir = up;
  }
  const slash = given.lastIndexOf('/');
  const givenDir = slash === -1 ? '.' : slash === 0 ? '/' : given.slice(0, slash);
  const realGivenDir = await realBytes(givenDir);
  if (realGivenDir !== null) out.add(path.posix.join(realGivenDir, given.slice(slash + 1)));
  const realFile = await realBytes(given);
  if (realFile !== null) out.add(realFile);
  return [...out];
}

/** An argument for a diagnostic: a name given in bytes that are not UTF-8 shows them escaped (`caf\xe9`). */
function shownArg(arg: string): string {
  const raw = arg.includes('\ufffd') ? rawArgument(arg) : null;
  return displayArg(raw ? displayName(raw) : arg);
}

function isInside(file: string, dir: string): boolean {
  return file.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/** Input arguments of a run, as given (paths, directories, globs, `-`). */
export interface InputArgsLists {
  inputs: readonly string[];
  caller?: readonly string[];
  upstream?: readonly string[];
  /** `--profile`: its entries that are not built-in names are profile files, read too. */
  profile?: string;
  /** Other files the run reads (a `--baseline` report), or directories of them (merge's reports). */
  others?: readonly string[];
}

/**
 * Refuses outputs that name an input, a path inside an input directory, a directory, or the same
 * file twice. Runs before any input
 * is read and before any output is opened; input arguments that do not resolve are left to the
 * run itself (it reports them).
 */
export async function checkOutputs(
  outputs: readonly { file: string; /** `--output ` or `--report json=` */ flag: string }[],
  inputs: InputArgsLists,
  /** The main output goes to stdout: refuse it too when stdout is an input file (`>> x.jsonl`). */
  toStdout = false,
): Promise<void> {
  let stdoutId: string | null = null;
  if (toStdout) {
    try {
      const s = fstatSync(1);
      if (s.isFile()) stdoutId = fileId(s);
    } catch {
      // no stdout
    }
  }
  if (outputs.length === 0 && stdoutId === null) return;
  const ids = new Map<string, string>();
  const idOf = fileId;
  const lists = [inputs.caller ?? [], inputs.inputs, inputs.upstream ?? []];
  // Directories given as inputs (resolved), with the argument that named each.
  const dirs: { real: string; arg: string }[] = [];
  for (const arg of [...lists.flat(), ...(inputs.others ?? [])]) {
    const real = await inputDirectory(arg);
    if (real !== null) dirs.push({ real, arg });
  }
  for (const list of lists) {
    for (const arg of list) {
      if (arg === '-') {
        try {
          const s = fstatSync(0);
          if (s.isFile()) ids.set(idOf(s), 'stdin');
        } catch {
          // no stdin
        }
        continue;
      }
      let files: Source[] = [];
      try {
        files = (await resolveSources([arg])).sources;
      } catch {
        continue;
      }
      for (const f of files) {
        const s = f.file === null ? null : await statOrNull(f.file);
        if (s) ids.set(idOf(s), f.path);
      }
    }
  }
  // Files read besides the captures: custom profile files, a baseline report.
  const builtIn = new Set(profileNames());
  const extra = [...(inputs.others ?? []), ...(inputs.profile ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '' && !builtIn.has(p))];
  for (const f of extra) {
    const s = await statOrNull(osPath(f));
    if (s?.isFile()) ids.set(idOf(s), f);
  }
  if (stdoutId !== null && ids.has(stdoutId)) {
    throw new OutputError(`stdout is the same file as the input ${displayArg(ids.get(stdoutId)!)}: refusing to write into an input (use --output)`);
  }
  const seen = new Map<string, string>();
  for (const o of outputs) {
    const s = await statOrNull(osPath(o.file));
    if (s?.isDirectory()) throw new OutputError(`cannot write ${displayArg(o.file)}: is a directory (${o.flag.trim()})`);
    if (s) {
      const input = ids.get(idOf(s));
      if (input !== undefined) throw new OutputError(`${o.flag}${displayArg(o.file)} is the same file as the input ${displayArg(input)}: refusing to overwrite an input`);
    }
    if (dirs.length > 0) {
      const where = await outputLocations(o.file);
      // Only a name the directory walk reads (*.jsonl, *.json, …): a report.md or .sarif there is skipped by the next run, never read.
      const dir = dirs.find((d) => where.some((w) => isInside(w, d.real) && isCaptureName(path.posix.basename(w))));
      if (dir) throw new OutputError(`${o.flag}${shownArg(o.file)} is inside the input directory ${shownArg(dir.arg)}: refusing to write where an input is read`);
    }
    const key = s && s.isFile() ? idOf(s) : path.resolve(o.file);
    const other = seen.get(key);
    if (other !== undefined) throw new OutputError(`${o.flag}${displayArg(o.file)} is also ${other}: name each output once`);
    seen.set(key, `${o.flag}${displayArg(o.file)}`);
  }
}

/** One output being written: a stream, then `commit` (rename into place) or `abort`. */
export interface OutputFile {
  readonly file: string;
  readonly stream: WriteStream;
  /** The first write error, if any (the stream stops accepting writes). */
  error(): unknown;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** The path to open: a name given with bytes that are not UTF-8 is taken from the command line as bytes. */
function osPath(file: string): string | Buffer {
  return file.includes('\ufffd') ? (rawArgument(file) ?? file) : file;
}

/** Opens an output (see the file comment); failures are OutputErrors. */
export async function openOutput(given: string): Promise<OutputFile> {
  const file = given;
  const fsFile = osPath(given);
  try {
    const existing = await statOrNull(fsFile);
    if (existing?.isDirectory()) throw new OutputError(`cannot write ${displayArg(file)}: is a directory`);
    const direct = existing !== null && !existing.isFile();
    let target: string | Buffer = fsFile;
    let temp: string | Buffer | null = null;
    if (!direct) {
      // Write beside the file a symlink names, so the rename replaces the file, not the link.
      if (existing) target = typeof fsFile === 'string' ? await realpath(fsFile) : await realpath(fsFile, 'buffer');
      const tmpName = `.callpair-${process.pid}-${crypto().randomBytes(4).toString('hex')}.tmp`;
      if (typeof target === 'string') {
        const dir = path.dirname(path.resolve(target));
        await mkdir(dir, { recursive: true });
        temp = path.join(dir, tmpName);
      } else {
        // A name in bytes: its folder is the bytes before the last '/'.
        const slash = target.lastIndexOf(0x2f);
        const dir = slash === -1 ? Buffer.from('.') : slash === 0 ? Buffer.from('/') : target.subarray(0, slash);
        await mkdir(dir, { recursive: true });
        temp = Buffer.concat([dir, Buffer.from(`/${tmpName}`)]);
      }
    }
    const where = temp ?? fsFile;
    const fh = temp ? await open(where, 'wx', 0o666) : await blockingOpen(() => open(where, 'w', 0o666));
    if (temp) {
      trackTemp(temp);
      if (existing) await fh.chmod(existing.mode & 0o7777).catch(() => undefined);
    }
    const stream = fh.createWriteStream({ highWaterMark: 1 << 20 });
    let failure: unknown = null;
    stream.on('error', (e) => {
      failure ??= e;
    });
    let finished = false;
    return {
      file,
      stream,
      error: () => failure,
      async commit() {
        if (finished) return;
        finished = true;
        if (!failure && !stream.destroyed) {
          const closed = stream.closed ? Promise.resolve() : once(stream, 'close').catch(() => undefined);
          stream.end();
          await closed;
        }
        if (failure) {
          await dropTemp(temp);
          throw outputError(file, failure);
        }
        if (temp) {
          try {
            await rename(temp, target);
          } catch (e) {
            await dropTemp(temp);
            throw outputError(file, e);
          }
          pendingTemps.delete(temp);
        }
      },
      async abort() {
        if (finished) return;
        finished = true;
        if (!stream.closed) {
          const closed = once(stream, 'close').catch(() => undefined);
          stream.destroy();
          await closed;
        }
        await dropTemp(temp);
      },
    };
  } catch (e) {
    throw outputError(file, e);
  }
}

async function dropTemp(temp: string | Buffer | null): Promise<void> {
  if (!temp) return;
  await unlink(temp).catch(() => undefined);
  pendingTemps.delete(temp);
}

/** Writes `text` (or its pieces) to an opened output and commits it. */
export async function writeOutput(out: OutputFile, text: string | Iterable<string>): Promise<void> {
  await writeText(out.stream, text, () => Boolean(out.error()));
  await out.commit();
}

/** Opens outputs in order; on a failure, those already opened are aborted. */
export async function openOutputs(files: readonly string[]): Promise<OutputFile[]> {
  const opened: OutputFile[] = [];
  try {
    for (const f of files) opened.push(await openOutput(f));
  } catch (e) {
    await abortAll(opened);
    throw e;
  }
  return opened;
}

export async function abortAll(outs: readonly OutputFile[]): Promise<void> {
  for (const o of outs) await o.abort();
}
