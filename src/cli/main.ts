#!/usr/bin/env node
/**
 * The thin CLI: yargs commands → library calls, exit code, TTY/colour policy. Only this folder
 * touches `process`.
 */
import { hideBin } from 'yargs/helpers';
import { buildCli } from './commands.js';
import { installPipeGuards } from './io.js';

installPipeGuards();
await buildCli(hideBin(process.argv)).parseAsync();
