/**
 * `callpair diff BASE.json HEAD.json`: findings new, fixed and unchanged between two saved reports
 * (matched by code, channel, scope and a stable key, never by line), and the deltas of crossed rate,
 * orphans, ambiguity and id coverage. The head's gate is evaluated again — with `--fail-on-new`
 * on new findings only — and sets the exit code as in `analyze`.
 */
import type { CommandModule } from 'yargs';
import { safeJson } from '../formatters/json.js';
import { baselineMarkdown } from '../formatters/markdown.js';
import { withBaseline } from '../merge/diff.js';
import { InputUsageError } from '../input/sources.js';
import { guarded } from './options.js';
import { gateOptions, type GateArgs } from './gate-options.js';
import { gateFor, regate } from './render.js';
import { writeStdout } from './io.js';
import { DEFAULT_GATE, EXIT_CODES } from './help.js';
import { armGate, settleGate } from './gate-exit.js';
import { checkOutputs, openOutput, writeOutput } from './outputs.js';
import { readReportFile } from './report-file.js';

interface DiffArgs extends GateArgs {
  base: string;
  head: string;
  format: string;
  output?: string;
  failOnNew: boolean;
}

export const DIFF_SCHEMA = 'callpair.diff.v1';

export const diffCommand: CommandModule = {
  command: 'diff <base> <head>',
  describe: 'compare two saved JSON reports: new, fixed and unchanged findings, deltas',
  builder: (y) =>
    gateOptions(
      y
        .positional('base', { type: 'string', describe: 'the base report (callpair.report.v1)' })
        .positional('head', { type: 'string', describe: 'the head report' })
        .option('format', { alias: 'f', type: 'string', default: 'json', choices: ['json', 'markdown'], describe: 'output format' })
        .option('output', { alias: 'o', type: 'string', describe: 'write to FILE instead of stdout' })
        .option('fail-on-new', { type: 'boolean', default: false, describe: 'the gate counts new findings only' }),
    )
      .example('$0 diff base.json head.json -f markdown', 'new, fixed and unchanged findings, and the deltas, as Markdown')
      .example('$0 diff base.json head.json --fail-on-new', 'exit 1 only when head has findings base did not')
      .epilog(`${DEFAULT_GATE}\n${EXIT_CODES}`),
  handler: (args) => guarded(() => runDiff(args as unknown as DiffArgs)),
};

async function runDiff(a: DiffArgs): Promise<void> {
  if (a.format !== 'json' && a.format !== 'markdown') throw new InputUsageError(`unknown format ${a.format}`);
  if (Array.isArray(a.output)) throw new InputUsageError('--output given more than once');
  await checkOutputs(a.output ? [{ file: a.output, flag: '--output ' }] : [], { inputs: [String(a.base), String(a.head)] }, !a.output);
  const base = await readReportFile(String(a.base));
  const head = await readReportFile(String(a.head));
  const gate = gateFor(head, a);
  // Gate options on the command line apply to the head (as `render` applies them); --fail-on-new
  // then counts only its new findings.
  const r = withBaseline(regate(head, a), base, a.failOnNew, gate);
  const b = r.baseline!;
  armGate(r.gate);
  let text: string;
  if (a.format === 'markdown') {
    const verdict = r.gate.passed ? '✅ gate passed' : r.gate.enforced ? '❌ gate failed' : '⚠️ gate failed (not enforced: --no-fail)';
    text = [`## callpair diff: ${verdict}`, '', ...baselineMarkdown(b, r.findings)].join('\n').replace(/\n+$/, '') + '\n';
  } else {
    text = `${safeJson(
      {
        schema: DIFF_SCHEMA,
        base: { tool: base.tool, inputs: base.inputs.length },
        head: { tool: head.tool, inputs: head.inputs.length },
        counts: b.counts,
        complete: b.complete,
        deltas: b.deltas,
        new: r.findings.filter((_, i) => b.states[i] === 'new'),
        fixed: b.fixed,
        newCounts: b.newCounts,
        failOnNew: a.failOnNew,
        gate: r.gate,
      },
      2,
    )}\n`;
  }
  if (a.output) await writeOutput(await openOutput(a.output), text);
  else await writeStdout(text);
  settleGate(r.gate);
}
