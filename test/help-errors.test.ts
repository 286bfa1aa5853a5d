/**
 * Errors and help: one line for every file-system error on outputs (parent
 * folders created), "did you mean" for commands, options and values, examples and exit codes in
 * every command's --help, the --no- forms shown, nothing machine-dependent; the Assay table keeps
 * tools and reasons apart.
 */
import { mkdirSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { didYouMean } from '../src/cli/suggest.js';
import { runCli, tmpDir } from './helpers.js';

const SEED = 'fixtures/seed-trace.jsonl';
const oneLine = (s: string) => s.trim().split('\n');

describe('output errors: one line, exit 2; folders created', () => {
  const dir = tmpDir();
  const sub = path.join(dir, 'a-dir');
  mkdirSync(sub);
  const file = path.join(dir, 'a-file');
  writeFileSync(file, '');

  it('-o into a folder that does not exist creates it, as --report does', async () => {
    const out = path.join(dir, 'new', 'deeper', 'r.json');
    const r = await runCli(['analyze', SEED, '-f', 'json', '-o', out]);
    expect(r.code).toBe(0);
    expect(existsSync(out)).toBe(true);
  });

  it.each([
    ['analyze -o DIR', ['analyze', SEED, '-o', sub], `cannot write ${sub}: is a directory`],
    ['compare -o DIR', ['compare', SEED, '-o', sub], `cannot write ${sub}: is a directory`],
    ['pairs -o DIR', ['pairs', SEED, '-o', sub], `cannot write ${sub}: is a directory`],
    ['trace -o DIR', ['trace', `${SEED}:5`, '-o', sub], `cannot write ${sub}: is a directory`],
    ['--report under a file', ['analyze', SEED, '--report', `json=${path.join(file, 'x.json')}`], `cannot write ${path.join(file, 'x.json')}:`],
  ])('%s', async (_, args, want) => {
    const r = await runCli(args as string[]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual([expect.stringContaining(`callpair: ${want}`)]);
    expect(r.stderr).not.toMatch(/\n\s+at |EISDIR|ENOENT/);
  });
});

describe('did you mean', () => {
  it('a command', async () => {
    const r = await runCli(['analyse', SEED]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual([expect.stringContaining('unknown command "analyse" (did you mean analyze?)')]);
  });

  it('an option', async () => {
    const r = await runCli(['analyze', SEED, '--max-orphan-request', '0']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual([expect.stringContaining('unknown option --max-orphan-request (did you mean --max-orphan-requests?)')]);
  });

  it('a short option is named as typed, -x, not --x', async () => {
    const r = await runCli(['pairs', SEED, '-x']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual([expect.stringMatching(/unknown option -x\b/)]);
  });

  it('merge takes -f json (its only format) and names render for the others', async () => {
    const dir = tmpDir();
    const rep = path.join(dir, 'r.json');
    expect((await runCli(['analyze', SEED, '-f', 'json', '-o', rep])).code).toBe(0);
    const ok = await runCli(['merge', rep, '-f', 'json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ schema: 'callpair.report.v1' });
    const md = await runCli(['merge', rep, '-f', 'markdown']);
    expect(md.code).toBe(2);
    expect(oneLine(md.stderr)).toEqual([expect.stringContaining('--format: "markdown" is not one of json')]);
  });

  it('a value, in one line', async () => {
    const r = await runCli(['analyze', SEED, '--format', 'jsn']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual([expect.stringContaining('--format: "jsn" is not one of table, json,')]);
    expect(r.stderr).toContain('(did you mean json?)');
  });

  it('didYouMean keeps to close words', () => {
    expect(didYouMean('pair', ['analyze', 'compare', 'pairs', 'trace'])).toBe('pairs');
    expect(didYouMean('zzzzzz', ['analyze', 'compare'])).toBeNull();
  });
});

describe('--help', () => {
  it.each(['merge', 'render', 'diff'])('%s (reports in, reports out): examples and exit codes too', async (cmd) => {
    const r = await runCli([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('Exit codes: 0');
    expect(r.stdout).not.toMatch(/--color\s/);
  });

  it.each(['analyze', 'compare', 'pairs', 'trace'])('%s: examples, exit codes, the --no- forms, nothing machine-dependent', async (cmd) => {
    const r = await runCli([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('Exit codes: 0');
    expect(r.stdout).toContain('--no-color');
    expect(r.stdout).not.toMatch(/--color\s/);
    expect(r.stdout).not.toMatch(/used here|this machine/);
    // The same text whatever the terminal says about itself.
    const again = await runCli([cmd, '--help'], { env: { COLUMNS: '61' } });
    expect(again.stdout).toBe(r.stdout);
  });

  it.each(['compare', 'pairs'])('%s --help says what its exit 1 means (nothing matched), and a run where nothing matched exits 1', async (cmd) => {
    const help = (await runCli([cmd, '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('Exit codes: 0 done; 1 nothing matched');
    expect(help).not.toContain('the gate failed');
    const dir = tmpDir();
    const empty = path.join(dir, 'nothing.jsonl');
    writeFileSync(empty, '{"unrelated": true}\n');
    const r = await runCli([cmd, empty, '-o', path.join(dir, 'out')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('callpair: no call events');
  });

  it('analyze states the default gate and shows --no-fail', async () => {
    const r = await runCli(['analyze', '--help']);
    expect(r.stdout).toContain('Default gate: fail on any error-severity finding');
    expect(r.stdout).toContain('--no-fail');
    expect(r.stdout).not.toMatch(/--fail\s+exit/);
  });
});

describe('the Assay table', () => {
  it('puts tools and reasons in separate tables, never on one row', async () => {
    const A = 'fixtures/assay';
    const r = await runCli(['analyze', `${A}/run-ids.decisions.ndjson`, '--caller', `${A}/run-ids.caller.jsonl`, '--upstream', `${A}/run-ids.upstream.jsonl`]);
    expect(r.stdout).toMatch(/│ tool +│ records │/);
    expect(r.stdout).toMatch(/│ reason +│ records │/);
    expect(r.stdout).not.toMatch(/│ misc\.do_thing +│ 1 +│ allow/);
  });
});
