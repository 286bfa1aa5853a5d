/**
 * `callpair render REPORT.json --format F`: a saved (or merged) report in any format, with the
 * same `--report`, `--step-summary`, gate options and exit codes as `analyze`. Gate options given
 * here re-evaluate the gate; without any, the report's own gate stands.
 */
import type { CommandModule } from 'yargs';
import { gateOptionsOf, gateRun } from '../analyze.js';
import { applyBaseline, baselineOptions, loadBaseline, type BaselineArgs } from './baseline.js';
import { withReportOutputs } from './report-run.js';
import { FORMAT_NAMES } from '../formatters/index.js';
import { evaluateGate, type GateOptions } from '../report/gate.js';
import type { Report } from '../report/report.js';
import { guarded } from './options.js';
import { gateOptions, gateOptionsFrom, type GateArgs } from './gate-options.js';
import { reportOutputOptions, type ReportOutputArgs } from './report-outputs.js';
import { wideOption } from './width.js';
import { DEFAULT_GATE, EXIT_CODES } from './help.js';
import { readReportFile } from './report-file.js';

interface RenderArgs extends GateArgs, ReportOutputArgs, BaselineArgs {
  report_file: string;
  format: string;
  output?: string;
  color: boolean;
  wide?: boolean;
}

export const renderCommand: CommandModule = {
  command: 'render <report_file>',
  describe: 'render a saved JSON report (analyze -f json, merge) in any format, with the gate',
  builder: (y) =>
    reportOutputOptions(
      gateOptions(
        baselineOptions(wideOption(y))
          .positional('report_file', { type: 'string', describe: 'a callpair.report.v1 file' })
          .option('format', { alias: 'f', type: 'string', default: 'table', choices: FORMAT_NAMES, describe: 'output format' })
          .option('output', { alias: 'o', type: 'string', describe: 'write the main report to FILE instead of stdout' })
          .option('color', { type: 'boolean', default: true, hidden: true })
          .option('no-color', { type: 'boolean', describe: 'no colour (also NO_COLOR=1; FORCE_COLOR=1 forces it)' }),
      ),
    )
      .example('$0 render merged.json -f markdown -o report.md', 'a merged (or saved) report as Markdown, with its own gate')
      .example('$0 render today.json -f sarif --baseline yesterday.json', 'SARIF with baselineState from a saved baseline')
      .example('$0 render r.json --max-orphan-requests 0', 'the gate evaluated again with these options')
      .epilog(`${DEFAULT_GATE}\n${EXIT_CODES}`),
  handler: (args) => guarded(() => runRender(args as unknown as RenderArgs)),
};

/** Did the command line name any gate option? (Then the gate is evaluated again with exactly those.) */
export function gateGiven(a: GateArgs): boolean {
  return a.failOn !== undefined || a.maxCrossedRate !== undefined || a.maxOrphanRequests !== undefined || a.maxAmbiguous !== undefined || a.minIdCoverage !== undefined || a.fail === false;
}

/**
 * The gate options for a saved report: the ones given on the command line; `--no-fail` alone keeps
 * the saved ones and only stops enforcing them; none given: the saved ones.
 */
export function gateFor(report: Report, a: GateArgs): GateOptions {
  const saved = report.run ? gateOptionsOf(report.run.gate) : {};
  if (!gateGiven(a)) return saved;
  const onlyNoFail = a.failOn === undefined && a.maxCrossedRate === undefined && a.maxOrphanRequests === undefined && a.maxAmbiguous === undefined && a.minIdCoverage === undefined;
  return onlyNoFail ? { ...saved, noFail: true } : gateOptionsFrom(a);
}

/** The report with its gate evaluated again for these options (when any is given). */
export function regate(report: Report, a: GateArgs): Report {
  if (!gateGiven(a)) return report;
  const g = gateFor(report, a);
  return { ...report, run: { ...report.run, gate: gateRun(g) }, gate: evaluateGate(g, report.findingCounts, report.channels) };
}

async function runRender(a: RenderArgs): Promise<void> {
  // Outputs are checked (not the report read, not the baseline, not a directory) and opened first.
  const inputs = [String(a.report_file), ...(a.baseline ? [String(a.baseline)] : [])];
  await withReportOutputs(a, { inputs }, async () => {
    const base = await loadBaseline(a);
    const read = await readReportFile(String(a.report_file));
    return applyBaseline(regate(read, a), base, a, gateFor(read, a));
  });
}
