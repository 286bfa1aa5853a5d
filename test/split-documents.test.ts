/**
 * A JSON document over --max-line-bytes read element by element (docs/inputs.md, "Large
 * documents"): valid, it gives the report reading it whole gives; not JSON as a whole, its records
 * fail closed (DOCUMENT_UNVERIFIED, an error, at path:line); and the report never depends on how
 * the bytes arrive (a plain file, its .gz, stdin).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { runCli, tmpDir } from './helpers.js';

interface Finding {
  code: string;
  severity: string;
  data: Record<string, unknown>;
  locations: Array<{ path: string; line: number; pointer?: string }>;
}
interface Report {
  run: unknown;
  inputs: Array<Record<string, unknown>>;
  totals: Record<string, unknown>;
  channels: Array<Record<string, unknown>>;
  findings: Finding[];
  findingCounts: Record<string, number>;
}

const entry = (k: number) => ({
  pageref: 'p1',
  startedDateTime: `2024-01-01T00:00:0${k % 10}.000Z`,
  time: 5 + k,
  request: { method: k % 2 ? 'GET' : 'POST', url: `https://a.test/${k}` },
  response: { status: k % 4 === 3 ? 500 : 200 },
});
const har = (n: number) => ({ log: { version: '1.2', creator: { name: 'x', version: '1' }, pages: [{ id: 'p1', title: 't' }], entries: Array.from({ length: n }, (_, k) => entry(k)), comment: 'end' } });

/** A custom profile reading requests and responses from `calls[]`, by id (docs/profiles.md). */
const PROFILE = { name: 'calls', records: 'calls[]', roles: [{ role: 'request', when: { path: 'kind', equals: 'req' } }, { role: 'terminal', when: { path: 'kind', equals: 'res' } }], id: 'id', scope: 'session', time: 'at' };
const call = (k: number, kind: 'req' | 'res') => ({ kind, id: `c${k}`, session: `s${k % 2}`, at: `2026-09-01T00:00:${String(k).padStart(2, '0')}.${kind === 'req' ? '000' : '250'}Z` });
/** Calls 0..n-1, each request then its response, except call 1 (never answered) and an answer to nothing. */
const calls = (n: number) => ({ session: 'top', calls: [...Array.from({ length: n }, (_, k) => (k === 1 ? [call(k, 'req')] : [call(k, 'req'), call(k, 'res')])).flat(), call(99, 'res')] });

/** `analyze` in this process (`args`: --profile, --max-line-bytes, --allow-empty, then one input); stdin arrives in 64 KiB chunks, as from a pipe. */
async function report(args: string[], stdin?: Buffer): Promise<{ code: number; r: Report }> {
  const at = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const chunks = stdin ? Array.from({ length: Math.ceil(stdin.length / 65536) }, (_, k) => stdin.subarray(k * 65536, (k + 1) * 65536)) : [];
  const r = await analyze({
    inputs: [args[args.length - 1]!],
    profile: at('--profile'),
    maxLineBytes: at('--max-line-bytes') === undefined ? undefined : Number(at('--max-line-bytes')),
    allowEmpty: args.includes('--allow-empty'),
    stdin: stdin ? Readable.from(chunks) : undefined,
  });
  const json = JSON.parse(JSON.stringify(r)) as Report & { gate: { passed: boolean } };
  return { code: json.gate.passed ? 0 : 1, r: json };
}

/** The report as JSON, the input's name (`file`, `file.gz`, `-`) and gzip flag put aside: what is read from it. */
function sameInput(r: Report, file: string): string {
  const names = new Set([file, `${file}.gz`, '-']);
  return JSON.stringify({ ...r, run: null, inputs: r.inputs.map((i) => ({ ...i, gzip: null })) }, (_k, v: unknown) => (typeof v === 'string' && names.has(v) ? 'INPUT' : v));
}

