/**
 * How outputs are written (docs/inputs.md, "Outputs"): through a temporary file renamed into place
 * (no temporary left, a symlink's target replaced, not the link), missing folders created,
 * /dev/null written in place; and any output failure — a parent that is a file, a full device, a
 * directory, for every command and every --report format — is one line on stderr and exit 2.
 */
import { readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLine, runCli, seedCopy, tmpDir, withoutGateLine } from './helpers.js';

describe('outputs are written whole or not at all', () => {
  it('outputs go through a temporary file renamed into place: no temporary is left, a symlink target is replaced, not the link', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir, 'in.jsonl');
    const real = path.join(dir, 'real.json');
    writeFileSync(real, 'old');
    symlinkSync(real, path.join(dir, 'link.json'));
    const res = await runCli(['analyze', '--format', 'json', x, '-o', path.join(dir, 'link.json'), '--report', `markdown=${path.join(dir, 'r.md')}`]);
    expect(withoutGateLine(res.stderr)).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(readFileSync(real, 'utf8')).schema).toBeDefined();
    expect(readdirSync(dir).sort()).toEqual(['in.jsonl', 'link.json', 'r.md', 'real.json']);
  });

  it('a missing output folder is created (as --report does); /dev/null is written in place', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir);
    // The runs are independent: started together, checked in order.
    const runs = ['analyze', 'compare', 'pairs'].map((cmd) => {
      const out = path.join(dir, cmd, 'deep', 'out.txt');
      return { out, res: runCli([cmd, x, '-o', out]), toNull: runCli([cmd, x, '-o', '/dev/null']) };
    });
    for (const { out, res: running, toNull } of runs) {
      const res = await running;
      expect(res.code, res.stderr).toBe(0);
      expect(statSync(out).size).toBeGreaterThan(0);
      expect((await toNull).code).toBe(0);
    }
  });
});

describe('any output failure is one line on stderr and exit 2', () => {
  it('-o under a file, -o /dev/full, --report json=/dev/full, -o a directory, for every command', async () => {
    const dir = tmpDir();
    const x = seedCopy(dir);
    const notDir = path.join(dir, 'plain');
    writeFileSync(notDir, 'x');
    const bad = [
      ['-o', path.join(notDir, 'd', 'x')],
      ['-o', '/dev/full'],
      ['-o', dir],
    ];
    // The runs are independent: started together, checked in order.
    const commands = ['analyze', 'compare', 'pairs'].flatMap((cmd) => bad.map((o) => ({ cmd, o, run: runCli([cmd, x, ...o]) })));
    const reports = ['json', 'markdown', 'sarif'].map((fmt) => runCli(['analyze', x, '--report', `${fmt}=/dev/full`]));
    const summaryRun = runCli(['analyze', x, '--step-summary'], { env: { GITHUB_STEP_SUMMARY: '/dev/full' } });
    for (const { cmd, o, run } of commands) {
      const res = await run;
      expect(res.code, `${cmd} ${o.join(' ')}: ${res.stderr}`).toBe(2);
      expectOneLine(res.stderr);
      expect(res.stdout).toBe('');
    }
    for (const run of reports) {
      const res = await run;
      expect(res.code).toBe(2);
      expectOneLine(res.stderr);
      expect(res.stderr).toMatch(/ENOSPC/);
    }
    const summary = await summaryRun;
    expect(summary.code).toBe(2);
    expectOneLine(summary.stderr);
    expect(readdirSync(dir).sort()).toEqual(['plain', 'x.jsonl']);
  });
});
