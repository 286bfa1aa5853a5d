/**
 * `callpair compare [inputs..]`: FIFO vs signature-FIFO vs id pairing, per channel and per scope,
 * and per-caller attribution under each.
 */
import type { CommandModule } from 'yargs';
import { compareWithReport } from '../compare/compare.js';
import { settleEmpty } from './gate-exit.js';
import { COMPARE_FORMAT_NAMES, renderCompare, type CompareFormatName } from '../formatters/index.js';
import { InputUsageError } from '../input/sources.js';
import { makeChalk } from './color.js';
import { analyzeOptionsFrom, guarded, inputOptions, noteJobsCap, type InputArgs } from './options.js';
import { writeStdout } from './io.js';
import { checkOutputs, openOutput, writeOutput } from './outputs.js';
import { tableWidth } from './width.js';
import { EXIT_CODES_NO_GATE } from './help.js';

interface CompareArgs extends InputArgs {
  format: string;
  maxCallers: number;
  output?: string;
  wide: boolean;
}

export const compareCommand: CommandModule = {
  command: 'compare [inputs..]',
  describe: 'FIFO vs signature vs id, per scope, and per-caller attribution under each',
  builder: (y) =>
    inputOptions(y)
      .option('format', { alias: 'f', type: 'string', default: 'table', choices: COMPARE_FORMAT_NAMES, describe: 'output format' })
      .option('output', { alias: 'o', type: 'string', describe: 'write to FILE instead of stdout' })
      .option('wide', { type: 'boolean', default: false, describe: 'tables as wide as their content (by default they fit the terminal: COLUMNS, or its width)' })
      .option('max-callers', { type: 'number', default: 10_000, describe: 'distinct callers kept per channel; the rest are folded into (other)' })
      .example('$0 compare fixtures/seed-trace.jsonl', 'what FIFO and signature-FIFO would conclude, against the ids')
      .example('$0 compare captures/ -f json -o compare.json', 'the callpair.compare.v1 object')
      .epilog(EXIT_CODES_NO_GATE),
  handler: (args) => guarded(() => runCompare(args as unknown as CompareArgs)),
};

async function runCompare(a: CompareArgs): Promise<void> {
  const opts = analyzeOptionsFrom(a);
  if (opts.inputs.length === 0) throw new InputUsageError('no input given (a path, a directory, a glob, or - for stdin)');
  if (!(COMPARE_FORMAT_NAMES as string[]).includes(a.format)) throw new InputUsageError(`unknown format ${a.format}`);
  if (!Number.isInteger(a.maxCallers) || a.maxCallers < 1) throw new InputUsageError('--max-callers must be a positive whole number');
  if (Array.isArray(a.output)) throw new InputUsageError('--output given more than once');
  // The output is checked (not an input, not a directory) and opened before the capture is read.
  await checkOutputs(a.output ? [{ file: a.output, flag: '--output ' }] : [], opts, !a.output);
  const out = a.output ? await openOutput(a.output) : null;
  noteJobsCap(a);
  try {
    const { compare: result, report } = await compareWithReport({ ...opts, maxCallers: a.maxCallers });
    const toTTY = !a.output && process.stdout.isTTY === true;
    const chalk = makeChalk({ color: a.color, env: process.env, isTTY: toTTY });
    const text = renderCompare(result, a.format as CompareFormatName, { chalk, width: tableWidth(a) });
    if (out) await writeOutput(out, text);
    else await writeStdout(text);
    settleEmpty(report);
  } finally {
    await out?.abort();
  }
}
