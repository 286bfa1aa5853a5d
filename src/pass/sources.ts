/**
 * Stage 1, sources: the inputs as files to read, in reading order (caller logs, captures, upstream
 * logs: request sides before terminal sides), with what was given but is not read (the profile
 * file itself, a file given twice, names that are no capture) for the report's notes.
 */
import path from 'node:path';
import { dropRepeatedFiles, InputUsageError, resolveSources, type Source, type SourceRole, type WalkError } from '../input/sources.js';
import { append } from '../arrays.js';
import type { AnalyzeOptions } from './options.js';

export interface Sources {
  sources: Source[];
  walkErrors: WalkError[];
  /** Not read: names that are no capture. */
  skipped: string[];
  /** Of those, the files of a caller or upstream directory: a side of the Assay audit may be in them. */
  skippedLogs: Array<{ role: SourceRole; path: string }>;
  /** Not read: the custom profile file, met in a directory given as input. */
  profileSkipped: string[];
  /** Read once, given more than once. */
  repeated: ReturnType<typeof dropRepeatedFiles>['repeated'];
}

export async function gatherSources(opts: AnalyzeOptions): Promise<Sources> {
  const sources: Source[] = [];
  const walkErrors: WalkError[] = [];
  const skipped: string[] = [];
  const skippedLogs: Array<{ role: SourceRole; path: string }> = [];
  const add = async (args: readonly string[] | undefined, role: SourceRole) => {
    if (!args || args.length === 0) return;
    // A caller or upstream argument that names no log (an empty directory, one holding only
    // `upstream.log`) is a usage error like an unmatched glob: its side of the audit would be missing.
    for (const group of role === 'capture' ? [args] : args.map((a) => [a])) {
      const r = await resolveSources(group, role);
      if (role !== 'capture' && r.sources.length === 0 && r.walkErrors.length === 0) {
        const seen = r.skipped.length > 0 ? ` (not read: ${r.skipped.slice(0, 3).map((x) => JSON.stringify(x)).join(', ')}${r.skipped.length > 3 ? ' …' : ''})` : '';
        throw new InputUsageError(`--${role} ${JSON.stringify(group[0])}: no log in it; a log is named *.jsonl, *.ndjson or *.json, optionally .gz${seen}`);
      }
      append(sources, r.sources);
      append(walkErrors, r.walkErrors);
      append(skipped, r.skipped);
      if (role !== 'capture') for (const p of r.skipped) skippedLogs.push({ role, path: p });
    }
  };
  // Request sides before terminal sides (assay reads in file order without timestamps).
  await add(opts.caller, 'caller');
  await add(opts.inputs, 'capture');
  await add(opts.upstream, 'upstream');
  // The custom profile file itself, met in a directory given as input, is no capture.
  const profileFiles = profileFilePaths(opts.profile);
  const profileSkipped: string[] = [];
  const captures: Source[] = [];
  for (const s of sources) {
    if (profileFiles.size > 0 && typeof s.file === 'string' && profileFiles.has(path.resolve(s.file))) profileSkipped.push(s.path);
    else captures.push(s);
  }
  // The same file given twice (`x`, `./x`, a hard link) is read once and named in a note.
  const distinct = dropRepeatedFiles(captures);
  return { sources: distinct.sources, walkErrors, skipped, skippedLogs, profileSkipped, repeated: distinct.repeated };
}

/** The resolved paths of the custom profile files `--profile` names (`x.json`, `auto,x.json`). */
function profileFilePaths(profile: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const p of (profile ?? '').split(',')) if (/\.json$/i.test(p) || p.includes('/')) out.add(path.resolve(p));
  return out;
}
