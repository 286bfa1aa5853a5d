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
});
