/**
 * An output never overwrites a file the run reads (docs/inputs.md, "Outputs"): captures (by path,
 * hard link, symlink, directory of inputs, --caller, stdin redirected from it, stdout appended to
 * it), and also a custom profile file, a --baseline report and the $GITHUB_STEP_SUMMARY file
 * --step-summary appends to. `-o -` is stdout.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, expectOneLine, fixture, runCli, SEED, seedCopy, tmpDir } from './helpers.js';

describe('outputs that name a file the run reads are refused, exit 2, nothing written', () => {
  it('a custom profile file', async () => {
    const p = path.join(tmpDir(), 'p.json');
    copyFileSync(fixture('custom/http-profile.json'), p);
    const before = readFileSync(p, 'utf8');
    const r = await runCli(['analyze', '--profile', p, fixture('custom/http-log.jsonl'), '-o', p]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is the same file as the input .*p\.json: refusing to overwrite an input/);
    expect(readFileSync(p, 'utf8')).toBe(before);
  });

  it('a --baseline report (as -o and as --report)', async () => {
    const dir = tmpDir();
    const base = path.join(dir, 'base.json');
    await runCli(['analyze', fixture('seed-trace.jsonl'), '-f', 'json', '-o', base]);
    const before = readFileSync(base, 'utf8');
    for (const out of [['-o', base], ['--report', `json=${base}`]]) {
      const r = await runCli(['analyze', fixture('seed-trace.jsonl'), '--baseline', base, ...out]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(readFileSync(base, 'utf8')).toBe(before);
  });

  it('the step summary file, when it is a capture', async () => {
    const cap = path.join(tmpDir(), 'cap.jsonl');
    copyFileSync(fixture('seed-trace.jsonl'), cap);
    const before = readFileSync(cap, 'utf8');
    const r = await runCli(['analyze', cap, '--step-summary'], { env: { GITHUB_STEP_SUMMARY: cap } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--step-summary/);
    expect(readFileSync(cap, 'utf8')).toBe(before);
  });

  it('-o - writes to stdout', async () => {
    const r = await runCli(['analyze', fixture('seed-trace.jsonl'), '-f', 'json', '-o', '-']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).schema).toBe('callpair.report.v1');
  });
});

describe('an output that is an input is refused before anything is written', () => {
  it('pairs x.jsonl -o x.jsonl: exit 2, one line, the capture untouched', async () => {
    const x = seedCopy();
    const res = await runCli(['pairs', x, '-o', x]);
    expect(res.code).toBe(2);
    expectOneLine(res.stderr);
    expect(res.stderr).toMatch(/same file as the input/);
    expect(readFileSync(x)).toEqual(SEED);
  });

  it('hard links, symlinks, --report, directories of inputs, --caller and stdin all count', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir);
    linkSync(x, path.join(dir, 'hard.json'));
    symlinkSync(x, path.join(dir, 'sym.json'));
    const cases: string[][] = [
      ['analyze', x, '-o', path.join(dir, 'hard.json')],
      ['analyze', x, '--report', `json=${path.join(dir, 'sym.json')}`],
      ['analyze', dir, '--report', `sarif=${x}`],
      ['compare', x, '-o', path.join(dir, 'sym.json')],
      ['analyze', '--profile', 'assay', '--caller', x, fixture('seed-trace.jsonl'), '-o', x],
    ];
    // The runs are independent: started together, checked in order.
    const runs = cases.map((args) => ({ args, run: runCli(args) }));
    for (const { args, run } of runs) {
      const res = await run;
      expect(res.code, args.join(' ')).toBe(2);
      expectOneLine(res.stderr);
      expect(res.stderr).toMatch(/same file as the input/);
    }
    // stdin redirected from the file (`compare - -o x.jsonl < x.jsonl`)
    const code = execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" compare - -o "${x}" < "${x}" 2>/dev/null; echo $?`]).toString().trim();
    expect(code).toBe('2');
    // stdout appended to the input (`pairs x.jsonl >> x.jsonl` would read its own output)
    const append = execFileSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" pairs "${x}" >> "${x}" 2>/dev/null; echo $?`]).toString().trim();
    expect(append).toBe('2');
    expect(readFileSync(x)).toEqual(SEED);
    expect(statSync(x).nlink).toBe(2);
  });

});

describe('an output inside a directory given as an input is refused, new or not, for every command', () => {
  it('-o and --report under an input directory (a new file, a new folder, through links): exit 2, one line, nothing written', async () => {
    const dir = tmpDir();
    const caps = path.join(dir, 'capdir');
    mkdirSync(caps);
    seedCopy(caps, 'a.jsonl');
    symlinkSync(caps, path.join(dir, 'link'));
    const shards = path.join(dir, 'shards');
    mkdirSync(shards);
    expect((await runCli(['analyze', caps, '-f', 'json', '-o', path.join(shards, 'r.json')])).code).toBe(0);
    const cases: [string[], string][] = [
      [['analyze', 'capdir/', '-o', 'capdir/report.json'], 'capdir/'],
      [['analyze', 'capdir', '-o', 'capdir/new/deeper/r.jsonl.gz'], 'capdir'],
      [['analyze', 'capdir', '--report', 'sarif=capdir/r.har'], 'capdir'],
      [['analyze', 'capdir', '-o', 'link/r.json'], 'capdir'],
      [['analyze', 'link/', '-o', 'capdir/r.json'], 'link/'],
      [['analyze', 'capdir', '-o', 'elsewhere/../capdir/r.json'], 'capdir'],
      [['compare', 'capdir', '-o', 'capdir/c.json'], 'capdir'],
      [['pairs', 'capdir', '-o', 'capdir/p.ndjson'], 'capdir'],
      [['trace', 'capdir/a.jsonl:5', 'capdir', '-o', 'capdir/t.ndjson'], 'capdir'],
      [['analyze', '--profile', 'assay', '--caller', 'capdir', 'capdir/a.jsonl', '-o', 'capdir/r.json'], 'capdir'],
      [['merge', 'shards', '-o', 'shards/merged.json'], 'shards'],
    ];
    const runs = cases.map(([args, shown]) => ({ args, shown, run: runCli(args, { cwd: dir }) }));
    for (const { args, shown, run } of runs) {
      const res = await run;
      expect(res.code, args.join(' ')).toBe(2);
      expectOneLine(res.stderr);
      const out = args[args.length - 1]!.replace(/^sarif=/, '');
      const flag = args.includes('--report') ? '--report sarif=' : '--output ';
      expect(res.stderr.trim()).toBe(`callpair: ${flag}${out} is inside the input directory ${shown}: refusing to write where an input is read`);
    }
    expect(readdirSync(caps).sort()).toEqual(['a.jsonl']);
    expect(readdirSync(shards).sort()).toEqual(['r.json']);
    expect(existsSync(path.join(dir, 'elsewhere'))).toBe(false);
    // A name the directory walk does not read (a Markdown summary, SARIF, JUnit XML) is written there: the next run skips it.
    for (const [fmt, out] of [['markdown', 'capdir/summary.md'], ['sarif', 'capdir/r.sarif'], ['junit', 'capdir/sub/r.xml']]) {
      const res = await runCli(['analyze', 'capdir', '-f', fmt!, '-o', out!], { cwd: dir });
      expect(res.code, out).toBe(0);
      expect(existsSync(path.join(dir, out!))).toBe(true);
    }
    // Beside the input directory (a name it prefixes, its parent) is written.
    for (const out of ['capdir2/r.json', 'r.json']) {
      const res = await runCli(['analyze', 'capdir', '-o', out], { cwd: dir });
      expect(res.code, out).toBe(0);
      expect(existsSync(path.join(dir, out))).toBe(true);
    }
    // A folder named in bytes that are not UTF-8: refused, shown escaped.
    const code = execFileSync('/bin/sh', ['-c', `mkdir "$(printf 'caf\\351')" && cp capdir/a.jsonl "$(printf 'caf\\351')/" && "${process.execPath}" "${BIN}" analyze "$(printf 'caf\\351')" -o "$(printf 'caf\\351/r.json')" 2>err.txt; echo $?`], { cwd: dir }).toString().trim();
    expect(code).toBe('2');
    expect(readFileSync(path.join(dir, 'err.txt'), 'utf8')).toBe('callpair: --output caf\\xe9/r.json is inside the input directory caf\\xe9: refusing to write where an input is read\n');
  });
});