/** The report minus its run options, and minus the ledger's record counts: read whole a document is one record, split each element is. */
function comparable(r: Report): unknown {
  const counts = (o: Record<string, unknown>) => ({ ...o, records: null, used: null, ignored: null });
  return { ...r, run: null, inputs: r.inputs.map(counts), totals: counts(r.totals) };
}

describe('a valid document reads the same whole and element by element', () => {
  for (const [name, doc, args] of [
    ['a HAR (log.entries[])', har(12), ['--profile', 'har']],
    ['a custom profile (calls[])', calls(8), ['--profile', '@PROFILE']],
  ] as const) {
    it(`${name}, pretty and compact after its first line: the same report at a --max-line-bytes above its size and below it`, async () => {
      const dir = tmpDir();
      const profile = path.join(dir, 'calls.json');
      writeFileSync(profile, JSON.stringify(PROFILE));
      const a = args.map((x) => (x === '@PROFILE' ? profile : x));
      // A document on one line is a JSONL line (docs/inputs.md): these span lines.
      for (const [i, text] of [JSON.stringify(doc, null, 2), `{\n${JSON.stringify(doc).slice(1)}`].entries()) {
        const file = path.join(dir, `doc${i}.json`);
        writeFileSync(file, `${text}\n`);
        const size = Buffer.byteLength(text);
        const whole = await report([...a, '--max-line-bytes', String(size + 10), file]);
        const split = await report([...a, '--max-line-bytes', String(Math.floor(size / 3)), file]);
        expect(whole.r.inputs[0]!.records).toBe(1);
        expect(split.r.inputs[0]!.records).toBeGreaterThan(1); // read element by element
        expect(split.code).toBe(whole.code);
        expect(comparable(split.r)).toEqual(comparable(whole.r));
      }
    });
  }
});

