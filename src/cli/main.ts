#!/usr/bin/env node
/**
 * The thin CLI: yargs commands → library calls, exit code, TTY/colour policy. Only this folder
 * touches `process`. `--version` is answered before anything else is loaded; the command tree
 * (yargs, the library, the formatters) is loaded only when a command runs — in the bundle
 * (scripts/bundle.mjs) it is a chunk of its own.
 */
import { VERSION } from '../version.js';

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  process.stdout.write(`${VERSION}\n`);
} else {
  const [{ buildCli }, { installPipeGuards }, { STDIN_TOKEN }] = await Promise.all([import('./commands.js'), import('./io.js'), import('./options.js')]);
  installPipeGuards();
  // yargs drops a lone `-` (stdin) positional: it travels as STDIN_TOKEN and is mapped back in options.ts.
  await buildCli(args.map((a) => (a === '-' ? STDIN_TOKEN : a))).parseAsync();
}
