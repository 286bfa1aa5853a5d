/**
 * The start-up fast path (issue 13, src/cli/fast-path.ts): on every command line it takes, it must
 * parse exactly what yargs parses (same keys, same values, defaults and aliases included); anything
 * it does not model must fall back to yargs. And end to end, the built CLI answers the same bytes,
 * stderr and exit code whichever parser ran.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILD_MARK, loadFastPath } from '../src/cli/fast-load.js';
import { buildCli } from '../src/cli/commands.js';
import { analyzeCommand } from '../src/cli/analyze.js';
import { optionSpecs, parseFast } from '../src/cli/fast-path.js';
import { STDIN_TOKEN } from '../src/cli/options.js';
import { ROOT, runCli, tmpDir } from './helpers.js';

const spec = optionSpecs(analyzeCommand)!;
const toArgv = (line: string[]) => ['analyze', ...line].map((a) => (a === '-' ? STDIN_TOKEN : a));

async function viaYargs(argv: string[]): Promise<Record<string, unknown>> {
  let got: Record<string, unknown> | undefined;
  // A usage error in yargs exits the process: make it a test failure instead.
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Error(`yargs exited ${code} on ${JSON.stringify(argv)}`);
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await buildCli(argv, (a) => (got = a)).parseAsync();
  } finally {
    stderr.mockRestore();
  }
  if (!got) throw new Error(`yargs ran no command on ${JSON.stringify(argv)}`);
  return got;
}

afterEach(() => vi.restoreAllMocks());

const INPUTS: string[][] = [
  [],
  ['fixtures/seed-trace.jsonl'],
  ['a.jsonl', 'dir/'],
  ['-'],
  ['./x.jsonl.gz', 'captures/*.jsonl', '-'],
  ['2024-01.jsonl'],
  ['0123'],
  ['analyze'],
  ['merge', 'a b.jsonl'],
  ['été/ünïcode.jsonl'],
  ['with=equals.jsonl'],
];

/** Options in every simple form the fast path takes (and a few it must pass on). */
const OPTIONS: string[][] = [
  ['--format', 'json'],
  ['--format=markdown'],
  ['-f', 'sarif'],
  ['-f', 'html'],
  ['--output', 'out.md'],
  ['-o', 'out.md'],
  ['--output=o.json'],
  ['--output', ''],
  ['--output', 'a', '-o', 'b'],
  ['--wide'],
  ['--wide', '--wide'],
  ['--timeline'],
  ['--no-color'],
  ['--color'],
  ['--no-color', '--no-color'],
  ['--no-fail'],
  ['--fail'],
  ['--profile', 'amplifier'],
  ['--profile=assay,jsonrpc'],
  ['--profile', 'my-profile.json'],
  ['--max-line-bytes', '1024'],
  ['--max-line-bytes=65536'],
  ['--max-findings', '0'],
  ['--max-findings', '3.5'],
  ['--max-findings', '12', '--max-findings', '13'],
  ['--max-open-calls', '10'],
  ['--max-scopes', '2'],
  ['--jobs', '2'],
  ['--validate-all'],
  ['--allow-empty'],
  ['--caller', 'c.log'],
  ['--caller=c.log', '--caller', 'd.log'],
  ['--upstream', 'u.log', '--caller', 'c.log'],
  ['--correlation-key', 'k'],
  ['--correlation-key='],
  ['--baseline', 'base.json'],
  ['--baseline', 'a.json', '--baseline', 'b.json'],
  ['--fail-on-new'],
  ['--fail-on', 'error'],
  ['--fail-on', 'CROSSED', '--fail-on', 'warning,note'],
  ['--max-crossed-rate', '0.1'],
  ['--max-orphan-requests', '0'],
  ['--max-ambiguous', '5'],
  ['--min-id-coverage', '0.95'],
  ['--min-id-coverage=1'],
  ['--report', 'json=o.json'],
  ['--report', 'json=a', '--report', 'sarif=b', '--report=junit=c'],
  ['--report', 'bogus'],
  ['--step-summary'],
];

/** Lines the fast path must hand to yargs: help, errors, forms it does not model. */
const FALLBACK: string[][] = [
  ['--help'],
  ['-h'],
  ['--version'],
  ['--formt', 'json'],
  ['--maxFindings', '3'],
  ['-fjson'],
  ['--'],
  ['--', 'x'],
  ['--jobs', '-1'],
  ['--jobs', 'abc'],
  ['--jobs', '1e3'],
  ['--jobs', '0x10'],
  ['--jobs', '007'],
  ['--jobs'],
  ['--output'],
  ['--output', '-'],
  ['--output', '--wide'],
  ['--wide=true'],
  ['--no-wide'],
  ['--no-color', '--color'],
  ['--format', 'json', '--format', 'markdown'],
  ['--format', 'xml'],
  ['-f', 'jsonx'],
  ['--profile', '5'],
  ['--caller', '-'],
  ['123'],
  ['1e3'],
  ['-x'],
  ['---wide'],
  ['--no-fail=false'],
];

