/**
 * `callpair analyze [inputs..]`: the audit — pairs, confidence, orphans, crossed, findings, gate.
 * One pass over the capture; the main format goes to stdout (or --output), more formats to
 * --report files, the Markdown summary to $GITHUB_STEP_SUMMARY.
 */
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { Chalk } from 'chalk';
import { analyze } from '../analyze.js';
import { FORMAT_NAMES, getFormatter, isFormatName, needsTimeline, type FormatName } from '../formatters/index.js';
import { InputUsageError } from '../input/sources.js';
import { makeChalk } from './color.js';
import { makeProgress } from './progress.js';
import { analyzeOptionsFrom, guarded, inputOptions, type InputArgs } from './options.js';
import { gateOptions, gateOptionsFrom, type GateArgs } from './gate-options.js';
import { reportOutputOptions, reportTargetsFrom, writeReports, writeStepSummary, type ReportOutputArgs } from './report-outputs.js';
import { EXIT_GATE, writeFileText, writeStdout } from './io.js';
import { applyBaseline, baselineOptions, loadBaseline, type BaselineArgs } from './baseline.js';

interface AnalyzeArgs extends InputArgs, GateArgs, ReportOutputArgs, BaselineArgs {
  format: string;
  output?: string;
  timeline: boolean;
}

export const analyzeCommand: CommandModule = {
  command: 'analyze [inputs..]',
  describe: 'audit: pairs, confidence, orphans, crossed, findings, gate',
  builder: (y) =>
    reportOutputOptions(
      gateOptions(
        baselineOptions(inputOptions(y))
          .option('format', { alias: 'f', type: 'string', default: 'table', choices: FORMAT_NAMES, describe: 'output format' })
          .option('output', { alias: 'o', type: 'string', describe: 'write the main report to FILE instead of stdout' })
          .option('timeline', { type: 'boolean', default: false, describe: 'keep the per-call timeline in the report (what html draws; for callpair render)' }),
      ),
    ),
  handler: (args) => guarded(() => runAnalyze(args as unknown as AnalyzeArgs)),
};

async function runAnalyze(a: AnalyzeArgs): Promise<void> {
  const opts = { ...analyzeOptionsFrom(a), gate: gateOptionsFrom(a) };
  if (opts.inputs.length === 0) throw new InputUsageError('no input given (a path, a directory, a glob, or - for stdin)');
  if (!isFormatName(a.format)) throw new InputUsageError(`unknown format ${a.format}`);
  if (Array.isArray(a.output)) throw new InputUsageError('--output given more than once');
  const targets = reportTargetsFrom(a);
  if (a.output && targets.some((t) => path.resolve(t.file) === path.resolve(a.output!))) throw new InputUsageError(`--output ${a.output} is also a --report file`);
  if (a.timeline || needsTimeline([a.format, ...targets.map((t) => t.format)])) opts.timeline = true;
  const base = await loadBaseline(a);
  const progress = makeProgress(process.stderr, process.env);
  const analyzed = await analyze({ ...opts, onProgress: (p) => progress.update(p) }).finally(() => progress.done());
  const report = applyBaseline(analyzed, base, a, opts.gate);
  const cwd = process.cwd();
  const toTTY = !a.output && process.stdout.isTTY === true;
  const chalk = makeChalk({ color: a.color, env: process.env, isTTY: toTTY });
  const text = getFormatter(a.format as FormatName).render(report, { chalk, cwd });
  const plain = { chalk: new Chalk({ level: 0 }), cwd };
  await writeReports(report, targets, plain);
  if (a.stepSummary) await writeStepSummary(report, process.env, plain);
  if (a.output) await writeFileText(a.output, text);
  else await writeStdout(text);
  if (!report.gate.passed && report.gate.enforced) process.exitCode = EXIT_GATE;
}
