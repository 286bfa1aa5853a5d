/**
 * One streaming pass, as its stages (src/pass/): sources → roles → profiles → engine → reader →
 * report. `analyze`, `compare` and `pairs` all run this same pass; they differ only in what they
 * listen to (the `on…` listeners of AnalyzeOptions).
 */
import { FindingCollector } from './report/findings.js';
import type { Report } from './report/report.js';
import { DEFAULT_MAX_FINDINGS, type AnalyzeOptions } from './pass/options.js';
import { gatherSources } from './pass/sources.js';
import { sniffRoles } from './pass/roles.js';
import { pickProfiles } from './pass/profiles.js';
import { finishPass, wireEngine } from './pass/engine.js';
import { readInputs, reportWalkErrors } from './pass/reader.js';
import { buildReport } from './pass/report.js';

export { DEFAULT_CLOSED_WINDOW, DEFAULT_MAX_FINDINGS, DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_OPEN_CALLS, gateOptionsOf, gateRun, runReport, type AnalyzeOptions } from './pass/options.js';

export async function analyze(opts: AnalyzeOptions): Promise<Report> {
  // 1. sources: the files to read, in order (caller logs, captures, upstream logs), and what is not read.
  const found = await gatherSources(opts);
  // 2. roles: which sides exist and which logs hold no JSON-RPC, known before reading.
  const roles = await sniffRoles(found.sources, opts, found.skippedLogs);
  // 3. profiles: the record families in use, told what the roles are.
  const profiles = pickProfiles(opts, roles);
  // 4. engine: the pairing engine over the profiles' channels, with its sink and the listeners.
  const collector = new FindingCollector(opts.maxFindings ?? DEFAULT_MAX_FINDINGS, opts.onFinding);
  const pass = wireEngine(opts, profiles, collector);
  // 5. reader: every source read in order into the profiles, each with its ledger.
  reportWalkErrors(found.walkErrors, collector);
  const inputs = await readInputs(found.sources, profiles, pass.ctx, collector, opts);
  finishPass(profiles, pass);
  // 6. report: the model every format renders.
  return buildReport({ opts, found, roles, profiles, collector, pass, inputs });
}
