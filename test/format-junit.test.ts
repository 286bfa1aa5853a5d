import { describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { amp, analyzeLines, resetClock, tmpDir, writeCapture } from './helpers.js';
import { analyze } from '../src/analyze.js';
import { renderJunit } from '../src/formatters/junit.js';

const parse = (xml: string) => {
  expect(XMLValidator.validate(xml)).toBe(true);
  return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) }).parse(xml);
};

describe('junit', () => {
  it('one testsuite per capture, one testcase per check, failures listing offenders as path:line; parses', async () => {
    resetClock();
    const lines = [
      amp({ event: 'llm:request', id: 'r1', provider: 'p', model: 'm', caller: 'main' }),
      amp({ event: 'llm:request', id: 'r2', provider: 'p', model: 'm', caller: '<evil>&"\u0000\u001b[2J' }),
      amp({ event: 'llm:response', id: 'r1', provider: 'p', model: 'm', caller: 'main', status: 'ok' }),
    ];
    const report = await analyzeLines(lines, { gate: { maxOrphanRequests: 0, minIdCoverage: 1, maxAmbiguous: 5 } });
    const xml = renderJunit(report);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    const doc = parse(xml);
    const suites = doc.testsuites.testsuite;
    expect(suites).toHaveLength(1);
    expect(suites[0]['@name']).toBe(report.inputs[0]!.path);
    const cases = suites[0].testcase;
    expect(cases.map((c: Record<string, string>) => c['@name'])).toEqual(['error-findings', 'max-orphan-requests', 'max-ambiguous', 'min-id-coverage']);
    const orphan = cases[1];
    expect(orphan.failure['@message']).toBe('orphan requests over limit: 1 > 0');
    expect(orphan.failure['#text']).toContain(`${report.inputs[0]!.path}:2 ORPHAN_REQUEST request from <evil>&"`);
    expect(cases[0].failure).toBeUndefined();
    expect(cases[2].failure).toBeUndefined();
    expect(suites[0]['@tests']).toBe('4');
    expect(suites[0]['@failures']).toBe('1');
    expect(doc.testsuites['@failures']).toBe('1');
  });

  it('a failed check with no located offender fails in every capture', async () => {
    resetClock();
    const report = await analyzeLines([amp({ event: 'llm:request', provider: 'p', model: 'm' }), amp({ event: 'llm:response', provider: 'p', model: 'm', status: 'ok' })], {
      gate: { minIdCoverage: 0.5 },
    });
    const doc = parse(renderJunit(report));
    const c = doc.testsuites.testsuite[0].testcase.find((t: Record<string, string>) => t['@name'] === 'min-id-coverage');
    expect(c.failure['@message']).toContain('correlation-id coverage below limit: 0 < 0.5');
  });

  it('with two captures, a check fails only in the capture holding its offenders', async () => {
    resetClock();
    const dir = tmpDir();
    const a = writeCapture([amp({ event: 'llm:request', id: 'a1', provider: 'p', model: 'm' }), amp({ event: 'llm:response', id: 'a1', provider: 'p', model: 'm', status: 'ok' })], 'a.jsonl', dir);
    const b = writeCapture([amp({ event: 'llm:request', session: 'S2', id: 'b1', provider: 'p', model: 'm' })], 'b.jsonl', dir);
    const report = await analyze({ inputs: [a, b], gate: { maxOrphanRequests: 0 } });
    const doc = parse(renderJunit(report));
    const suites = doc.testsuites.testsuite as Array<Record<string, unknown> & { testcase: Array<Record<string, unknown>> }>;
    expect(suites.map((s) => [s['@name'], s['@failures']])).toEqual([
      [a, '0'],
      [b, '1'],
    ]);
    expect((suites[1]!.testcase[1]!.failure as Record<string, string>)['#text']).toBe(`${b}:1 ORPHAN_REQUEST request from main never closed (0.00 ms before the end of its scope)`);
  });
});

/** A real JUnit reader: what CI dashboards use to read the file. */
const { parse: readJunit } = createRequire(import.meta.url)('test-results-parser') as { parse(o: { type: string; files: string[] }): JunitResult };

