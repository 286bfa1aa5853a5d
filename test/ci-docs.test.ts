/**
 * docs/ci.md, the workflows it links (examples/github) and action.yml use only options the CLI has, and the example command of docs/ci.md
 * runs as documented.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tmpDir } from './helpers.js';

const ci = readFileSync(path.join(ROOT, 'docs', 'ci.md'), 'utf8');
const action = readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
const workflows = ['action.yml', 'cli.yml', 'scale-out.yml'].map((f) => readFileSync(path.join(ROOT, 'examples', 'github', f), 'utf8')).join('\n');

describe('CI docs', () => {
  it('every option named in docs/ci.md, its example workflows and action.yml exists', async () => {
    const help = (await runCli(['analyze', '--help'])).stdout;
    const flags = new Set([...(ci + workflows + action).matchAll(/(?<![\w-])--([a-z][a-z-]+)/g)].map((m) => m[1]!));
    // Options of other tools the page names (npm, gh, the SARIF Multitool).
    for (const skip of ['no-audit', 'no-fund', 'no-save', 'ignore-scripts', 'body-file', 'rule-kind']) flags.delete(skip);
    expect(flags.size).toBeGreaterThan(8);
    for (const f of flags) expect(help, f).toContain(`--${f.replace(/^no-/, '')}`);
  });

  it('the docs/ci.md example command writes the reports and applies the gate', async () => {
    const cmd = /```sh\n(npx callpair analyze [^`]+)```/.exec(ci)![1]!.replace(/\\\n\s*/g, ' ').trim();
    const args = cmd.split(/\s+/).slice(2).map((a) => (a === 'captures/' ? path.join(ROOT, 'fixtures', 'orphan-crossed.jsonl') : a));
    const dir = tmpDir();
    const r = await runCli(args, { cwd: dir });
    expect(r.code).toBe(1); // one orphan request, crossed pairs
    expect(r.stdout).toContain('title=callpair gate%3A max-orphan-requests');
    for (const f of ['callpair.sarif', 'callpair.junit.xml', 'callpair.json']) expect(existsSync(path.join(dir, f)), f).toBe(true);
  });
});
