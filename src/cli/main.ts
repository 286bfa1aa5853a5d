#!/usr/bin/env node
/**
 * The thin CLI: yargs commands → library calls, exit code, TTY/colour policy. Only this folder
 * touches `process`. `--version` is answered before anything else is loaded; a plain `analyze`
 * run takes the fast path (fast-path.ts, no yargs), in the bundle one CommonJS file loaded with a V8
 * code cache (fast-load.ts); the yargs command tree, a chunk of its own, is loaded for anything
 * else (docs/performance.md#start-up).
 */
import { VERSION } from '../version.js';
import { loadFastPath } from './fast-load.js';

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  process.stdout.write(`${VERSION}\n`);
} else if (!(args[0] === 'analyze' && (await fastRun(args)))) {
  // Loaded only when needed: `--version` (and start-up in general) stays quick (docs/performance.md).
  const [{ buildCli }, { diag, installPipeGuards }, { STDIN_TOKEN }] = await Promise.all([import('./commands.js'), import('./io.js'), import('./options.js')]);
  installPipeGuards();
  // yargs drops a lone `-` (stdin) positional: it travels as STDIN_TOKEN and is mapped back in options.ts.
  try {
    // `-o -` is stdout, as usual: that `-` is an output, not stdin.
    await buildCli(args.map((a, i) => (a === '-' && args[i - 1] !== '-o' && args[i - 1] !== '--output' ? STDIN_TOKEN : a))).parseAsync();
  } catch (e) {
    // An unexpected error (a bug): its message and stack may echo capture or argument text, so it
    // reaches stderr through the one safe-text choke point like every other message. Exit code 1,
    // as Node gives an uncaught error.
    diag(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 1;
  }
}

/**
 * A plain `analyze` run, without yargs (fast-path.ts); false when yargs must parse the arguments.
 * The bundle's fast path is dist/cli/fast.cjs, loaded with its code cache (fast-load.ts); a plain
 * `tsc` build has none and imports the module.
 */
async function fastRun(argv: string[]): Promise<boolean> {
  const fast = loadFastPath(new URL('.', import.meta.url)) ?? (await import('./fast-main.js'));
  return fast.runFast(argv);
}
