/**
 * `callpair pairs [inputs..]`: every call and every orphan as one NDJSON line, written while the
 * pass runs. Output is batched and the pass waits for 'drain' (constant memory on any capture);
 * a closed pipe ends quietly (io.ts).
 */
import type { CommandModule } from 'yargs';
import { pairs } from '../compare/pairs.js';
import { settleEmpty } from './gate-exit.js';
import { PAIRS_FORMATTERS } from '../formatters/index.js';
import { InputUsageError } from '../input/sources.js';
import type { AnalyzeOptions } from '../analyze.js';
import { analyzeOptionsFrom, guarded, inputOptions, noteJobsCap, type InputArgs } from './options.js';
import { checkOutputs, openOutput, outputError, type OutputFile } from './outputs.js';
import { diag, drained, EXIT_USAGE, oneLine } from './io.js';
import { EXIT_CODES_NO_GATE } from './help.js';

interface PairsArgs extends InputArgs {
  output?: string;
}

export const pairsCommand: CommandModule = {
  command: 'pairs [inputs..]',
  describe: 'every call (and orphan) as one NDJSON line, for jq, DuckDB, Spark',
  builder: (y) =>
    inputOptions(y)
      .option('output', { alias: 'o', type: 'string', describe: 'write to FILE instead of stdout' })
      .example('$0 pairs c.jsonl | jq -r \'select(.type == "orphan") | .location\'', 'where the orphans are')
      .example('$0 pairs captures/ -o pairs.ndjson', 'every call and orphan, for DuckDB or a spreadsheet')
      .epilog(EXIT_CODES_NO_GATE),
  handler: (args) => guarded(() => runPairs(args as unknown as PairsArgs)),
};

const BATCH = 64 * 1024;

async function runPairs(a: PairsArgs): Promise<void> {
  const opts = analyzeOptionsFrom(a);
  if (opts.inputs.length === 0) throw new InputUsageError('no input given (a path, a directory, a glob, or - for stdin)');
  if (Array.isArray(a.output)) throw new InputUsageError('--output given more than once');
  // The output is checked (not an input, not a directory) and opened before the capture is read;
  // lines go to a temporary file renamed into place at the end (docs/guarantees.md).
  await checkOutputs(a.output ? [{ file: a.output, flag: '--output ' }] : [], opts, !a.output);
  const file = a.output ? await openOutput(a.output) : null;
  noteJobsCap(a);
  // A write that fails mid-run (no space left) ends it at once, as a failing stdout does (io.ts):
  // one line, exit 2, the temporary file removed; reading on would only waste the time.
  file?.stream.once('error', (e) => {
    diag(oneLine(outputError(file.file, e).message));
    process.exit(EXIT_USAGE);
  });
  try {
    await writePairs(opts, file);
    await file?.commit();
  } finally {
    await file?.abort();
  }
}

async function writePairs(opts: AnalyzeOptions, file: OutputFile | null): Promise<void> {
  const out: NodeJS.WritableStream & { writableNeedDrain?: boolean } = file ? file.stream : process.stdout;
  let closed = false;
  const stop = () => {
    closed = true;
  };
  out.once('close', stop);
  out.once('error', stop);

  const format = PAIRS_FORMATTERS.ndjson;
  let buf: string[] = [];
  let size = 0;
  let blocked = false;
  const flush = () => {
    if (size === 0 || closed) return;
    const text = buf.join('');
    buf = [];
    size = 0;
    if (!out.write(text)) blocked = true;
  };
  const waitDrain = (): Promise<void> | undefined => {
    if (!blocked || closed) return undefined;
    blocked = false;
    return drained(out);
  };

  const report = await pairs({
    ...opts,
    onLine: (line) => {
      const t = format.line(line);
      buf.push(t);
      size += t.length;
      if (size >= BATCH) flush();
    },
    drain: waitDrain,
  });
  flush();
  await waitDrain();
  // A write failure (no space, /dev/full) ends the run with one line and exit 2.
  if (file?.error()) throw outputError(file.file, file.error());
  settleEmpty(report);
}
