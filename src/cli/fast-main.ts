/**
 * The fast path's entry (docs/performance.md#start-up): a plain `analyze` run, parsed
 * without yargs (fast-path.ts). scripts/bundle.mjs bundles it on its own into dist/cli/fast.cjs,
 * one CommonJS file main.ts loads with a V8 code cache (fast-load.ts).
 */
import { analyzeCommand } from './analyze.js';
import { optionSpecs, parseFast } from './fast-path.js';
import { diag, EXIT_USAGE, installPipeGuards, oneLine } from './io.js';
import { STDIN_TOKEN } from './options.js';

/** Runs `args` (the command first) when the fast path takes them; false (nothing done) when yargs must. */
export async function runFast(args: readonly string[]): Promise<boolean> {
  // `-o -` (stdout) is yargs' to read (commands.ts).
  if (args.some((a, i) => a === '-' && (args[i - 1] === '-o' || args[i - 1] === '--output'))) return false;
  // yargs drops a lone `-` (stdin) positional: it travels as STDIN_TOKEN on both paths.
  const argv = args.map((a) => (a === '-' ? STDIN_TOKEN : a));
  const spec = optionSpecs(analyzeCommand);
  const parsed = spec ? parseFast(argv, spec) : null;
  if (!parsed) return false;
  installPipeGuards();
  try {
    await analyzeCommand.handler(parsed as never);
  } catch (e) {
    // Unreachable (the handler is `guarded`), but as yargs' path answers a handler that rejects:
    // its `fail` callback (commands.ts) prints one line and exits 2.
    diag(oneLine(String((e as Error | undefined)?.message ?? e)));
    process.exit(EXIT_USAGE);
  }
  return true;
}
