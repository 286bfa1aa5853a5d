/**
 * The yargs command tree: one file per command, registered here.
 */
import yargs from 'yargs';
import { analyzeCommand } from './analyze.js';
import { compareCommand } from './compare.js';
import { pairsCommand } from './pairs.js';
import { mergeCommand } from './merge.js';
import { renderCommand } from './render.js';
import { diffCommand } from './diff.js';
import { diag, EXIT_USAGE } from './io.js';
import { VERSION } from '../version.js';

export function buildCli(argv: string[]) {
  return yargs(argv)
    .scriptName('callpair')
    .version(VERSION)
    .strict()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .command(analyzeCommand)
    .command(compareCommand)
    .command(pairsCommand)
    .command(mergeCommand)
    .command(renderCommand)
    .command(diffCommand)
    .demandCommand(1, 'name a command')
    .fail((msg, err) => {
      if (err) throw err;
      diag(`${msg}\nRun callpair --help for usage.`);
      process.exit(EXIT_USAGE);
    })
    .help();
}

