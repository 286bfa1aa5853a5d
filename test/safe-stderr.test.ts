/**
 * What callpair writes on stderr is safe to show on a terminal: every message goes through the one
 * safe-text rule (src/cli/io.ts diagText: controls and bidi escaped, each line bounded), whether it
 * echoes a path, a profile's name or a usage error's argument; one line, exit 2, no stack trace.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLine, fixture, httpProfile, runCli, tmpDir } from './helpers.js';

describe('every stderr line goes through the one safe-text rule', () => {
  const nasty = 'x\u009b31m\u202eevil\u001b]8;;e\u0007';
  const clean = (s: string) => expect(s).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);

  it('the duplicate-channel error, a missing input and a missing profile path print no controls or bidi', async () => {
    const dir = tmpDir();
    const a = path.join(dir, `a${nasty}.json`);
    const b = path.join(dir, 'b.json');
    writeFileSync(a, JSON.stringify({ ...httpProfile(), name: 'a' }));
    writeFileSync(b, JSON.stringify({ ...httpProfile(), name: 'b' }));
    // A profile name is validated; the refusal echoes it made safe.
    writeFileSync(path.join(dir, 'c.json'), JSON.stringify({ ...httpProfile(), name: `c${nasty}` }));
    const badName = await runCli(['analyze', fixture('custom/http-log.jsonl'), '--profile', path.join(dir, 'c.json')]);
    const dup = await runCli(['analyze', fixture('custom/http-log.jsonl'), '--profile', `${a},${b}`]);
    const missingInput = await runCli(['analyze', path.join(dir, `in${nasty}.jsonl`)]);
    const missingProfile = await runCli(['analyze', fixture('custom/http-log.jsonl'), '--profile', path.join(dir, `p${nasty}.json`)]);
    for (const r of [dup, missingInput, missingProfile, badName]) {
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      clean(r.stderr);
    }
    expect(dup.stderr).toMatch(/both declare channel "http"/);
  });

  it('stderr has one choke point: only diag() writes messages (progress sanitises its path); the CLI catches the rest', async () => {
    const { readdirSync } = await import('node:fs');
    const root = path.resolve(fixture('.'), '..');
    const files = (readdirSync(path.join(root, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const writers = files.flatMap((f) =>
      readFileSync(path.join(root, 'src', f), 'utf8')
        .split('\n')
        .filter((l) => /process\.stderr|console\.(error|warn|log)/.test(l))
        .map((l) => `${f}: ${l.trim()}`),
    );
    // Progress (sanitised in progress.ts) is handed the stream; every message goes through diagText.
    expect(writers.filter((w) => !w.includes('makeProgress(process.stderr'))).toEqual(['cli/io.ts: process.stderr.write(`${diagText(msg)}\\n`);']);
    expect(readFileSync(path.join(root, 'src/cli/main.ts'), 'utf8')).toMatch(/catch \(e\) \{[\s\S]*diag\(`internal error/);
  });
});

describe('usage errors never echo arguments raw', () => {
  it('ESC, OSC and newlines in arguments are escaped, one line, exit 2', async () => {
    const evil = 'a\u001b]0;pwned\u0007b\u001b[31m\nc\u009b\u202e';
    const cases: string[][] = [
      ['analyze', `/nonexistent/${evil}`],
      ['analyze', '--format', evil, fixture('seed-trace.jsonl')],
      ['analyze', `--${evil}`, fixture('seed-trace.jsonl')],
      ['analyze', '--report', evil, fixture('seed-trace.jsonl')],
      ['analyze', '--report', `json${evil}=x`, fixture('seed-trace.jsonl')],
      ['analyze', '--profile', evil, fixture('seed-trace.jsonl')],
      ['pairs', `nope${evil}*.jsonl`],
      [evil],
    ];
    for (const args of cases) {
      const res = await runCli(args);
      expect(res.code, JSON.stringify(args)).toBe(2);
      expect(res.stderr.split('\n').length, JSON.stringify(res.stderr)).toBe(2);
      expectOneLine(res.stderr);
      expect(res.stderr).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    }
  });
});
