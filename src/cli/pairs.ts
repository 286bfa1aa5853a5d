/**
 * `callpair pairs [inputs..]`: every call and every orphan as one NDJSON line, written while the
 * pass runs. Output is batched and the pass waits for 'drain' (constant memory on any capture);
 * a closed pipe ends quietly (io.ts).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { CommandModule } from 'yargs';
import { pairs } from '../compare/pairs.js';
import { PAIRS_FORMATTERS } from '../formatters/index.js';
import { InputUsageError } from '../input/sources.js';
import { analyzeOptionsFrom, guarded, inputOptions, type InputArgs } from './options.js';

interface PairsArgs extends InputArgs {
  output?: string;
}

export const pairsCommand: CommandModule = {
  command: 'pairs [inputs..]',
  describe: 'every call (and orphan) as one NDJSON line, for jq, DuckDB, Spark',
  builder: (y) => inputOptions(y).option('output', { alias: 'o', type: 'string', describe: 'write to FILE instead of stdout' }),
  handler: (args) => guarded(() => runPairs(args as unknown as PairsArgs)),
};

const BATCH = 64 * 1024;

async function runPairs(a: PairsArgs): Promise<void> {
  const opts = analyzeOptionsFrom(a);
  if (opts.inputs.length === 0) throw new InputUsageError('no input given (a path, a directory, a glob, or - for stdin)');
  const out: NodeJS.WritableStream & { writableNeedDrain?: boolean } = a.output ? createWriteStream(a.output) : process.stdout;
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
    return new Promise<void>((resolve) => {
      const done = () => {
        out.removeListener('drain', done);
        out.removeListener('close', done);
        out.removeListener('error', done);
        resolve();
      };
      out.on('drain', done);
      out.on('close', done);
      out.on('error', done);
    });
  };

  await pairs({
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
  if (a.output) {
    const done = once(out, 'finish');
    out.end();
    await done;
  }
}
