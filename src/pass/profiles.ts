/**
 * Stage 3, profiles: the profiles `--profile` names, told before reading what the assay audit must
 * know (docs/assay.md, "Exact, or fail closed"): which roles exist, how many files each side has,
 * which logs hold no JSON-RPC, and the bound of its windows (the open-call bound, unless set).
 */
import { resolveProfiles, type Profile } from '../profiles/index.js';
import { DEFAULT_MAX_OPEN_CALLS, type AnalyzeOptions } from './options.js';
import type { Roles } from './roles.js';

export function pickProfiles(opts: AnalyzeOptions, roles: Roles): Profile[] {
  const maxOpenCalls = opts.maxOpenCalls ?? DEFAULT_MAX_OPEN_CALLS;
  return resolveProfiles(opts.profile ?? 'auto', { roles: roles.present, roleFiles: roles.files, unusableLogs: roles.unusableLogs, skippedLogs: roles.skippedLogs, window: maxOpenCalls, maxOpenCalls, closedWindow: opts.closedWindow, shadows: opts.onShadowPair !== undefined, ...opts.profileOptions });
}
