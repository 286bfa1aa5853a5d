/**
 * An Assay run says what its delivery audit found in one plain line, in the terminal and Markdown
 * summaries, as a GitHub annotation and as a JUnit suite property: verified, could not verify
 * (with its causes), or violated; and the finding messages are never cut with `--wide` or in a
 * pipe (docs/assay.md).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { analyze } from '../src/analyze.js';
import { table } from '../src/formatters/table.js';
import { markdown } from '../src/formatters/markdown.js';
import { github } from '../src/formatters/github.js';
import { junit } from '../src/formatters/junit.js';
import { annotations, fixture, runCli, tmpDir, writeCapture } from './helpers.js';

const ctx = { chalk: new Chalk({ level: 0 }), cwd: process.cwd() };
const lines = (name: string) => readFileSync(fixture(name), 'utf8').trim().split('\n');
const views = async (opts: Parameters<typeof analyze>[0]) => {
  const report = await analyze(opts);
  return { report, table: table.render(report, ctx), markdown: markdown.render(report, ctx), github: github.render(report, ctx), junit: junit.render(report, ctx) };
};

const verdictAnnotation = (out: string) => annotations(out).filter((a) => a.props.title === 'callpair delivery audit');

/** The JUnit reader CI dashboards use: each suite's properties are its metadata. */
const { parse: readJunit } = createRequire(import.meta.url)('test-results-parser') as { parse(o: { type: string; files: string[] }): { suites: Array<{ metadata: Record<string, string> }> } };
const junitVerdicts = (xml: string) => {
  const file = path.join(tmpDir(), 'callpair.junit.xml');
  writeFileSync(file, xml);
  return readJunit({ type: 'junit', files: [file] }).suites.map((s) => s.metadata['delivery-audit']);
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
    expect(verdictAnnotation(v.github)).toEqual([{ level: 'notice', props: { title: 'callpair delivery audit' }, message: line }]);
    expect(junitVerdicts(v.junit)).toEqual([line, line]);
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
    expect(verdictAnnotation(v.github).map((a) => [a.level, a.message])).toEqual([['error', 'delivery audit: could not verify — 1 DUPLICATE_KEY']]);
  });

  it('a denied call that reached the upstream: violated, with the codes counted', async () => {
    const v = await views({ inputs: [fixture('assay/run-ids.decisions.ndjson')], caller: [fixture('assay/run-ids.caller.jsonl')], upstream: [fixture('assay/run-ids.upstream.jsonl')] });
    const line = 'delivery audit: violated (1 DENIED_BUT_DELIVERED, 1 UNRECORDED_DELIVERY)';
    expect(v.table.split('\n')).toContain(line);
    expect(v.markdown.replace(/\\_/g, '_').split('\n')).toContain(line);
    expect(verdictAnnotation(v.github)).toEqual([{ level: 'error', props: { title: 'callpair delivery audit' }, message: line }]);
    // After the failed gate check, before the findings: never held back by the 10-per-level cap.
    expect(annotations(v.github).findIndex((a) => a.props.title === 'callpair delivery audit')).toBe(1);
    expect(new Set(junitVerdicts(v.junit))).toEqual(new Set([line]));
  });

  it('a deny record with no id and no caller log: could not verify, naming DELIVERY_UNVERIFIED and its cause', async () => {
    const dir = tmpDir();
    const v = await views({ inputs: [writeCapture([denyWithoutId()], 'd.ndjson', dir)], upstream: [writeCapture([INIT], 'u.jsonl', dir)] });
    expect(v.report.gate.passed).toBe(false);
    const line = 'delivery audit: could not verify — 1 DELIVERY_UNVERIFIED: deny-without-id';
    expect(v.table.split('\n')).toContain(line);
    expect(v.markdown.replace(/\\_/g, '_').split('\n')).toContain(line);
    expect(verdictAnnotation(v.github).map((a) => [a.level, a.message])).toEqual([['error', line]]);
    expect(new Set(junitVerdicts(v.junit))).toEqual(new Set([line]));
  });

  it('with --allow-unverified, could not verify is a warning annotation that says the gate does not count it', async () => {
    const dir = tmpDir();
    const v = await views({ inputs: [writeCapture([denyWithoutId()], 'd.ndjson', dir)], upstream: [writeCapture([INIT], 'u.jsonl', dir)], gate: { allowUnverified: true } });
    expect(verdictAnnotation(v.github).map((a) => [a.level, a.message])).toEqual([
      ['warning', 'delivery audit: could not verify — 1 DELIVERY_UNVERIFIED: deny-without-id; not counted by the gate: --allow-unverified'],
    ]);
  });

  it('with no upstream log: not evaluated, a warning in every view naming the missing --upstream; the gate passes', async () => {
    const line = 'delivery audit: not evaluated — no --upstream log: decision records and a caller log cannot show what reached the upstream';
    for (const opts of [{ inputs: [fixture('assay/contract.v0.ndjson')] }, { inputs: [fixture('assay/run-ids.decisions.ndjson')], caller: [fixture('assay/run-ids.caller.jsonl')] }]) {
      const v = await views(opts);
      expect(v.report.gate.passed).toBe(true);
      expect(v.table.split('\n')).toContain(`warning: ${line}`);
      expect(v.markdown.replace(/\\_/g, '_').replace(/\\-/g, '-').split('\n')).toContain(`⚠️ warning: ${line}`);
      expect(verdictAnnotation(v.github).map((a) => [a.level, a.message])).toEqual([['warning', line]]);
      expect(new Set(junitVerdicts(v.junit))).toEqual(new Set([line]));
    }
  });

  it('decisions and a caller log without --upstream, -f github: a ::warning annotation, exit 0', async () => {
    const r = await runCli(['analyze', fixture('assay/run-ids.decisions.ndjson'), '--caller', fixture('assay/run-ids.caller.jsonl'), '-f', 'github']);
    expect(r.code).toBe(0);
    expect(verdictAnnotation(r.stdout).map((a) => a.level)).toEqual(['warning']);
    expect(r.stdout).not.toMatch(/^::notice title=callpair delivery audit/m);
  });

  it('a run with no Assay records has no verdict in any view', async () => {
    const v = await views({ inputs: [fixture('seed-trace.jsonl')] });
    expect(v.table + v.markdown + v.github + v.junit).not.toContain('delivery audit');
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
