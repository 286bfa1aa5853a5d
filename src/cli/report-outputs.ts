/**
 * Where reports go: `--output FILE` for the main format, `--report FORMAT=FILE` (repeatable) for
 * more formats from the same pass, and `--step-summary` to append Markdown to
 * `$GITHUB_STEP_SUMMARY`. Parsed and checked before the capture is read, so a typo costs nothing.
 */
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import type { Argv } from 'yargs';
import { FORMAT_NAMES, formatted, getFormatter, isFormatName, type FormatContext, type FormatName } from '../formatters/index.js';
import { InputUsageError } from '../input/sources.js';
import type { Report } from '../report/report.js';
import { diag, displayArg } from './io.js';
import { outputError, writeOutput, type OutputFile } from './outputs.js';

export function reportOutputOptions<T>(y: Argv<T>) {
  return y
    .option('report', {
      type: 'string',
      describe: `also write FORMAT to FILE from the same pass (repeatable), FORMAT one of ${FORMAT_NAMES.join(', ')}`,
    })
    .option('step-summary', { type: 'boolean', default: false, describe: 'append the Markdown summary to $GITHUB_STEP_SUMMARY when it is set' });
}

export interface ReportOutputArgs {
  report?: string | string[];
  stepSummary: boolean;
}

export interface ReportTarget {
  format: FormatName;
  file: string;
}

export function reportTargetsFrom(a: ReportOutputArgs): ReportTarget[] {
  const items = a.report === undefined ? [] : ([] as string[]).concat(a.report).map(String);
  const targets: ReportTarget[] = [];
  for (const item of items) {
    const eq = item.indexOf('=');
    const format = eq < 0 ? '' : item.slice(0, eq).trim();
    const file = eq < 0 ? '' : item.slice(eq + 1);
    if (eq < 0 || file === '') throw new InputUsageError(`--report expects FORMAT=FILE, got "${displayArg(item.slice(0, 80))}"`);
    if (!isFormatName(format)) throw new InputUsageError(`--report: unknown format "${format.slice(0, 40)}" (one of ${FORMAT_NAMES.join(', ')})`);
    targets.push({ format, file });
  }
  const seen = new Set<string>();
  for (const t of targets) {
    const key = path.resolve(t.file);
    if (seen.has(key)) throw new InputUsageError(`--report: ${t.file} is named twice`);
    seen.add(key);
  }
  return targets;
}

/** Writes every --report target, opened beforehand by `openOutputs` (same order); files are never coloured. */
export async function writeReports(report: Report, targets: readonly ReportTarget[], outs: readonly OutputFile[], ctx: FormatContext): Promise<void> {
  for (const [k, t] of targets.entries()) await writeOutput(outs[k]!, formatted(getFormatter(t.format), report, ctx));
}

/** The outputs of a run for `checkOutputs`: `--output` first, then each `--report`, then the step summary it appends to. */
export function outputList(output: string | undefined, targets: readonly ReportTarget[], a?: ReportOutputArgs, env: NodeJS.ProcessEnv = process.env): { file: string; flag: string }[] {
  const summary = a?.stepSummary && env.GITHUB_STEP_SUMMARY ? [{ file: env.GITHUB_STEP_SUMMARY, flag: '--step-summary ($GITHUB_STEP_SUMMARY) ' }] : [];
  return [...(output ? [{ file: output, flag: '--output ' }] : []), ...targets.map((t) => ({ file: t.file, flag: `--report ${t.format}=` })), ...summary];
}

/** Appends the Markdown summary to $GITHUB_STEP_SUMMARY; says so on stderr when it is not set. */
export async function writeStepSummary(report: Report, env: NodeJS.ProcessEnv, ctx: FormatContext): Promise<void> {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) {
    diag('--step-summary: GITHUB_STEP_SUMMARY is not set, no summary written');
    return;
  }
  try {
    await appendFile(file, getFormatter('markdown').render(report, ctx));
  } catch (e) {
    throw outputError(`$GITHUB_STEP_SUMMARY (${file})`, e);
  }
}
