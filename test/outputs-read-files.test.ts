/**
 * An output never overwrites a file the run reads (docs/inputs.md, "Outputs"): captures, and also a
 * custom profile file, a --baseline report and the $GITHUB_STEP_SUMMARY file --step-summary appends
 * to. `-o -` is stdout.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runCli, tmpDir } from './helpers.js';

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
