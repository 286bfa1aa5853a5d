/**
 * `callpair analyze [inputs..]`: the audit — pairs, confidence, orphans, crossed, findings, gate.
 */
import type { CommandModule } from 'yargs';
import { analyze } from '../analyze.js';
import { FORMAT_NAMES, getFormatter, isFormatName, needsTimeline, type FormatName } from '../formatters/index.js';
import { InputUsageError } from '../input/sources.js';
import { makeChalk } from './color.js';
import { analyzeOptionsFrom, guarded, inputOptions, type InputArgs } from './options.js';
import { EXIT_GATE, writeFileText, writeStdout } from './io.js';

interface AnalyzeArgs extends InputArgs {
  format: string;
  output?: string;
}

export const analyzeCommand: CommandModule = {
  command: 'analyze [inputs..]',
  describe: 'audit: pairs, confidence, orphans, crossed, findings, gate',
  builder: (y) =>
    inputOptions(y)
      .option('format', { alias: 'f', type: 'string', default: 'table', choices: FORMAT_NAMES, describe: 'output format' })
      .option('output', { alias: 'o', type: 'string', describe: 'write the main report to FILE instead of stdout' }),
  handler: (args) => guarded(() => runAnalyze(args as unknown as AnalyzeArgs)),
};

async function runAnalyze(a: AnalyzeArgs): Promise<void> {
  const opts = analyzeOptionsFrom(a);
  if (opts.inputs.length === 0) throw new InputUsageError('no input given (a path, a directory, a glob, or - for stdin)');
  if (!isFormatName(a.format)) throw new InputUsageError(`unknown format ${a.format}`);
  if (needsTimeline([a.format])) opts.timeline = true;
  const report = await analyze(opts);
  const toTTY = !a.output && process.stdout.isTTY === true;
  const chalk = makeChalk({ color: a.color, env: process.env, isTTY: toTTY });
  const text = getFormatter(a.format as FormatName).render(report, { chalk, cwd: process.cwd() });
  if (a.output) await writeFileText(a.output, text);
  else await writeStdout(text);
  if (!report.gate.passed && report.gate.enforced) process.exitCode = EXIT_GATE;
}
