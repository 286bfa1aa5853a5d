/**
 * `callpair analyze [inputs..]`: the audit — pairs, confidence, orphans, crossed, findings, gate.
 * One pass over the capture; the main format goes to stdout (or --output), more formats to
 * --report files, the Markdown summary to $GITHUB_STEP_SUMMARY.
 */
import type { CommandModule } from 'yargs';
import { analyze } from '../analyze.js';
import { FORMAT_NAMES, needsTimeline, type FormatName } from '../formatters/index.js';
import { InputUsageError } from '../input/sources.js';
import { makeProgress } from './progress.js';
import { analyzeOptionsFrom, guarded, inputOptions, noteJobsCap, type InputArgs } from './options.js';
import { gateOptions, gateOptionsFrom, type GateArgs } from './gate-options.js';
import { reportOutputOptions, type ReportOutputArgs } from './report-outputs.js';
import { DEFAULT_GATE, EXIT_CODES } from './help.js';
import { applyBaseline, baselineOptions, loadBaseline, type BaselineArgs } from './baseline.js';
import { withReportOutputs } from './report-run.js';

interface AnalyzeArgs extends InputArgs, GateArgs, ReportOutputArgs, BaselineArgs {
  format: string;
  output?: string;
  wide: boolean;
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
          .option('wide', { type: 'boolean', default: false, describe: 'tables as wide as their content (by default they fit the terminal: COLUMNS, or its width)' })
          .option('timeline', { type: 'boolean', default: false, describe: 'keep the per-call timeline in the report (what html draws; for callpair render)' }),
      ),
    )
      .example('$0 analyze captures/', 'every capture in the folder, tables on the terminal')
      .example('$0 analyze c.jsonl -f markdown -o report.md --max-orphan-requests 0', 'a Markdown report; exit 1 when a request is never answered')
      .example('$0 analyze c.jsonl.gz --report sarif=out/c.sarif --report json=out/c.json', 'more formats from the same pass')
      .epilog(`${DEFAULT_GATE}\n${EXIT_CODES}`),
  handler: (args) => guarded(() => runAnalyze(args as unknown as AnalyzeArgs)),
};

async function runAnalyze(a: AnalyzeArgs): Promise<void> {
  const opts = { ...analyzeOptionsFrom(a), gate: gateOptionsFrom(a) };
  if (opts.inputs.length === 0) throw new InputUsageError('no input given (a path, a directory, a glob, or - for stdin)');
  await withReportOutputs(a, { ...opts, others: a.baseline ? [String(a.baseline)] : [] }, async (targets) => {
    if (a.timeline || needsTimeline([a.format as FormatName, ...targets.map((t) => t.format)])) opts.timeline = true;
    const base = await loadBaseline(a);
    noteJobsCap(a);
    const progress = makeProgress(process.stderr, process.env);
    const analyzed = await analyze({
      ...opts,
      onProgress: (p) => {
        progress.update(p);
        opts.onProgress?.(p);
      },
    }).finally(() => progress.done());
    return applyBaseline(analyzed, base, a, opts.gate);
  });
}
