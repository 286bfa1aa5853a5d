/**
 * The start-up fast path (docs/performance.md#start-up): a plain run — a command whose
 * every argument is a recognised option in a simple form, or an input — is parsed here, without
 * loading yargs, building its command tree or rendering the help text yargs caches before every
 * handler (about 2/3 of a small run's time). Anything else returns null and goes through yargs as
 * before: help, errors, unknown or misspelt options, unusual forms (`-fjson`, `--`, camelCase,
 * a value that starts with `-`, a number yargs might read differently), a value a `choices` list
 * rejects. So every message still comes from yargs.
 *
 * The options are not listed twice: the command's own yargs builder is run against a recorder
 * (`optionSpecs`), and the parsed object has yargs' shape — each option under its name, its
 * camelCase form and its aliases, defaults filled in, `_` and `$0`. test/fast-path.test.ts checks
 * the two parsers give equal objects on a broad table of command lines, and that the rest falls back.
 */
import type { Argv, CommandModule } from 'yargs';
import { STDIN_TOKEN } from './options.js';

export interface OptionSpec {
  name: string;
  type: 'string' | 'number' | 'boolean';
  default?: unknown;
  alias: string[];
  array: boolean;
  choices?: readonly unknown[];
}

export interface CommandSpec {
  name: string;
  /** The variadic positional (`[inputs..]`). */
  positional: string;
  options: Map<string, OptionSpec>;
}

/** Option keys the fast path understands; an option using any other (coerce, conflicts, …) disables it. */
const KNOWN_KEYS = new Set(['type', 'default', 'alias', 'describe', 'hidden', 'choices', 'array', 'nargs']);
/** Builder calls that change nothing a plain run parses. */
const INERT_CALLS = new Set(['example', 'epilog', 'usage']);

class Unsupported extends Error {}

/**
 * The command's options, read by running its builder against a recorder; null when the command or
 * its builder uses anything the fast path does not model.
 */
export function optionSpecs(cmd: CommandModule): CommandSpec | null {
  const m = /^(\S+) \[(\w+)\.\.\]$/.exec(String(cmd.command));
  if (!m || typeof cmd.builder !== 'function') return null;
  const [, name, positional] = m as unknown as [string, string, string];
  const options = new Map<string, OptionSpec>();
  let positionalOk = false;
  const recorder: Argv = new Proxy({} as Argv, {
    get(_t, prop) {
      if (prop === 'option') {
        return (key: string, o: Record<string, unknown>) => {
          for (const k of Object.keys(o)) if (!KNOWN_KEYS.has(k)) throw new Unsupported(k);
          if (o.type !== 'string' && o.type !== 'number' && o.type !== 'boolean') throw new Unsupported(String(o.type));
          if (o.nargs !== undefined && !(o.nargs === 1 && o.array === true)) throw new Unsupported('nargs');
          if (options.has(key)) throw new Unsupported(key);
          const alias = o.alias === undefined ? [] : ([] as unknown[]).concat(o.alias).map(String);
          if (alias.some((a) => a.length !== 1)) throw new Unsupported('alias');
          options.set(key, {
            name: key,
            type: o.type,
            ...('default' in o ? { default: o.default } : {}),
            alias,
            array: o.array === true,
            ...(o.choices !== undefined ? { choices: o.choices as readonly unknown[] } : {}),
          });
          return recorder;
        };
      }
      if (prop === 'positional') {
        return (key: string, o: Record<string, unknown>) => {
          if (key !== positional || o.type !== 'string' || o.array !== true || Object.keys(o).some((k) => !['type', 'array', 'describe'].includes(k))) throw new Unsupported(key);
          positionalOk = true;
          return recorder;
        };
      }
      if (typeof prop === 'string' && INERT_CALLS.has(prop)) return () => recorder;
      throw new Unsupported(String(prop));
    },
  });
  try {
    (cmd.builder as (y: Argv) => Argv)(recorder);
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
  return positionalOk ? { name, positional, options } : null;
}

const camel = (k: string) => k.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** yargs-parser's test for a value it may read as a number (then the fast path steps aside). */
function looksLikeNumber(x: string): boolean {
  return /^0x[0-9a-f]+$/i.test(x) || /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(e[-+]?\d+)?$/i.test(x);
}

/**
 * `argv` (the command name first) parsed as yargs would parse it for `spec`, or null when the fast
 * path does not take it.
 */
export function parseFast(argv: readonly string[], spec: CommandSpec): Record<string, unknown> | null {
  if (argv[0] !== spec.name) return null;
  // `--name`, `--no-name` (declared), and `-a` for single-letter aliases → the option.
  const tokens = new Map<string, { o: OptionSpec; negated: boolean }>();
  for (const o of spec.options.values()) {
    tokens.set(`--${o.name}`, { o, negated: false });
    for (const a of o.alias) tokens.set(`-${a}`, { o, negated: false });
  }
  for (const o of spec.options.values()) {
    const m = /^no-(.+)$/.exec(o.name);
    const target = m ? spec.options.get(m[1]!) : undefined;
    // `--no-color` sets `color` to false (yargs' negation), `no-color` itself stays unset.
    if (target && target.type === 'boolean' && o.type === 'boolean' && o.default === undefined) tokens.set(`--${o.name}`, { o: target, negated: true });
  }
  const given = new Map<string, unknown>();
  const inputs: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === STDIN_TOKEN || !arg.startsWith('-')) {
      if (looksLikeNumber(arg)) return null;
      inputs.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const t = tokens.get(eq < 0 ? arg : arg.slice(0, eq));
    if (!t) return null;
    const { o, negated } = t;
    let value: unknown;
    if (o.type === 'boolean') {
      if (eq >= 0) return null;
      value = !negated;
      if (given.has(o.name) && given.get(o.name) !== value) return null;
    } else {
      const raw = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (raw === undefined || raw.startsWith('-') || raw === STDIN_TOKEN || raw.startsWith('\u0000')) return null;
      if (o.type === 'number') {
        if (!/^(?:0|[1-9]\d{0,14})(?:\.\d{1,15})?$/.test(raw)) return null;
        value = Number(raw);
      } else {
        if (looksLikeNumber(raw)) return null;
        value = raw;
      }
      if (o.choices && !o.choices.includes(value)) return null;
      if (o.array) value = [...((given.get(o.name) as unknown[] | undefined) ?? []), value];
      else if (given.has(o.name)) {
        // A repeated option: yargs makes an array of it (the commands reject or accept that).
        if (o.type !== 'string' || o.choices) return null;
        value = ([] as unknown[]).concat(given.get(o.name), value);
      }
    }
    given.set(o.name, value);
  }
  const out: Record<string, unknown> = { _: [spec.name] };
  const put = (o: OptionSpec, v: unknown) => {
    out[o.name] = v;
    if (o.name.includes('-')) out[camel(o.name)] = v;
    for (const a of o.alias) out[a] = v;
  };
  for (const [name, v] of given) put(spec.options.get(name)!, v);
  out[spec.positional] = inputs;
  for (const o of spec.options.values()) if (!given.has(o.name) && o.default !== undefined) put(o, o.default);
  out.$0 = 'callpair';
  return out;
}
