import { describe, expect, it } from 'vitest';
import { multitoolFindings, sarifValidator } from './sarif-validator.js';
import { amp, fixture, resetClock, ROOT, tmpDir, writeCapture } from './helpers.js';
import { analyze } from '../src/analyze.js';
import { buildSarif, FINGERPRINT_KEY, SARIF_MAX_RESULTS, sarif } from '../src/formatters/sarif.js';
import { compareReports } from '../src/merge/diff.js';
import { Chalk } from 'chalk';
import path from 'node:path';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { PROJECT_URL } from '../src/version.js';

/** The part of a SARIF log these tests read. */
interface SarifDoc {
  runs: Array<{ results: Array<{ locations?: Array<{ physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }> }> }>;
}

const ctx = (cwd: string) => ({ chalk: new Chalk({ level: 0 }), cwd });

describe('sarif', () => {
  it('validates against the SARIF 2.1.0 schema, with one namespaced rule per code and relative URIs', async () => {
    const report = await analyze({ inputs: [fixture('orphan-crossed.jsonl')], gate: { maxOrphanRequests: 0 } });
    const text = sarif.render(report, ctx(path.dirname(fixture('x'))));
    const doc = JSON.parse(text);
    const validate = sarifValidator();
    expect(validate(doc), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const run = doc.runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toContain('callpair/ORPHAN_REQUEST');
    const orphan = run.results.find((r: { ruleId: string }) => r.ruleId === 'callpair/ORPHAN_REQUEST');
    expect(orphan.level).toBe('warning');
    expect(run.tool.driver.rules[orphan.ruleIndex].id).toBe('callpair/ORPHAN_REQUEST');
    expect(orphan.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'orphan-crossed.jsonl', uriBaseId: '%SRCROOT%' },
      region: { startLine: 6 },
    });
    expect(run.invocations[0].toolExecutionNotifications[0].descriptor.id).toBe('gate/max-orphan-requests');
  });

  it('validates with hostile strings and an invalid id, and percent-encodes path segments', async () => {
    resetClock();
    const dir = tmpDir();
    const file = writeCapture([amp({ event: 'llm:request', id: 'bad id \u001b[31m', provider: 'p\u202e', model: 'm', caller: '<x> "y" \u0085' })], 'a b#c%.jsonl', dir);
    const report = await analyze({ inputs: [file] });
    const doc = buildSarif(report, dir) as unknown as SarifDoc;
    const validate = sarifValidator();
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const uris = doc.runs[0]!.results.map((r) => r.locations![0]!.physicalLocation.artifactLocation.uri);
    expect(uris).toContain('a%20b%23c%25.jsonl');
    const text = sarif.render(report, ctx(dir));
    expect(text).not.toContain('bad id');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('the validator does reject a broken log (it is not vacuous)', () => {
    const validate = sarifValidator();
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ level: 'fatal', message: { text: 'm' } }] }] })).toBe(false);
    expect(validate({ version: '2.0.0', runs: [] })).toBe(false);
  });

  it('keeps partialFingerprints stable across runs and working directories, distinct per finding', async () => {
    // The same capture named by an absolute and by a relative path gives the same relative URI.
    const a = buildSarif(await analyze({ inputs: [fixture('orphan-crossed.jsonl')] }), ROOT);
    const b = buildSarif(await analyze({ inputs: [path.relative(process.cwd(), fixture('orphan-crossed.jsonl'))] }), process.cwd());
    const fa = a.runs[0]!.results.map((r) => (r.partialFingerprints as Record<string, string>)[FINGERPRINT_KEY]);
    const fb = b.runs[0]!.results.map((r) => (r.partialFingerprints as Record<string, string>)[FINGERPRINT_KEY]);
    expect(fa).toEqual(fb);
    expect(new Set(fa).size).toBe(fa.length);
  });

  it('reaches a capture outside the working directory by a relative URI with `..` (no absolute path in the log)', async () => {
    const cwd = path.join(ROOT, 'src');
    const doc = buildSarif(await analyze({ inputs: [fixture('orphan-crossed.jsonl')] }), cwd) as unknown as SarifDoc;
    const loc = doc.runs[0]!.results[0]!.locations![0]!.physicalLocation.artifactLocation as { uri: string; uriBaseId?: string };
    expect(loc).toEqual({ uri: '../fixtures/orphan-crossed.jsonl', uriBaseId: '%SRCROOT%' });
    expect(JSON.stringify(doc)).not.toContain(ROOT);
    expect(sarifValidator()(doc)).toBe(true);
  });

  it('an unchanged finding keeps its fingerprint when a line is inserted at the top of its capture, as --baseline calls it unchanged', async () => {
    const dir = tmpDir();
    const original = readFileSync(fixture('orphan-crossed.jsonl'), 'utf8');
    const before = path.join(dir, 'before', 'capture.jsonl');
    const after = path.join(dir, 'after', 'capture.jsonl');
    mkdirSync(path.dirname(before));
    mkdirSync(path.dirname(after));
    writeFileSync(before, original);
    writeFileSync(after, `{"note": "a line added at the top"}\n${original}`);
    const baseReport = await analyze({ inputs: [before] });
    const headReport = await analyze({ inputs: [after] });
    const b = compareReports(baseReport, headReport);
    expect(baseReport.findings.length).toBeGreaterThan(1);
    expect(b.counts.unchanged).toBe(baseReport.findings.length);
    expect(headReport.findings.map((f) => f.locations[0]!.line)).not.toEqual(baseReport.findings.map((f) => f.locations[0]!.line));
    // Each SARIF log relative to its own directory: the same URI, capture.jsonl, in both.
    const prints = (r: typeof baseReport, cwd: string) => buildSarif(r, cwd).runs[0]!.results.map((x) => (x.partialFingerprints as Record<string, string>)[FINGERPRINT_KEY]);
    const pb = prints(baseReport, path.dirname(before));
    const ph = prints(headReport, path.dirname(after));
    expect(ph.filter((p, i) => b.states[i] === 'unchanged')).toEqual(pb);
    expect(new Set(pb).size).toBe(pb.length);
  });

  it("passes Microsoft's SARIF validator with the GitHub rule set: help on every rule, informationUri, no finding", async ({ skip }) => {
    const report = await analyze({ inputs: [fixture('orphan-crossed.jsonl'), fixture('seed-trace.jsonl')], gate: { maxOrphanRequests: 0 } });
    const doc = buildSarif(report, path.join(ROOT, 'src'));
    // The validator does catch what GitHub refuses (a check of the check): a rule with no help, no informationUri.
    const bare = JSON.parse(JSON.stringify(doc)) as { runs: Array<{ tool: { driver: { rules: Array<Record<string, unknown>>; informationUri?: string } } }> };
    delete bare.runs[0]!.tool.driver.rules[0]!.help;
    delete bare.runs[0]!.tool.driver.informationUri;
    const found = multitoolFindings(doc, bare);
    if (found === null) return skip('the SARIF Multitool runs on Linux x64 only');
    expect(found[0]).toEqual([]);
    expect(found[1]!.map((l) => l.split(':')[0]).sort()).toEqual(['GH2012', 'SARIF2005']);
  }, 60_000);

  it('every rule has help text and markdown and a helpUri; the driver an informationUri', async () => {
    const doc = buildSarif(await analyze({ inputs: [fixture('orphan-crossed.jsonl')] }), ROOT);
    const driver = doc.runs[0]!.tool.driver as { informationUri: string; rules: Array<{ id: string; help: { text: string; markdown: string }; helpUri: string }> };
    expect(driver.informationUri).toMatch(/^https:\/\//);
    for (const r of driver.rules) {
      expect(r.help.text.length, r.id).toBeGreaterThan(20);
      expect(r.help.markdown, r.id).toContain(r.id.replace('callpair/', ''));
      expect(r.helpUri, r.id).toMatch(/^https:\/\//);
    }
  });

  it("the driver's informationUri, every rule's helpUri and package.json's repository, homepage and bugs name the one project URL", async () => {
    const doc = buildSarif(await analyze({ inputs: [fixture('orphan-crossed.jsonl')] }), ROOT);
    const driver = doc.runs[0]!.tool.driver as { informationUri: string; rules: Array<{ helpUri: string }> };
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { homepage: string; repository: { url: string }; bugs: { url: string } };
    expect(driver.informationUri).toBe(PROJECT_URL);
    expect(pkg.homepage).toBe(`${PROJECT_URL}#readme`);
    expect(pkg.repository.url).toBe(`git+${PROJECT_URL}.git`);
    expect(pkg.bugs.url).toBe(`${PROJECT_URL}/issues`);
    // The help link's anchor is a heading of the README the project page shows.
    const anchors = readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').filter((l) => /^#+ /.test(l)).map((l) => '#' + l.replace(/^#+ /, '').toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-'));
    for (const r of driver.rules) {
      expect(r.helpUri.startsWith(`${PROJECT_URL}#`), r.helpUri).toBe(true);
      expect(anchors).toContain(r.helpUri.slice(PROJECT_URL.length));
    }
  });

  it('writes at most 25 000 results per run (GitHub code scanning) and says in the run how many it left out', async () => {
    expect(SARIF_MAX_RESULTS).toBe(25_000);
    const report = await analyze({ inputs: [fixture('orphan-crossed.jsonl')] });
    const doc = buildSarif(report, ROOT, 2);
    const run = doc.runs[0]!;
    expect(run.results).toHaveLength(2);
    expect(run.properties.resultsOmitted).toBe(report.findings.length - 2);
    const notes = run.invocations[0]!.toolExecutionNotifications as Array<{ descriptor: { id: string }; message: { text: string } }>;
    const note = notes.find((n) => n.descriptor.id === 'sarif/results-capped')!;
    expect(note.message.text).toContain(`${report.findings.length - 2} more results left out`);
    expect(sarifValidator()(doc)).toBe(true);
    expect(buildSarif(report, ROOT).runs[0]!.properties.resultsOmitted).toBe(0);
  });

  it('a finding without a file location (stdin) becomes a tool notification, not a result without location', async () => {
    const report = await analyze({ inputs: ['-'], stdin: Readable.from([readFileSync(fixture('orphan-crossed.jsonl'))]) });
    const doc = buildSarif(report, ROOT);
    expect(sarifValidator()(doc)).toBe(true);
    expect(doc.runs[0]!.results).toEqual([]);
    const notes = doc.runs[0]!.invocations[0]!.toolExecutionNotifications as Array<{ descriptor: { id: string }; message: { text: string } }>;
    expect(notes.map((n) => n.descriptor.id)).toEqual(['callpair/ORPHAN_REQUEST', 'callpair/ORPHAN_RESPONSE', 'callpair/CROSSED_PAIR', 'callpair/CROSSED_PAIR']);
    expect(notes[0]!.message.text).toMatch(/^ORPHAN_REQUEST: request from compactor never closed .* \(-:6\)$/);
  });
});
