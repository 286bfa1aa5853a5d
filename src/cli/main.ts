#!/usr/bin/env node
/**
 * The thin CLI: yargs commands → library calls, exit code, TTY/colour policy. Only this folder
 * touches `process`.
 */
import { hideBin } from 'yargs/helpers';
import { buildCli } from './commands.js';
import { diag, installPipeGuards } from './io.js';
import { STDIN_TOKEN } from './options.js';

installPipeGuards();
// yargs drops a lone `-` (stdin) positional: it travels as STDIN_TOKEN and is mapped back in options.ts.
try {
  await buildCli(hideBin(process.argv).map((a) => (a === '-' ? STDIN_TOKEN : a))).parseAsync();
} catch (e) {
  // An unexpected error (a bug): its message and stack may echo capture or argument text, so it
  // reaches stderr through the one safe-text choke point like every other message. Exit code 1,
  // as Node gives an uncaught error.
  diag(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
}
