#!/usr/bin/env node
/**
 * The thin CLI: yargs commands → library calls, exit code, TTY/colour policy. Only this folder
 * touches `process`.
 */
import { hideBin } from 'yargs/helpers';
import { buildCli } from './commands.js';
import { installPipeGuards } from './io.js';
import { STDIN_TOKEN } from './options.js';

installPipeGuards();
// yargs drops a lone `-` (stdin) positional: it travels as STDIN_TOKEN and is mapped back in options.ts.
await buildCli(hideBin(process.argv).map((a) => (a === '-' ? STDIN_TOKEN : a))).parseAsync();
