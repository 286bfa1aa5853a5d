import { describe, expect, it } from 'vitest';
import { sarifValidator } from './sarif-validator.js';
import { amp, fixture, resetClock, ROOT, tmpDir, writeCapture } from './helpers.js';
import { analyze } from '../src/analyze.js';
import { buildSarif, FINGERPRINT_KEY, sarif } from '../src/formatters/sarif.js';
import { Chalk } from 'chalk';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';

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

  it('uses a file: URI for a capture outside the working directory', async () => {
    const doc = buildSarif(await analyze({ inputs: [fixture('orphan-crossed.jsonl')] }), '/nonexistent-dir') as unknown as SarifDoc;
    const loc = doc.runs[0]!.results[0]!.locations![0]!.physicalLocation.artifactLocation as { uri: string; uriBaseId?: string };
    expect(loc.uri).toMatch(/^file:\/\/\//);
    expect(loc.uriBaseId).toBeUndefined();
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
