/**
 * A profile the CLI cannot use is refused before anything is read: one line on stderr naming the
 * field and what was expected, exit 2 (rules nested too deep, a declared name that is not a name,
 * a `--profile` that names no profile). The refusals themselves are unit-tested beside the parser
 * (src/profiles/lang/spec.test.ts); this pins what the binary prints.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, httpProfile, nest, runCli, tmpDir } from './helpers.js';

function writeProfile(spec: unknown): string {
  const p = path.join(tmpDir(), 'profile.json');
  writeFileSync(p, JSON.stringify(spec));
  return p;
}

describe('recursive profile constructs are bounded', () => {
  it('a failed rule nested 4 000 arrays deep is one line naming the field, exit 2', async () => {
    const p = writeProfile({ ...httpProfile(), failed: nest(4000, { error: true }) });
    const r = await runCli(['analyze', fixture('custom/http-log.jsonl'), '--profile', p]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^callpair: profile: failed(\[0\])+: expected rules nested at most \d+ arrays deep/);
  });
});

describe('profile-declared names are validated', () => {
  it('the refusal is one line on stderr, exit 2', async () => {
    const r = await runCli(['analyze', fixture('custom/http-log.jsonl'), '--profile', writeProfile({ ...httpProfile(), channel: 5 })]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('callpair: profile: channel: expected 1–64 letters, digits, _ . or -, starting with a letter or digit, got 5\n');
  });
});

describe('--profile naming no profile is a usage error', () => {
  it.each([',', ',,', ''])('--profile %j exits 2 with one line', async (p) => {
    const r = await runCli(['analyze', fixture('seed-trace.jsonl'), '--profile', p]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^callpair: --profile ".*" names no profile/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