describe('junit in a JUnit reader (test-results-parser)', () => {
  it('every suite and case has a duration (no NaN) and each capture and channel its own classname', async () => {
    const dir = tmpDir();
    resetClock();
    const files = ['a.jsonl', 'b.jsonl', 'c.jsonl'].map((name) => writeCapture([amp({ event: 'llm:request', id: `r-${name}`, provider: 'p', model: 'm', caller: 'main' })], name, dir));
    const report = await analyze({ inputs: files, gate: { maxOrphanRequests: 0, maxAmbiguous: 5 } });
    const file = path.join(dir, 'callpair.junit.xml');
    writeFileSync(file, renderJunit(report));
    const result = readJunit({ type: 'junit', files: [file] });
    expect(result.total).toBe(9);
    expect(result.failed).toBe(3);
    expect(Number.isNaN(result.duration)).toBe(false);
    for (const s of result.suites) {
      expect(Number.isNaN(s.duration), s.name).toBe(false);
      for (const c of s.cases) expect(Number.isNaN(c.duration), `${s.name} ${c.name}`).toBe(false);
    }
    const doc = parse(renderJunit(report));
    const keys = doc.testsuites.testsuite.flatMap((s: { testcase: Array<Record<string, string>> }) => s.testcase.map((c) => `${c['@classname']} ${c['@name']}`));
    expect(new Set(keys).size, 'classname + name tells every case apart').toBe(keys.length);
    expect(doc.testsuites.testsuite[0].testcase[0]['@classname']).toBe(`callpair.${files[0]}.llm`);
  });

  it('a failing finding of a channel with no events (an Assay run with an empty upstream log) fails a case of its own, as the gate does', async () => {
    const dir = tmpDir();
    const upstream = path.join(dir, 'upstream.jsonl');
    writeFileSync(upstream, '');
    const report = await analyze({ inputs: [path.resolve('fixtures/assay/run-ids.decisions.ndjson')], caller: [path.resolve('fixtures/assay/run-ids.caller.jsonl')], upstream: [upstream] });
    expect(report.gate.passed).toBe(false);
    expect(report.findingCounts.DELIVERY_UNVERIFIED).toBeGreaterThan(0);
    const file = path.join(dir, 'callpair.junit.xml');
    writeFileSync(file, renderJunit(report));
    const result = readJunit({ type: 'junit', files: [file] });
    expect(result.failed).toBeGreaterThanOrEqual(1);
  });

  it('120 cases over 40 captures: each capture and channel has its own classname, every case a distinct key and a duration', async () => {
    const dir = tmpDir();
    resetClock();
    const files = Array.from({ length: 40 }, (_, i) => writeCapture([amp({ event: 'llm:request', session: `S${i}`, id: `r${i}`, provider: 'p', model: 'm' })], `cap-${i}.jsonl`, dir));
    const report = await analyze({ inputs: files, gate: { maxOrphanRequests: 0, maxAmbiguous: 5 } });
    const file = path.join(dir, 'forty.junit.xml');
    writeFileSync(file, renderJunit(report));
    const result = readJunit({ type: 'junit', files: [file] });
    expect(result.total).toBe(120);
    expect(result.failed).toBe(40);
    expect(result.suites.flatMap((s) => s.cases.map((c) => c.duration))).toEqual(Array(120).fill(0));
    const doc = parse(renderJunit(report));
    const cases = doc.testsuites.testsuite.flatMap((s: { testcase: Array<Record<string, string>> }) => s.testcase);
    expect(new Set(cases.map((c: Record<string, string>) => `${c['@classname']} ${c['@name']}`)).size).toBe(120);
    expect(new Set(cases.map((c: Record<string, string>) => c['@classname']))).toEqual(new Set(files.map((f) => `callpair.${f}.llm`)));
  });

  it('a capture holding two channels has a case per check and channel; a check fails only in the channel of its offender', async () => {
    const dir = tmpDir();
    resetClock();
    const llm = writeCapture([amp({ event: 'llm:request', id: 'r1', provider: 'p', model: 'm' }), amp({ event: 'llm:response', id: 'r1', provider: 'p', model: 'm', status: 'ok' })], 'llm.jsonl', dir);
    const rpc = writeCapture([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } }], 'rpc.jsonl', dir);
    const report = await analyze({ inputs: [llm, rpc], gate: { maxOrphanRequests: 0 } });
    const channels = report.channels.map((c) => c.channel);
    expect(channels).toEqual(['llm', 'jsonrpc']);
    const doc = parse(renderJunit(report));
    const rows = doc.testsuites.testsuite.flatMap((s: { testcase: Array<Record<string, unknown>> }) => s.testcase.map((c) => [c['@classname'], c['@name'], c.failure ? 'failed' : 'passed']));
    expect(rows).toEqual([
      [`callpair.${llm}.llm`, 'error-findings', 'passed'],
      [`callpair.${llm}.llm`, 'max-orphan-requests', 'passed'],
      [`callpair.${llm}.jsonrpc`, 'error-findings', 'passed'],
      [`callpair.${llm}.jsonrpc`, 'max-orphan-requests', 'passed'],
      [`callpair.${rpc}.llm`, 'error-findings', 'passed'],
      [`callpair.${rpc}.llm`, 'max-orphan-requests', 'passed'],
      [`callpair.${rpc}.jsonrpc`, 'error-findings', 'passed'],
      [`callpair.${rpc}.jsonrpc`, 'max-orphan-requests', 'failed'],
    ]);
  });
});

interface JunitResult {
  total: number;
  failed: number;
  duration: number;
  suites: Array<{ name: string; duration: number; cases: Array<{ name: string; duration: number }> }>;
}
