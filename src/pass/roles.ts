/**
 * Stage 2, roles: which input roles the run has, known before anything is read (profiles evaluate a
 * channel only when both sides exist). A caller or upstream log with no JSON-RPC message at all (a
 * plain log of method names…) says nothing about what was sent or received: its side is not
 * evaluated, and it gets an UNMATCHED_INPUT finding instead of every call looking undelivered.
 */
import type { Source, SourceRole } from '../input/sources.js';
import { fileContains } from '../input/sniff.js';
import type { AnalyzeOptions } from './options.js';

export interface Roles {
  /** Caller and upstream logs that hold no JSON-RPC message. */
  rpcLess: ReadonlySet<Source>;
  /** Which roles have a usable input. */
  present: { capture: boolean; caller: boolean; upstream: boolean };
  /** How many files each role has (order across files is no evidence for the assay audit). */
  files: Record<SourceRole, number>;
  unusableLogs: Array<{ role: SourceRole; path: string }>;
  /** Files of a caller or upstream directory not read (not named as a log). */
  skippedLogs: ReadonlyArray<{ role: SourceRole; path: string }>;
}

export async function sniffRoles(sources: readonly Source[], opts: AnalyzeOptions, skippedLogs: ReadonlyArray<{ role: SourceRole; path: string }> = []): Promise<Roles> {
  const rpcLess = new Set<Source>();
  for (const s of sources) {
    if ((s.role === 'caller' || s.role === 'upstream') && s.file !== null && !(await fileContains(s.file, JSONRPC_KEY))) rpcLess.add(s);
  }
  const usable = (role: SourceRole) => sources.some((s) => s.role === role && !rpcLess.has(s));
  const present = { capture: opts.inputs.length > 0, caller: usable('caller'), upstream: usable('upstream') };
  const files = { capture: 0, caller: 0, upstream: 0 };
  for (const s of sources) files[s.role]++;
  const unusableLogs = [...rpcLess].map((s) => ({ role: s.role, path: s.path }));
  return { rpcLess, present, files, unusableLogs, skippedLogs };
}

/**
 * Every JSON-RPC 2.0 message holds this key, whatever its spacing; a file with a `\u` escape may
 * spell it otherwise (`"jsonr\u0070c"`), so it counts as holding it (exact, or the exact path).
 */
const JSONRPC_KEY = [Buffer.from('"jsonrpc"'), Buffer.from('\\u')];
