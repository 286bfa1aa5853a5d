/**
 * An Assay run says what its delivery audit found in one plain line, in the terminal and Markdown
 * summaries: verified, could not verify (with its causes), or violated; and the finding messages
 * are never cut with `--wide` or in a pipe (docs/assay.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { analyze } from '../src/analyze.js';
import { table } from '../src/formatters/table.js';
import { markdown } from '../src/formatters/markdown.js';
import { fixture, runCli, tmpDir, writeCapture } from './helpers.js';

const ctx = { chalk: new Chalk({ level: 0 }), cwd: process.cwd() };
const lines = (name: string) => readFileSync(fixture(name), 'utf8').trim().split('\n');
const views = async (opts: Parameters<typeof analyze>[0]) => {
  const report = await analyze(opts);
  return { report, table: table.render(report, ctx), markdown: markdown.render(report, ctx) };
};
const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}';
const denyWithoutId = () => {
  const { correlation_id: _c, ...deny } = JSON.parse(lines('assay/run-ids.decisions.ndjson').find((l) => l.includes('"decision":"deny"'))!) as Record<string, unknown>;
  return deny;
};

describe('the delivery audit verdict line', () => {
  it('a passing audit says verified, with the records and upstream calls it checked', async () => {
    const dir = tmpDir();
    const decisions = writeCapture([lines('assay/run-ids.decisions.ndjson')[0]!], 'd.ndjson', dir);
    const upstream = writeCapture([INIT, lines('assay/run-ids.upstream.jsonl')[4]!], 'u.jsonl', dir);
    const v = await views({ inputs: [decisions], upstream: [upstream] });
    expect(v.report.gate.passed).toBe(true);
    const line = 'delivery audit: verified (0 deny and 1 allow record(s) against 1 upstream call(s))';
    expect(v.table.split('\n')).toContain(line);
    expect(v.markdown.split('\n')).toContain(line);
  });

  it('an upstream line holding its method twice (DUPLICATE_KEY): could not verify, never verified above a failing gate', async () => {
    const dir = tmpDir();
    const decisions = writeCapture([lines('assay/run-ids.decisions.ndjson')[0]!], 'd.ndjson', dir);
    const call = JSON.parse(lines('assay/run-ids.upstream.jsonl')[4]!) as Record<string, unknown>;
    const twice = JSON.stringify(call).replace('"method":"tools/call"', '"method":"tools/call","method":"tools/list"');
    expect(twice).not.toBe(JSON.stringify(call));
    const upstream = writeCapture([INIT, JSON.stringify(call), twice], 'u.jsonl', dir);
    const v = await views({ inputs: [decisions], upstream: [upstream] });
    expect(v.report.findingCounts.DUPLICATE_KEY).toBe(1);
    expect(v.report.gate.passed).toBe(false);
    expect(v.table).toContain('delivery audit: could not verify');
    expect(v.table).not.toContain('delivery audit: verified');
  });

  it('a denied call that reached the upstream: violated, with the codes counted', async () => {
    const v = await views({ inputs: [fixture('assay/run-ids.decisions.ndjson')], caller: [fixture('assay/run-ids.caller.jsonl')], upstream: [fixture('assay/run-ids.upstream.jsonl')] });
    const line = 'delivery audit: violated (1 DENIED_BUT_DELIVERED, 1 UNRECORDED_DELIVERY)';
    expect(v.table.split('\n')).toContain(line);
    expect(v.markdown.replace(/\\_/g, '_').split('\n')).toContain(line);
  });

  it('a deny record with no id and no caller log: could not verify, naming DELIVERY_UNVERIFIED and its cause', async () => {
    const dir = tmpDir();
    const v = await views({ inputs: [writeCapture([denyWithoutId()], 'd.ndjson', dir)], upstream: [writeCapture([INIT], 'u.jsonl', dir)] });
    expect(v.report.gate.passed).toBe(false);
    const line = 'delivery audit: could not verify — 1 DELIVERY_UNVERIFIED: deny-without-id';
    expect(v.table.split('\n')).toContain(line);
    expect(v.markdown.replace(/\\_/g, '_').split('\n')).toContain(line);
  });

  it('with no upstream log: not evaluated', async () => {
    const v = await views({ inputs: [fixture('assay/contract.v0.ndjson')] });
    expect(v.table).toContain('delivery audit: not evaluated (no --upstream log)');
  });
});

describe('DELIVERY_UNVERIFIED messages are whole with --wide and in a pipe', () => {
  it('the message ends "their delivery cannot be checked" with --wide at 80 columns and with no COLUMNS', async () => {
    const dir = tmpDir();
    const args = ['analyze', '--profile', 'assay', writeCapture([denyWithoutId()], 'd.ndjson', dir), '--upstream', writeCapture([INIT], 'u.jsonl', dir)];
    for (const [extra, env] of [[['--wide'], { COLUMNS: '80' }], [[], {}]] as const) {
      const r = await runCli([...args, ...extra], { env: { ...env } });
      expect(r.stdout).toContain('no caller log to chain one from: their delivery cannot be checked');
      expect(r.stdout).not.toContain('chars]');
    }
  });
});
