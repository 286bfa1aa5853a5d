/**
 * `callpair trace ID|PATH:LINE[#POINTER] [inputs..]`: one call explained — its request, interims and
 * terminal, how it was paired and among which open requests, what FIFO and signature-FIFO would
 * have taken, and the findings that name it (docs/trace.md).
 */
import { existsSync, statSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { trace, parseTarget } from '../trace/trace.js';
import { TRACE_FORMAT_NAMES, TRACE_FORMATTERS, type TraceFormatName } from '../formatters/index.js';
import { InputUsageError } from '../input/sources.js';
import { makeChalk } from './color.js';
import { analyzeOptionsFrom, guarded, inputOptions, noteJobsCap, type InputArgs } from './options.js';
import { writeStdout } from './io.js';
import { checkOutputs, openOutput, writeOutput } from './outputs.js';
import { tableWidth, wideOption } from './width.js';
import { EXIT_CODES } from './help.js';

interface TraceArgs extends InputArgs {
  target: string;
  format: string;
  output?: string;
  wide: boolean;
}

const isFile = (p: string) => {
  try {
    return existsSync(p) && statSync(p).isFile();
  } catch {
    return false;
  }
};

export const traceCommand: CommandModule = {
  command: 'trace <target> [inputs..]',
  describe: 'one call explained: its events, how and why it was paired, what FIFO would have taken',
  builder: (y) =>
    wideOption(
      inputOptions(y)
        .positional('target', { type: 'string', describe: 'a correlation id, or PATH:LINE of the call\'s request, interim or terminal (PATH:LINE#POINTER: one record of the line)' })
        .option('format', { alias: 'f', type: 'string', default: 'table', choices: TRACE_FORMAT_NAMES, describe: 'output format' })
        .option('output', { alias: 'o', type: 'string', describe: 'write to FILE instead of stdout' }),
    )
      .example('$0 trace fixtures/seed-trace.jsonl:5', 'the call whose terminal is on line 5 (the inputs default to that file)')
      .example('$0 trace 32fc2255-2544-415b-84fd-be9576d5fc59 fixtures/seed-trace.jsonl', 'the call(s) with this correlation id')
      .example('$0 trace captures/a.jsonl:120 captures/ -f json', 'by location, reading the whole folder (scopes span files)')
      .epilog(EXIT_CODES),
  handler: (args) => guarded(() => runTrace(args as unknown as TraceArgs)),
};

async function runTrace(a: TraceArgs): Promise<void> {
  const opts = analyzeOptionsFrom(a);
  const target = parseTarget(String(a.target), opts.inputs, isFile);
  // `trace PATH:LINE` alone reads that file.
  if (opts.inputs.length === 0 && target.kind === 'location') opts.inputs = [target.path];
  if (opts.inputs.length === 0) throw new InputUsageError('trace: no input given (a path, a directory, a glob, or - for stdin)');
  if (!(TRACE_FORMAT_NAMES as string[]).includes(a.format)) throw new InputUsageError(`unknown format ${a.format}`);
  if (Array.isArray(a.output)) throw new InputUsageError('--output given more than once');
  // The output is checked (not an input, not a directory) and opened before the capture is read.
  await checkOutputs(a.output ? [{ file: a.output, flag: '--output ' }] : [], opts, !a.output);
  const out = a.output ? await openOutput(a.output) : null;
  noteJobsCap(a);
  try {
    const result = await trace({ ...opts, target });
    const toTTY = !a.output && process.stdout.isTTY === true;
    const chalk = makeChalk({ color: a.color, env: process.env, isTTY: toTTY });
    const text = TRACE_FORMATTERS[a.format as TraceFormatName].render(result, { chalk, width: tableWidth(a) });
    if (out) await writeOutput(out, text);
    else await writeStdout(text);
  } finally {
    await out?.abort();
  }
}
