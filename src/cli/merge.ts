/**
 * `callpair merge REPORT.json… [-o FILE]`: the reduce step of a sharded run (docs/scale-out.md).
 * Reads the reports one by one and folds them; writes the merged JSON report; exit code per gate.
 */
import type { CommandModule } from 'yargs';
import { MergeRefusal, ReportMerger } from '../merge/merge.js';
import { InputUsageError } from '../input/sources.js';
import { safeJsonPieces } from '../formatters/json.js';
import { safeText } from '../formatters/safe.js';
import { guarded } from './options.js';
import { displayArg, writeStdout } from './io.js';
import { EXIT_CODES } from './help.js';
import { armGate, settleGate } from './gate-exit.js';
import { checkOutputs, openOutput, sameFileTwice, writeOutput } from './outputs.js';
import { readReportFile, reportFilesFrom } from './report-file.js';

interface MergeArgs {
  reports?: string[];
  output?: string;
}

export const mergeCommand: CommandModule = {
  command: 'merge <reports..>',
  describe: 'merge JSON reports of scope-disjoint shards into the report of one run',
  builder: (y) =>
    y
      .positional('reports', { type: 'string', array: true, describe: 'callpair.report.v1 files (analyze -f json), or directories of them' })
      .option('output', { alias: 'o', type: 'string', describe: 'write the merged report to FILE instead of stdout' })
      .option('format', { alias: 'f', type: 'string', choices: ['json'], default: 'json', describe: 'the merged report is JSON (callpair.report.v1); render it in any other format with `callpair render`' })
      .example('$0 merge shards/ -o merged.json', 'every *.json report in the folder, into the report of one run')
      .example('$0 merge a.json b.json -o m.json && $0 render m.json -f markdown', 'merge, then render in any format')
      .epilog(`The merged report's gate is evaluated with the shards' gate options (run.gate).\n${EXIT_CODES}`),
  handler: (args) => guarded(() => runMerge(args as unknown as MergeArgs)),
};

async function runMerge(a: MergeArgs): Promise<void> {
  const files = await reportFilesFrom((a.reports ?? []).map(String));
  if (files.length === 0) throw new InputUsageError('no report given (files, or a directory of *.json reports)');
  if (Array.isArray(a.output)) throw new InputUsageError('--output given more than once');
  // A report given twice (one name twice, a link, a directory holding a named file) would count its
  // calls twice: refused before anything is read (docs/scale-out.md).
  const twice = await sameFileTwice(files);
  if (twice) throw new InputUsageError(`merge: ${displayArg(twice[0])} is the same file as ${displayArg(twice[1])}: a report given twice would be counted twice`);
  // The output is checked (not one of the reports merged, not inside a directory of them, not a
  // directory) before anything is read.
  await checkOutputs(a.output ? [{ file: a.output, flag: '--output ' }] : [], { inputs: files, others: (a.reports ?? []).map(String) }, !a.output);
  const m = new ReportMerger();
  try {
    for (const f of files) m.add(await readReportFile(f), safeText(f, 200));
  } catch (e) {
    if (e instanceof MergeRefusal) throw new InputUsageError(`merge: ${e.message}`);
    throw e;
  }
  const merged = m.finish();
  armGate(merged.gate);
  // Written in pieces (same bytes as -f json): the text of a merged report is never held whole.
  if (a.output) {
    const out = await openOutput(a.output);
    try {
      await writeOutput(out, jsonPieces(merged));
    } finally {
      await out.abort();
    }
  } else await writeStdout(jsonPieces(merged));
  settleGate(merged.gate);
}

/** `-f json`'s bytes for the merged report, in pieces. */
function* jsonPieces(report: unknown): Generator<string> {
  yield* safeJsonPieces(report);
  yield '\n';
}
