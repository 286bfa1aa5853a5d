/**
 * The output side of the commands that make a `callpair.report.v1` (analyze, render): outputs
 * checked and opened before anything is read (docs/inputs.md, "Outputs"), the main format to
 * stdout or `-o`, more formats to `--report` files, the step summary, then the gate's verdict
 * (gate-exit.ts).
 */
import { isatty } from 'node:tty';
import path from 'node:path';
import { Chalk } from 'chalk';
import { formatted, getFormatter, isFormatName, type FormatName } from '../formatters/index.js';
import { InputUsageError } from '../input/sources.js';
import type { Report } from '../report/report.js';
import { makeChalk } from './color.js';
import { armGate, settleGate } from './gate-exit.js';
import { writeStdout } from './io.js';
import { abortAll, checkOutputs, openOutputs, writeOutput, type InputArgsLists } from './outputs.js';
import { outputList, reportTargetsFrom, writeReports, writeStepSummary, type ReportOutputArgs, type ReportTarget } from './report-outputs.js';
import { tableWidth } from './width.js';

export interface ReportRunArgs extends ReportOutputArgs {
  format: string;
  output?: string;
  color: boolean;
  wide?: boolean;
}

/** Runs `produce` (given the --report targets) between opening the outputs and writing them. */
export async function withReportOutputs(a: ReportRunArgs, reads: InputArgsLists, produce: (targets: readonly ReportTarget[]) => Promise<Report>): Promise<void> {
  if (!isFormatName(a.format)) throw new InputUsageError(`unknown format ${a.format}`);
  if (Array.isArray(a.output)) throw new InputUsageError('--output given more than once');
  const targets = reportTargetsFrom(a);
  if (a.output && targets.some((t) => path.resolve(t.file) === path.resolve(a.output!))) throw new InputUsageError(`--output ${a.output} is also a --report file`);
  await checkOutputs(outputList(a.output, targets, a), reads, !a.output);
  const outs = await openOutputs([...(a.output ? [a.output] : []), ...targets.map((t) => t.file)]);
  try {
    const report = await produce(targets);
    armGate(report.gate);
    const cwd = process.cwd();
    const toTTY = !a.output && process.stdout.isTTY === true;
    const chalk = makeChalk({ color: a.color, env: process.env, isTTY: toTTY });
    const text = formatted(getFormatter(a.format as FormatName), report, { chalk, cwd, width: tableWidth(a) });
    const plain = { chalk: new Chalk({ level: 0 }), cwd };
    const main = a.output ? outs[0]! : null;
    await writeReports(report, targets, main ? outs.slice(1) : outs, plain);
    if (a.stepSummary) await writeStepSummary(report, process.env, plain);
    if (main) await writeOutput(main, text);
    else await writeStdout(text);
    // The table ends with the verdict: on a terminal that is also stderr, once is enough.
    settleGate(report.gate, toTTY && a.format === 'table' && isatty(2));
  } finally {
    await abortAll(outs);
  }
}
