/**
 * The CI contract through the built binary: gate options and exit codes (0 pass, 1 fail, 2 usage
 * or unreadable input), several reports from one pass, the step summary, and hostile captures in
 * every format.
 *
 * fixtures/orphan-crossed.jsonl is fixtures/seed-trace.jsonl plus a request that is never answered
 * (line 6, caller compactor) and a response whose id no request has (line 10): 1 orphan request,
 * 1 orphan response, 2 crossed pairs, no error findings.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { FORMAT_NAMES } from '../src/formatters/index.js';
import { amp, resetClock, ROOT, runCli, tmpDir, writeCapture } from './helpers.js';
import { sarifValidator } from './sarif-validator.js';

const ORPHANS = 'fixtures/orphan-crossed.jsonl';
const sarifUri = (file: string): string => JSON.parse(readFileSync(file, 'utf8')).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri;

describe('gate and exit codes', () => {
  it('--max-orphan-requests 0 exits 1 and names the check in every format', async () => {
    const runs = await Promise.all(FORMAT_NAMES.map((format) => runCli(['analyze', '--format', format, '--max-orphan-requests', '0', ORPHANS])));
    for (const [i, format] of FORMAT_NAMES.entries()) {
      const r = runs[i]!;
      expect(r.code, `${format}: ${r.stderr}`).toBe(1);
      expect(r.stdout, format).toContain('max-orphan-requests');
    }
  });

  it('without gate options and with no error findings it exits 0 (orphans and crossed pairs are warnings and notes)', async () => {
    const r = await runCli(['analyze', '--format', 'json', ORPHANS]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.findingCounts).toMatchObject({ ORPHAN_REQUEST: 1, ORPHAN_RESPONSE: 1, CROSSED_PAIR: 2 });
    expect(report.gate).toMatchObject({ passed: true, checks: [{ name: 'error-findings', passed: true }] });
  });

  it('a missing input exits 2', async () => {
    const r = await runCli(['analyze', '--max-orphan-requests', '0', 'fixtures/does-not-exist.jsonl']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it.each([
    [['--max-crossed-rate', '1.5'], /max-crossed-rate must be a number from 0 to 1/],
    [['--max-crossed-rate', 'abc'], /max-crossed-rate/],
    [['--min-id-coverage', '-0.1'], /min-id-coverage/],
    [['--max-orphan-requests', '-1'], /max-orphan-requests must be a whole number/],
    [['--max-orphan-requests', '2.5'], /max-orphan-requests/],
    [['--max-ambiguous', 'x'], /max-ambiguous/],
    [['--max-orphan-requests', '1', '--max-orphan-requests', '2'], /more than once/],
    [['--fail-on', 'ORPHAN_REQUEST,NOT_A_CODE'], /unknown code or severity "NOT_A_CODE"/],
    [['--report', 'yaml=out.yaml'], /unknown format "yaml"/],
    [['--report', 'json'], /FORMAT=FILE/],
    [['--report', 'json='], /FORMAT=FILE/],
    [['--report', 'json=x.json', '--report', 'sarif=./x.json'], /named twice/],
    [['--output', 'x.json', '--report', 'json=x.json'], /also a --report file/],
  ])('a bad gate or report option %j exits 2 with one line, before reading', async (args, msg) => {
    const r = await runCli(['analyze', ...args, ORPHANS]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(msg);
  });

  it('--fail-on adds codes and severities; --no-fail reports the failure but exits 0', async () => {
    expect((await runCli(['analyze', '--fail-on', 'orphan_response', ORPHANS])).code).toBe(1);
    expect((await runCli(['analyze', '--fail-on', 'note', ORPHANS])).code).toBe(1);
    expect((await runCli(['analyze', '--fail-on', 'DUPLICATE_ID', '--fail-on', 'error', ORPHANS])).code).toBe(0);
    const r = await runCli(['analyze', '--format', 'json', '--max-orphan-requests', '0', '--fail-on', 'warning', '--no-fail', ORPHANS]);
    expect(r.code).toBe(0);
    const gate = JSON.parse(r.stdout).gate;
    expect(gate.passed).toBe(false);
    expect(gate.enforced).toBe(false);
    expect(gate.checks.map((c: { name: string; passed: boolean }) => `${c.name} ${c.passed}`)).toEqual([
      'error-findings true',
      'fail-on:warning false',
      'max-orphan-requests false',
    ]);
    const md = await runCli(['analyze', '--format', 'markdown', '--max-orphan-requests', '0', '--no-fail', ORPHANS]);
    expect(md.stdout).toContain('not enforced');
  });

  it('rates and minima: --max-crossed-rate, --min-id-coverage, --max-ambiguous', async () => {
    const r = await runCli(['analyze', '--format', 'json', '--max-crossed-rate', '0.5', '--min-id-coverage', '1', '--max-ambiguous', '0', ORPHANS]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).gate.checks.slice(1)).toEqual([
      expect.objectContaining({ name: 'max-crossed-rate', limit: 0.5, actual: 0.666667, passed: false }),
      expect.objectContaining({ name: 'max-ambiguous', limit: 0, actual: 0, passed: true }),
      expect.objectContaining({ name: 'min-id-coverage', limit: 1, actual: 1, passed: true }),
    ]);
    expect((await runCli(['analyze', '--max-crossed-rate', '0.7', ORPHANS])).code).toBe(0);
  });
});

describe('several reports from one pass', () => {
  it('--report json/junit/sarif/markdown all come from one read of the capture', async () => {
    const dir = tmpDir();
    const f = (n: string) => path.join(dir, n);
    const capture = path.join(dir, 'capture.jsonl');
    writeFileSync(capture, readFileSync(ORPHANS));
    const r = await runCli(
      ['analyze', '--format', 'github', '--max-orphan-requests', '0', '--report', `json=${f('a.json')}`, '--report', `junit=${f('a.xml')}`, '--report', `sarif=${f('out/a.sarif')}`, '--report', `markdown=${f('a.md')}`, capture],
      { env: { NODE_OPTIONS: `--import=${path.join(ROOT, 'test', 'count-reads.mjs')}` }, cwd: dir },
    );
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('[read] '))).toEqual([`[read] ${capture}`]);
    expect(r.stdout).toContain('::error file=capture.jsonl,line=6,title=callpair gate%3A max-orphan-requests');
    const json = JSON.parse(readFileSync(f('a.json'), 'utf8'));
    expect(json.inputs).toHaveLength(1);
    expect(json.inputs[0]).toMatchObject({ path: capture, lines: 10 });
    expect(json.gate.passed).toBe(false);

    const xml = readFileSync(f('a.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(xml);
    expect(junit.testsuites.testsuite['@name']).toBe(capture);
    expect(junit.testsuites['@failures']).toBe('1');
    expect(xml).toContain(`${capture}:6 ORPHAN_REQUEST`);
    expect(sarifUri(f('out/a.sarif'))).toBe('capture.jsonl');

    const sarif = JSON.parse(readFileSync(f('out/a.sarif'), 'utf8'));
    const validate = sarifValidator();
    expect(validate(sarif), JSON.stringify(validate.errors)).toBe(true);
    expect(sarif.runs[0].results).toHaveLength(4);

    const md = readFileSync(f('a.md'), 'utf8');
    expect(md).toContain('❌ gate failed');
    expect(md).toContain('`max-orphan-requests`');
  });

  it('--output writes the main format to a file, stdout stays empty', async () => {
    const out = path.join(tmpDir(), 'r.sarif');
    const r = await runCli(['analyze', '--format', 'sarif', '--output', out, ORPHANS]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(sarifValidator()(JSON.parse(readFileSync(out, 'utf8')))).toBe(true);
  });

  it('--step-summary appends the Markdown to $GITHUB_STEP_SUMMARY, and says so when it is unset', async () => {
    const summary = path.join(tmpDir(), 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = await runCli(['analyze', '--step-summary', '--format', 'json', ORPHANS], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(0);
    const text = readFileSync(summary, 'utf8');
    expect(text.startsWith('# earlier step\n## callpair: ✅ gate passed')).toBe(true);
    const unset = await runCli(['analyze', '--step-summary', ORPHANS]);
    expect(unset.code).toBe(0);
    expect(unset.stderr).toContain('GITHUB_STEP_SUMMARY is not set');
    expect(existsSync(path.join(path.dirname(summary), 'nope'))).toBe(false);
  });
});

describe('hostile captures in every format', () => {
  it('no format contains an invalid id value or a raw control/bidi character', async () => {
    resetClock();
    const secretId = 'SECRETIDVALUE \u001b[31m\u202e with spaces';
    const hostile = '\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007 \u202eevil\u2066 <script>alert(1)</script> [x](http://e.example) | ** _u_ \u0085\u009b31m\r\n::error::x';
    const file = writeCapture([
      amp({ event: 'llm:request', session: `sess\u001b[1m\u200f`, id: secretId, provider: `prov\u001b[2J`, model: 'model\u202e\u0000', caller: hostile }),
      amp({ event: 'llm:request', session: `sess\u001b[1m\u200f`, id: 'ok-1', provider: 'p', model: 'm', caller: hostile }),
      amp({ event: 'llm:response', session: `sess\u001b[1m\u200f`, id: 'ok-2', provider: 'p', model: 'm', caller: hostile, status: 'ok' }),
      amp({ event: 'llm:request', session: 'S2', id: { nested: secretId }, provider: 'p', model: 'm' }),
    ]);
    const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
    const runs = await Promise.all(FORMAT_NAMES.map((format) => runCli(['analyze', '--format', format, '--max-orphan-requests', '0', '--fail-on', 'INVALID_ID', file])));
    for (const [i, format] of FORMAT_NAMES.entries()) {
      const r = runs[i]!;
      expect(r.code, `${format}: ${r.stderr}`).toBe(1);
      expect(r.stdout, format).not.toContain('SECRETIDVALUE');
      expect(r.stdout, format).not.toMatch(CONTROL);
      expect(r.stdout, format).toContain('INVALID_ID');
      if (format === 'markdown') {
        expect(r.stdout).not.toContain('<script>');
        expect(r.stdout).not.toMatch(/(?<!\\)\](?:\(|\\\()http/);
      }
      if (format === 'github') {
        for (const line of r.stdout.trimEnd().split('\n')) expect(line).toMatch(/^(::(error|warning|notice) [^\n]*::|callpair gate |callpair channels: )/);
      }
    }
  });
});