function table(): string[][] {
  const lines: string[][] = [];
  for (const inputs of INPUTS) lines.push(inputs);
  // Every option on both sides of a few input lists (one yargs parse costs ~50 ms).
  for (const inputs of [INPUTS[1]!, INPUTS[2]!, INPUTS[3]!, INPUTS[9]!]) for (const o of OPTIONS) lines.push([...inputs, ...o], [...o, ...inputs]);
  // Seeded combinations: 2–5 options, the inputs split around them.
  let seed = 13;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let k = 0; k < 250; k++) {
    const inputs = INPUTS[rnd(INPUTS.length)]!;
    const picked: string[][] = [];
    const n = 2 + rnd(4);
    for (let j = 0; j < n; j++) picked.push(OPTIONS[rnd(OPTIONS.length)]!);
    const cut = rnd(inputs.length + 1);
    lines.push([...inputs.slice(0, cut), ...picked.flat(), ...inputs.slice(cut)]);
  }
  return lines;
}

describe('fast path: the same parsed options as yargs', () => {
  it('reads the analyze options from the command builder', () => {
    expect(spec).not.toBeNull();
    expect(spec.positional).toBe('inputs');
    expect([...spec.options.keys()]).toEqual(expect.arrayContaining(['format', 'output', 'profile', 'jobs', 'no-color', 'fail-on', 'report', 'caller']));
  });

  it('equals yargs on every line it takes (a table of ~650 command lines)', { timeout: 300_000 }, async () => {
    const lines = table();
    let taken = 0;
    for (const line of lines) {
      const argv = toArgv(line);
      const fast = parseFast(argv, spec);
      if (fast === null) continue;
      taken++;
      expect({ line, parsed: fast }).toEqual({ line, parsed: await viaYargs(argv) });
    }
    // The fast path is not vacuous: it takes nearly every line of the table.
    expect(taken).toBeGreaterThan(lines.length * 0.85);
  });

  it.each(INPUTS.filter((i) => !i.some((x) => /^0\d/.test(x))).map((i) => [i]))('takes a plain run: %j', (inputs) => {
    expect(parseFast(toArgv(inputs), spec)).not.toBeNull();
  });

  it.each(FALLBACK.map((f) => [f]))('hands %j to yargs', (line) => {
    expect(parseFast(toArgv(['a.jsonl', ...line]), spec)).toBeNull();
    // (A value-taking option last: `--output a.jsonl` would be a plain run.)
    if (line.length > 1 || !['--jobs', '--output'].includes(line[0]!)) expect(parseFast(toArgv([...line, 'a.jsonl']), spec)).toBeNull();
  });

  it('takes only the analyze command', () => {
    expect(parseFast(['pairs', 'a.jsonl'], spec)).toBeNull();
    expect(parseFast(['--wide', 'analyze', 'a.jsonl'], spec)).toBeNull();
  });
});

describe('fast path end to end: the same bytes, stderr and exit code as the yargs path', () => {
  const SEED = 'fixtures/seed-trace.jsonl';
  // `--max-findings 1e3` is the default (1000) to yargs, and a form the fast path hands to yargs.
  const YARGS = ['--max-findings', '1e3'];
  it.each([
    [[SEED]],
    [[SEED, '-f', 'json']],
    [[SEED, '--format=markdown', '--wide']],
    [[SEED, '--max-orphan-requests', '0']],
    [[SEED, '--max-orphan-requests', '0', '--no-fail']],
    [['fixtures/does-not-exist.jsonl']],
    [[SEED, '--report', 'bogus']],
    [[SEED, '--baseline', 'a.json', '--baseline', 'b.json']],
    [[]],
  ])('analyze %j', async (args) => {
    expect(parseFast(toArgv(args), spec)).not.toBeNull();
    expect(parseFast(toArgv([...args, ...YARGS]), spec)).toBeNull();
    const [fast, slow] = await Promise.all([runCli(['analyze', ...args]), runCli(['analyze', ...args, ...YARGS])]);
    expect(fast).toEqual(slow);
  });
});

describe('the fast path bundle and its code cache (dist/cli/fast.cjs)', () => {
  const dist = path.join(ROOT, 'dist', 'cli');
  it('V8 takes the cache the build wrote', () => {
    const fast = loadFastPath(pathToFileURL(`${dist}/`));
    expect(fast).not.toBeNull();
    expect(fast!.cacheRejected).toBe(false);
  });

  it("a cache is never used with another build's code", () => {
    const dir = tmpDir();
    const source = readFileSync(path.join(dist, 'fast.cjs'), 'utf8');
    const at = source.lastIndexOf(BUILD_MARK);
    expect(at).toBeGreaterThan(0);
    writeFileSync(path.join(dir, 'fast.cjs'), `${source.slice(0, at)}${BUILD_MARK}0000000000000000\n`);
    copyFileSync(path.join(dist, 'fast.cjs.cache'), path.join(dir, 'fast.cjs.cache'));
    const fast = loadFastPath(pathToFileURL(`${dir}/`));
    expect(fast!.cacheRejected).toBeUndefined();
  });

  it('no bundle (a plain tsc build): null, and main.ts imports the module instead', () => {
    expect(loadFastPath(pathToFileURL(`${tmpDir()}/`))).toBeNull();
  });
});