describe('a document read element by element that JSON.parse rejects whole fails closed', () => {
  const pad = 'p'.repeat(3000);
  const E = JSON.stringify([entry(0), entry(1)]);
  // Each JSON.parse rejects; each element on its own is valid.
  const cases: Record<string, string> = {
    'a comma after the last element': `{\n"log": {"entries": ${E.slice(0, -1)},],\n"pad": "${pad}"}}`,
    'a comma before the first element': `{\n"log": {"entries": [,${E.slice(1)},\n"pad": "${pad}"}}`,
    'two commas between elements': `{\n"log": {"entries": ${E.replace('},{', '},,{')},\n"pad": "${pad}"}}`,
    '1.2.3 before the array': `{\n"log": {"version": 1.2.3, "entries": ${E},\n"pad": "${pad}"}}`,
    'tru before the array': `{\n"log": {"ok": tru, "entries": ${E},\n"pad": "${pad}"}}`,
    'a missing colon after the array': `{\n"log": {"entries": ${E},\n"pad" "${pad}"}}`,
    'a bad escape after the array': `{\n"log": {"entries": ${E},\n"pad": "${pad}\\x"}}`,
    'a raw tab in a string after the array': `{\n"log": {"entries": ${E},\n"pad": "${pad}\t"}}`,
    'an outer object never closed': `{\n"log": {"entries": ${E},\n"pad": "${pad}"}`,
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`${name}: DOCUMENT_UNVERIFIED (error) at path:1, exit 1, the same as a .gz or stdin; read whole, it is one malformed record`, async () => {
      expect(() => JSON.parse(text)).toThrow();
      const dir = tmpDir();
      const file = path.join(dir, 'doc.har');
      writeFileSync(file, `${text}\n`);
      writeFileSync(`${file}.gz`, gzipSync(readFileSync(file)));
      const args = ['--profile', 'har', '--max-line-bytes', '1024'];
      const runs = [await report([...args, file]), await report([...args, `${file}.gz`]), await report([...args, '-'], readFileSync(file))];
      for (const { code, r } of runs) {
        expect(code).toBe(1);
        const un = r.findings.filter((f) => f.code === 'DOCUMENT_UNVERIFIED');
        expect(un.map((f) => [f.severity, f.data.reason, f.data.records, f.locations[0]!.line])).toEqual([['error', name.includes('never closed') ? 'truncated' : 'invalid-json', 2, 1]]);
        expect(un[0]!.data.limit).toBe(1024);
      }
      expect(sameInput(runs[1]!.r, file)).toBe(sameInput(runs[0]!.r, file));
      expect(sameInput(runs[2]!.r, file)).toBe(sameInput(runs[0]!.r, file));
      if (name === 'a comma after the last element') {
        // The binary: exit 1, the finding at path:line on stderr's gate line.
        const cli = await runCli(['analyze', '--profile', 'har', '--max-line-bytes', '1024', file]);
        expect(cli.code).toBe(1);
        expect(cli.stdout).toContain(`${file}:1`);
        expect(cli.stdout).toContain('DOCUMENT_UNVERIFIED');
      }
      const whole = await report(['--profile', 'har', '--allow-empty', file]);
      expect(whole.r.inputs[0]).toMatchObject({ records: 0, malformed: 1 });
      expect(whole.r.findings.filter((f) => f.severity !== 'error').map((f) => [f.code, f.locations[0]!.line])).toEqual([['MALFORMED_LINE', 1], ['UNMATCHED_INPUT', 1]]);
    });
  }

  it('an element that is no JSON: MALFORMED_LINE at its line and DOCUMENT_UNVERIFIED at the document', async () => {
    const file = path.join(tmpDir(), 'doc.har');
    writeFileSync(file, `{\n"log": {"entries": [\n${JSON.stringify(entry(0))},\n{"request": tru}],\n"pad": "${pad}"}}\n`);
    const { code, r } = await report(['--profile', 'har', '--max-line-bytes', '1024', file]);
    expect(code).toBe(1);
    expect(r.findings.map((f) => [f.code, f.locations[0]!.line])).toEqual([
      ['DOCUMENT_UNVERIFIED', 1],
      ['MALFORMED_LINE', 4],
    ]);
  });

  it('an element over --max-line-bytes inside a split document (two entries with no comma between them): DOCUMENT_UNVERIFIED element-over-limit, exit 1 at every bound that splits it', async () => {
    const file = path.join(tmpDir(), 'doc.har');
    const big = { ...entry(1), comment: 'c'.repeat(120) };
    writeFileSync(file, `{\n"log": {"entries": [\n${JSON.stringify(entry(0))},\n${JSON.stringify(big)}\n${JSON.stringify(big)},\n${JSON.stringify(entry(2))}\n], "pad": "${pad}"}}\n`);
    for (const bound of ['400', '700']) {
      const { code, r } = await report(['--profile', 'har', '--max-line-bytes', bound, file]);
      expect(code).toBe(1);
      expect(r.findings.filter((f) => f.code === 'DOCUMENT_UNVERIFIED').map((f) => [f.data.reason, f.locations[0]!.line])).toEqual([[bound === '400' ? 'element-over-limit' : 'invalid-json', 1]]);
    }
  });

  it('bytes outside the elements past --max-line-bytes: DOCUMENT_UNVERIFIED skeleton-over-limit, exit 1; long strings alone do not count', async () => {
    const dir = tmpDir();
    const over = path.join(dir, 'over.har');
    writeFileSync(over, `{\n"log": {"entries": ${E}, "after": [${Array.from({ length: 600 }, (_, k) => k).join(',')}]}}\n`);
    const a = await report(['--profile', 'har', '--max-line-bytes', '1024', over]);
    expect(a.code).toBe(1);
    expect(a.r.findings.map((f) => [f.code, f.data.reason])).toEqual([['DOCUMENT_UNVERIFIED', 'skeleton-over-limit']]);
    const strings = path.join(dir, 'strings.har');
    writeFileSync(strings, `{\n"log": {"entries": ${E}, "after": "${'s'.repeat(50_000)}"}}\n`);
    const b = await report(['--profile', 'har', '--max-line-bytes', '1024', strings]);
    expect(b.code).toBe(0);
    expect(b.r.findings).toEqual([]);
  });
});

