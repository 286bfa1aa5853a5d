/**
 * `callpair compare [inputs..]`: FIFO vs signature-FIFO vs id pairing, per channel and per scope,
 * and per-caller attribution under each.
 */
import type { CommandModule } from 'yargs';
import { compare } from '../compare/compare.js';
import { COMPARE_FORMAT_NAMES, renderCompare, type CompareFormatName } from '../formatters/index.js';
import { InputUsageError } from '../input/sources.js';
import { makeChalk } from './color.js';
import { analyzeOptionsFrom, guarded, inputOptions, type InputArgs } from './options.js';
import { writeFileText, writeStdout } from './io.js';

interface CompareArgs extends InputArgs {
  format: string;
  maxCallers: number;
  output?: string;
}

export const compareCommand: CommandModule = {
  command: 'compare [inputs..]',
  describe: 'FIFO vs signature vs id, per scope, and per-caller attribution under each',
  builder: (y) =>
    inputOptions(y)
      .option('format', { alias: 'f', type: 'string', default: 'table', choices: COMPARE_FORMAT_NAMES, describe: 'output format' })
      .option('output', { alias: 'o', type: 'string', describe: 'write to FILE instead of stdout' })
      .option('max-callers', { type: 'number', default: 10_000, describe: 'distinct callers kept per channel; the rest are folded into (other)' }),
  handler: (args) => guarded(() => runCompare(args as unknown as CompareArgs)),
};

async function runCompare(a: CompareArgs): Promise<void> {
  const opts = analyzeOptionsFrom(a);
  if (opts.inputs.length === 0) throw new InputUsageError('no input given (a path, a directory, a glob, or - for stdin)');
  if (!(COMPARE_FORMAT_NAMES as string[]).includes(a.format)) throw new InputUsageError(`unknown format ${a.format}`);
  if (!Number.isInteger(a.maxCallers) || a.maxCallers < 1) throw new InputUsageError('--max-callers must be a positive whole number');
  const result = await compare({ ...opts, maxCallers: a.maxCallers });
  const toTTY = !a.output && process.stdout.isTTY === true;
  const chalk = makeChalk({ color: a.color, env: process.env, isTTY: toTTY });
  const text = renderCompare(result, a.format as CompareFormatName, { chalk });
  if (a.output) await writeFileText(a.output, text);
  else await writeStdout(text);
}
