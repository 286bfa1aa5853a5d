/**
 * Records that share a line (a HAR or `records` document written on one line): the table and
 * Markdown show each one's JSON pointer (`path:line#pointer`), and `trace PATH:LINE#POINTER` picks one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runCli, tmpDir } from './helpers.js';

function oneLineHar(): string {
  const file = path.join(tmpDir(), 'one.har');
  writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(fixture('real/har/har-fulfill.har.json'), 'utf8'))));
  return file;
}

describe('records that share a line', () => {
  it('the table locates each entry of a one-line HAR by path:line#pointer, as the JSON does', async () => {
    const file = oneLineHar();
    const json = JSON.parse((await runCli(['analyze', file, '--profile', 'har', '-f', 'json'])).stdout);
    const maxAt = json.channels[0].latencyMs.maxAt;
    expect(maxAt).toEqual({ path: file, line: 1, pointer: '/log/entries/1' });
    expect((await runCli(['analyze', file, '--profile', 'har'])).stdout).toContain(`${file}:1#/log/entries/1`);
  });

  it('Markdown, the table and HTML locate a finding at a record of a records path by path:line#pointer', async () => {
    const args = ['analyze', '--profile', 'fixtures/custom/lang/claude-code.json', 'fixtures/custom/lang/claude-code-parallel.jsonl'];
    const at = 'fixtures/custom/lang/claude-code-parallel.jsonl:8';
    expect((await runCli([...args, '-f', 'markdown'])).stdout).toContain(`| ${at}\\#/message/content/0 |`);
    expect((await runCli(args)).stdout).toContain(`│ ${at}#/message/content/0 │`);
    expect((await runCli([...args, '-f', 'html'])).stdout).toContain(`${at}#/message/content/0`);
  });

  it('a pointer with control characters is echoed with them escaped (\\x1b), not dropped, in the table and Markdown', async () => {
    const file = oneLineHar();
    const target = `${file}:1#/log/ent\u001b[31mries\u0007/9`;
    const table = await runCli(['trace', target, '--profile', 'har']);
    expect(table.stdout).toContain(`No call at ${file}:1#/log/ent\\x1b[31mries\\x07/9:`);
    expect(table.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    const md = await runCli(['trace', target, '--profile', 'har', '-f', 'markdown']);
    expect(md.stdout).toContain('ent\\\\x1b\\[31mries\\\\x07/9');
    expect(md.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  it('trace PATH:LINE#POINTER picks one record of the line; PATH:LINE takes them all', async () => {
    const file = oneLineHar();
    const one = JSON.parse((await runCli(['trace', `${file}:1#/log/entries/1`, '--profile', 'har', '-f', 'json'])).stdout);
    expect(one.target).toEqual({ kind: 'location', path: file, line: 1, pointer: '/log/entries/1' });
    expect(one.calls).toHaveLength(1);
    expect(one.calls[0].request.loc).toEqual({ path: file, line: 1, pointer: '/log/entries/1' });
    const all = JSON.parse((await runCli(['trace', `${file}:1`, '--profile', 'har', '-f', 'json'])).stdout);
    expect(all.calls.map((c: { request: { loc: { pointer: string } } }) => c.request.loc.pointer)).toEqual(['/log/entries/0', '/log/entries/1', '/log/entries/2']);
    const text = (await runCli(['trace', `${file}:1#/log/entries/1`, '--profile', 'har'])).stdout;
    expect(text).toContain(`│ request  │ ${file}:1#/log/entries/1 │`);
  });

  it('a pointer no call event of the line has: says where the line\'s calls are', async () => {
    const file = oneLineHar();
    const r = await runCli(['trace', `${file}:1#/log/entries/9`, '--profile', 'har']);
    expect(r.stdout.trim()).toBe(`No call at ${file}:1#/log/entries/9: the line's call events are at /log/entries/0, /log/entries/1, /log/entries/2.`);
  });

  it('a pointer on a JSONL line whose call is the line itself: says the line has no pointer, not "unparsed"', async () => {
    const r = await runCli(['trace', 'fixtures/seed-trace.jsonl:2#/x']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(
      'No call at fixtures/seed-trace.jsonl:2#/x: the line is one record, read whole, and its call events have no JSON pointer (a pointer picks one of several records a line holds: a HAR entry, a custom records path); trace fixtures/seed-trace.jsonl:2.',
    );
    const json = JSON.parse((await runCli(['trace', 'fixtures/seed-trace.jsonl:2#/x', '-f', 'json'])).stdout);
    expect(json.calls).toEqual([]);
    expect(json.line).toEqual({ state: 'pointer', kind: null, profile: 'amplifier', pointers: [] });
  });

  it('a pointer on a line with no call describes the line as PATH:LINE does (parsed: read, not unparsed)', async () => {
    for (const extra of [[], ['--validate-all']]) {
      for (const n of [1, 8, 99]) {
        const plain = JSON.parse((await runCli(['trace', `fixtures/seed-trace.jsonl:${n}`, '-f', 'json', ...extra])).stdout);
        const pointed = JSON.parse((await runCli(['trace', `fixtures/seed-trace.jsonl:${n}#/x`, '-f', 'json', ...extra])).stdout);
        expect(pointed.line, `${n} ${extra.join(' ')}`).toEqual(plain.line);
      }
    }
    const read = await runCli(['trace', 'fixtures/seed-trace.jsonl:8#/data', '--validate-all']);
    expect(read.stdout.trim()).toBe('No call at fixtures/seed-trace.jsonl:8#/data: the line was parsed and ignored by profile amplifier: its record (event "tool:pre") is no request, interim or terminal of a channel.');
  });
});

describe('trace PATH:LINE: a line counts from 1, up to 2^53 - 1', () => {
  const RULE = 'give PATH:LINE or PATH:LINE#/json/pointer, LINE a whole number from 1 to 9007199254740991';
  it('line 0, a line past 2^53 - 1 and a line that is no number: exit 2, one line echoing the target, escaped', async () => {
    const cases: [string, string][] = [
      ['fixtures/seed-trace.jsonl:0', 'line 0: lines count from 1'],
      ['fixtures/seed-trace.jsonl:0#/log/entries/0', 'line 0: lines count from 1'],
      ['fixtures/seed-trace.jsonl:99999999999999999999', 'line 99999999999999999999 is too large'],
      ['fixtures/seed-trace.jsonl:-3', '"-3" is not a line number'],
    ];
    const runs = cases.map(([t, why]) => ({ t, why, run: runCli(['trace', t]) }));
    for (const { t, why, run } of runs) {
      const r = await run;
      expect(r.code, t).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`callpair: trace: ${t}: ${why}; ${RULE}\n`);
    }
    const esc = await runCli(['trace', 'fixtures/seed-trace.jsonl:\u001b[2J\u009b0m', 'fixtures/seed-trace.jsonl']);
    expect(esc.code).toBe(2);
    expect(esc.stderr).toBe(`callpair: trace: fixtures/seed-trace.jsonl:\\x1b[2J\\x9b0m: "\\x1b[2J\\x9b0m" is not a line number; ${RULE}\n`);
  });
});

describe('trace PATH:LINE whose file is not among the inputs', () => {
  it('exit 2 saying so (it read "skipped without JSON.parse", a line it had never read)', async () => {
    const r = await runCli(['trace', 'fixtures/seed-trace.jsonl:5', 'fixtures/orphan-crossed.jsonl']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('callpair: trace: fixtures/seed-trace.jsonl is not among the inputs read: give it as an input too (or no inputs: they default to it)\n');
    // Given too, it is read and traced.
    const ok = await runCli(['trace', 'fixtures/seed-trace.jsonl:5', 'fixtures/orphan-crossed.jsonl', 'fixtures/seed-trace.jsonl']);
    expect(ok.code).toBe(0);
  });
});
