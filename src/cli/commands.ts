/**
 * The yargs command tree: one file per command, registered here.
 */
import yargs, { type Argv, type CommandModule } from 'yargs';
import { analyzeCommand } from './analyze.js';
import { compareCommand } from './compare.js';
import { pairsCommand } from './pairs.js';
import { traceCommand } from './trace.js';
import { diag, EXIT_USAGE, oneLine } from './io.js';
import { mergeCommand } from './merge.js';
import { renderCommand } from './render.js';
import { diffCommand } from './diff.js';
import { VERSION } from '../version.js';
import { usageLine } from './suggest.js';
import { EXIT_CODES } from './help.js';

const COMMANDS = [analyzeCommand, compareCommand, pairsCommand, traceCommand, mergeCommand, renderCommand, diffCommand];
const COMMAND_NAMES = COMMANDS.map((c) => String(c.command).split(' ')[0]!);

/** Records the options a command's builder declares, for "did you mean" on an unknown one. */
function recording(cmd: CommandModule, known: Set<string>): CommandModule {
  const build = cmd.builder as (y: Argv) => Argv;
  return {
    ...cmd,
    builder: (y: Argv) => {
      const out = build(y);
      const keys = (out as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key;
      for (const k of Object.keys(keys)) known.add(k);
      return out;
    },
  };
}

/**
 * After a command's handler has started, yargs renders that command's help and keeps it, for a
 * `showHelp()` the handler might call later. callpair's handlers never do (a failure is one line:
 * the `fail` below), and the rendering (string-width over every help row) is ~60 ms of CPU on
 * every run that goes through yargs, about a fifth of its start-up. It is skipped.
 */
function skipHelpCache(y: Argv): void {
  const internal = y as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } };
  const usage = internal.getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

/**
 * The CLI. `onRun`, for tests only, replaces every command's handler: it receives the parsed
 * arguments instead of the command running (test/fast-path.test.ts compares them with the fast path's).
 */
export function buildCli(argv: string[], onRun?: (args: Record<string, unknown>) => void) {
  const known = new Set<string>(['help', 'version']);
  let y = yargs(argv)
    .scriptName('callpair')
    .version(VERSION)
    .strict()
    // Help text depends on no machine: a fixed width unless stdout is a terminal.
    .wrap(process.stdout.isTTY ? Math.min(110, process.stdout.columns || 100) : 100);
  skipHelpCache(y);
  for (const c of COMMANDS) y = y.command(recording(onRun ? { ...c, handler: (a) => onRun(a as Record<string, unknown>) } : c, known));
  return y
    .demandCommand(1, 'name a command')
    // `-o -`: the main output goes to stdout, as without -o.
    .middleware((argv) => {
      if (argv.output === '-') delete argv.output;
    })
    .epilog(EXIT_CODES)
    .fail((msg, err) => {
      if (err) {
        // An error yargs met while parsing: one line too.
        diag(oneLine(String(err.message ?? err)));
        process.exit(EXIT_USAGE);
      }
      const commandGiven = argv.some((a) => COMMAND_NAMES.includes(a));
      diag(oneLine(`${usageLine(msg ?? '', { commands: COMMAND_NAMES, options: known, commandGiven })}; see callpair ${commandGiven ? `${argv.find((a) => COMMAND_NAMES.includes(a))} ` : ''}--help`));
      process.exit(EXIT_USAGE);
    })
    .help();
}