describe('the report does not depend on how the bytes arrive', () => {
  it('a minified (one-line) HAR over --max-line-bytes is read element by element, as pretty-printed: its 6 entries, exit 0', async () => {
    const file = path.join(tmpDir(), 'min.har');
    writeFileSync(file, `${JSON.stringify(har(6))}\n`);
    const { code, r } = await report(['--profile', 'har', '--max-line-bytes', '600', file]);
    expect(code).toBe(0);
    expect(r.inputs[0]).toMatchObject({ format: 'json', records: 6, oversized: 0 });
    expect(r.findings).toEqual([]);
  });
  it('a HAR cut short fails closed at any bound: DOCUMENT_UNVERIFIED truncated, exit 1, whether held whole or read element by element', async () => {
    const text = `${JSON.stringify(har(6), null, 2)}\n`;
    const file = path.join(tmpDir(), 'cut.har');
    writeFileSync(file, text.slice(0, text.indexOf('"comment": "end"') - 40));
    for (const bound of [[], ['--max-line-bytes', '600']]) {
      const { code, r } = await report([...bound, file]);
      expect(code).toBe(1);
      expect(r.findings.filter((f) => f.code === 'DOCUMENT_UNVERIFIED').map((f) => [f.data.reason, f.locations[0]!.line])).toEqual([['truncated', 1]]);
    }
  });
  it('a HAR whose first line opens {"log": reads the same from the .har file, a .log name and stdin: 4 calls, 3 failed', async () => {
    const dir = tmpDir();
    const e = (k: number) => JSON.stringify({ ...entry(k), response: { status: k === 0 ? 200 : 500 } });
    const text = `{"log": {"version": "1.2", "creator": {"name": "x", "version": "1"},\n"entries": [\n${[0, 1, 2, 3].map(e).join(',\n')}\n]}}\n`;
    const file = path.join(dir, 'capture.har');
    writeFileSync(file, text);
    writeFileSync(path.join(dir, 'capture.log'), text);
    const runs = [await report(['--profile', 'har', file]), await report(['--profile', 'har', path.join(dir, 'capture.log')]), await report(['--profile', 'har', '-'], Buffer.from(text)), await report(['-'], Buffer.from(text))];
    for (const { code, r } of runs) {
      expect(code).toBe(0);
      expect(r.inputs[0]).toMatchObject({ format: 'json', malformed: 0 });
      expect(r.channels[0]).toMatchObject({ requests: 4, failed: 3 });
    }
  });
  it('"calls" repeated after the array (JSON.parse keeps the last): plain, .gz and stdin give one report, DUPLICATE_KEY, exit 1', async () => {
    const dir = tmpDir();
    const profile = path.join(dir, 'calls.json');
    writeFileSync(profile, JSON.stringify(PROFILE));
    // ~600 KB: one read of the plain file, several gzip and pipe chunks; the bound is passed in the first array.
    const first = JSON.stringify(calls(4000).calls);
    const text = `{\n"session": "top", "calls": ${first},\n"calls": ${JSON.stringify(calls(3).calls)}}`;
    const file = path.join(dir, 'doc.json');
    writeFileSync(file, `${text}\n`);
    writeFileSync(`${file}.gz`, gzipSync(readFileSync(file)));
    const args = ['--profile', profile, '--max-line-bytes', '100000'];
    const runs = [await report([...args, file]), await report([...args, `${file}.gz`]), await report([...args, '-'], readFileSync(file))];
    for (const { code, r } of runs) {
      expect(code).toBe(1);
      expect(r.findings.filter((f) => f.code === 'DUPLICATE_KEY').map((f) => [f.data, f.locations[0]!.line])).toEqual([[{ key: 'calls', document: 'split' }, 3]]);
    }
    expect(sameInput(runs[1]!.r, file)).toBe(sameInput(runs[0]!.r, file));
    expect(sameInput(runs[2]!.r, file)).toBe(sameInput(runs[0]!.r, file));
  });
});
