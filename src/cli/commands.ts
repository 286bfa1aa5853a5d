/**
 * The yargs command tree: one file per command, registered here.
 */
import yargs from 'yargs';
import { analyzeCommand } from './analyze.js';
import { compareCommand } from './compare.js';
import { pairsCommand } from './pairs.js';
import { diag, EXIT_USAGE, oneLine } from './io.js';
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
    .demandCommand(1, 'name a command')
    .fail((msg, err) => {
      if (err) {
        // An error yargs met while parsing: one line too.
        diag(oneLine(String(err.message ?? err)));
        process.exit(EXIT_USAGE);
      }
      // yargs' own messages may span lines: one line here (diag escapes anything else unsafe).
      diag(`${String(msg ?? '').replace(/[ \t]*\r?\n[ \t]*/g, ' ')} (callpair --help for usage)`);
      process.exit(EXIT_USAGE);
    })
    .help();
}

