/**
 * `--baseline BASE.json` and `--fail-on-new` (analyze): the report is compared with a saved base
 * report (src/merge/diff.ts); with --fail-on-new the gate's finding checks count new findings only.
 */
import type { Argv } from 'yargs';
import { withBaseline } from '../merge/diff.js';
import type { GateOptions } from '../report/gate.js';
import type { Report } from '../report/report.js';
import { InputUsageError } from '../input/sources.js';
import { readReportFile } from './report-file.js';

export function baselineOptions<T>(y: Argv<T>) {
  return y
    .option('baseline', { type: 'string', describe: 'compare with a saved JSON report: new, fixed and unchanged findings, deltas' })
    .option('fail-on-new', { type: 'boolean', default: false, describe: 'with --baseline: the gate counts new findings only' });
}

export interface BaselineArgs {
  baseline?: string;
  failOnNew: boolean;
}

export function checkBaselineArgs(a: BaselineArgs): void {
  if (Array.isArray(a.baseline)) throw new InputUsageError('--baseline given more than once');
  if (a.failOnNew && a.baseline === undefined) throw new InputUsageError('--fail-on-new needs --baseline BASE.json');
}

/** Reads the base report before the capture, so a bad path costs nothing. */
export async function loadBaseline(a: BaselineArgs): Promise<Report | null> {
  checkBaselineArgs(a);
  return a.baseline === undefined ? null : readReportFile(String(a.baseline));
}

export function applyBaseline(report: Report, base: Report | null, a: BaselineArgs, gate: GateOptions): Report {
  return base ? withBaseline(report, base, a.failOnNew, gate) : report;
}
