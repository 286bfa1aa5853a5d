#!/usr/bin/env node
/**
 * The thin CLI: yargs commands → library calls, exit code, TTY/colour policy. Only this folder
 * touches `process`.
 */
import { hideBin } from 'yargs/helpers';
import { buildCli } from './commands.js';
import { installPipeGuards, STDIN_SENTINEL } from './io.js';

installPipeGuards();
// yargs-parser drops a lone `-`; carry it through as a sentinel no path can hold (NUL).
const argv = hideBin(process.argv).map((a) => (a === '-' ? STDIN_SENTINEL : a));
await buildCli(argv).parseAsync();
