/**
 * The fuzz suite: random bytes, random JSON, hostile records and mutations of real lines
 * fed to analyze(). Every run: nothing throws, every physical line is counted, the ledger
 * identities hold, no profile crashed on a record, and every registered format renders.
 *
 * Bounded for `npm test` (FUZZ_RUNS, default 40 runs and FUZZ_TIME_MS per property);
 * `npm run fuzz` runs it longer with a fresh seed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Chalk } from 'chalk';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { FORMATTERS } from '../src/formatters/index.js';
import { ledgerViolations, type Report } from '../src/report/report.js';
import { sniff } from '../src/input/sniff.js';
import { runCli, tmpDir, withoutGateLine } from './helpers.js';
import { arrayThenObjects, buildArrayThenObjects, buildMixed, mixedSegments } from './hostile-gen.js';
import { chunkedStream, eventRecord, fcParams, FUZZ_RUNS, FUZZ_TEST_TIMEOUT, FUZZ_TIME_MS, joinLines, mutate, mutation, physicalLines, REAL_LINES } from './hostile-gen.js';

const chalk = new Chalk({ level: 3 });

async function analyzeBytes(buf: Buffer, sizes: readonly number[], extra: { validateAll?: boolean; maxOpenCalls?: number } = {}): Promise<Report> {
  return analyze({ inputs: ['-'], stdin: chunkedStream(buf, sizes), maxFindings: 50, ...extra });
}

/** What the runs exercised (printed by `npm run fuzz`), to show the inputs reach the profile and engine. */
const stats = { runs: 0, lines: 0, used: 0, pairs: 0, orphans: 0, invalidIds: 0, malformed: 0, evicted: 0 };
afterAll(() => {
  if (process.env.FUZZ_RUNS) console.log(`fuzz totals: ${JSON.stringify(stats)}`);
});

/** The invariants every report must satisfy, whatever the input. */
function checkInvariants(report: Report, buf: Buffer): void {
  stats.runs++;
  stats.lines += report.totals.lines;
  stats.used += report.inputs.reduce((n, i) => n + i.used, 0);
  stats.malformed += report.totals.malformed;
  stats.invalidIds += report.findingCounts.INVALID_ID ?? 0;
  for (const c of report.channels) {
    stats.pairs += c.pairs.total;
    stats.orphans += c.orphanRequests + c.orphanResponses;
    stats.evicted += c.evictedRequests;
  }
  expect(ledgerViolations(report)).toEqual([]);
  expect(report.inputs).toHaveLength(1);
  const input = report.inputs[0]!;
  // Random bytes may start with the magic of a format callpair names and does not read (sniff.ts).
  const unsupported = sniff(buf, '-', true)?.kind === 'unsupported';
  expect(input.lines).toBe(unsupported ? 0 : physicalLines(buf));
  expect(input.bytes).toBe(unsupported ? 0 : buf.length);
  // No profile threw on a record (the safety net in analyze.ts would report it as `unusable`).
  const unusable = report.findings.filter((f) => f.code === 'MALFORMED_LINE' && f.data.reason === 'unusable');
  expect(unusable).toEqual([]);
  // Findings: every kept one is counted, and no more are kept than counted.
  for (const [code, n] of Object.entries(report.findingCounts)) {
    expect(report.findings.filter((f) => f.code === code).length).toBeLessThanOrEqual(n!);
  }
  for (const f of report.findings) expect(report.findingCounts[f.code]).toBeGreaterThan(0);
  // Every registered format renders.
  for (const fmt of Object.values(FORMATTERS)) {
    const text = fmt.render(report, { chalk, cwd: process.cwd() });
    expect(typeof text).toBe('string');
  }
}

const chunkSizes = fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 4 });

describe('fuzz: analyze() never throws and always balances its ledger', { timeout: FUZZ_TEST_TIMEOUT }, () => {
  it('random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), chunkSizes, fc.boolean(), async (bytes, sizes, validateAll) => {
        // Half the time, salt the bytes with needles so the parser and the profile see them.
        const buf = Buffer.from(bytes);
        const r = await analyzeBytes(buf, sizes, { validateAll });
        checkInvariants(r, buf);
      }),
      fcParams(),
    );
  });

  it('random JSON values, one per line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 30 }), chunkSizes, fc.boolean(), async (values, sizes, crlf) => {
        const buf = joinLines(values.map((v) => Buffer.from(JSON.stringify(v) ?? 'null')), crlf, true);
        const r = await analyzeBytes(buf, sizes, { validateAll: true });
        checkInvariants(r, buf);
      }),
      fcParams(),
    );
  });

  it('hostile amplifier-shaped records', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventRecord, { maxLength: 30 }), chunkSizes, fc.integer({ min: 1, max: 5 }), async (recs, sizes, maxOpen) => {
        const buf = joinLines(recs.map((r) => Buffer.from(JSON.stringify(r))), false, true);
        const r = await analyzeBytes(buf, sizes, { maxOpenCalls: maxOpen });
        checkInvariants(r, buf);
      }),
      fcParams(),
    );
  });

  it('mutations of real lines (cut, duplicated, reordered, bytes flipped, keys renamed, ids replaced)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { maxLength: 12 }), chunkSizes, fc.boolean(), fc.boolean(), async (muts, sizes, crlf, finalNewline) => {
        const buf = joinLines(mutate(REAL_LINES, muts), crlf, finalNewline);
        const r = await analyzeBytes(buf, sizes);
        checkInvariants(r, buf);
      }),
      fcParams(),
    );
  });

  it('mutated JSON documents (a top-level array)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { maxLength: 8 }), chunkSizes, async (muts, sizes) => {
        const lines = mutate(REAL_LINES, muts);
        const buf = Buffer.concat([Buffer.from('[\n'), joinLines(lines.map((l, k) => (k < lines.length - 1 ? Buffer.concat([l, Buffer.from(',')]) : l)), false, true), Buffer.from(']\n')]);
        const r = await analyzeBytes(buf, sizes);
        expect(ledgerViolations(r)).toEqual([]);
        expect(r.inputs[0]!.lines).toBe(physicalLines(buf));
      }),
      fcParams(),
    );
  });
});

describe('fuzz: mixed gzip members and array-then-object files', { timeout: FUZZ_TEST_TIMEOUT }, () => {
  it('gzip members and plain bytes in any order: the leading members are read whole, plain bytes after them are one INPUT_ERROR', async () => {
    await fc.assert(
      fc.asyncProperty(mixedSegments, chunkSizes, async (segs, sizes) => {
        const { buf, readLines, fault } = buildMixed(segs);
        const r = await analyze({ inputs: ['-'], stdin: chunkedStream(buf, sizes), maxFindings: 50 });
        expect(ledgerViolations(r)).toEqual([]);
        expect(r.inputs[0]!.lines).toBe(readLines);
        expect((r.findingCounts.INPUT_ERROR ?? 0) > 0).toBe(fault);
      }),
      fcParams(),
    );
  });

  it('an array (one line or pretty-printed) then object lines, some broken: no more records than values, nothing after a broken one dropped', async () => {
    await fc.assert(
      fc.asyncProperty(arrayThenObjects, chunkSizes, async (a, sizes) => {
        const buf = buildArrayThenObjects(a);
        const r = await analyze({ inputs: ['-'], stdin: chunkedStream(buf, sizes), maxFindings: 50, validateAll: true });
        expect(ledgerViolations(r)).toEqual([]);
        const input = r.inputs[0]!;
        expect(input.lines).toBe(physicalLines(buf));
        const broken = a.objs.filter((o) => o.broken).length;
        const multiLineArray = a.pretty && a.elems.length > 0;
        if (!multiLineArray && a.objs.length > 0) {
          // A complete first line followed by more lines: JSONL, one record per line.
          expect(input.format).toBe('jsonl');
          expect(input.records).toBe(1 + a.objs.length - broken);
        } else {
          expect(input.format).toBe('json');
          expect(input.records).toBeLessThanOrEqual(a.elems.length + a.objs.length);
          // Every good object after the array is read, whatever broke before it.
          expect(input.records).toBe(a.elems.length + a.objs.length - broken);
        }
        expect(input.malformed).toBe(broken);
      }),
      fcParams(),
    );
  });
});

describe('fuzz: the CLI exits 0 on garbage (--allow-empty), with nothing on stderr', { timeout: FUZZ_TEST_TIMEOUT }, () => {
  it('random bytes and mutated lines through the built binary', async () => {
    const dir = tmpDir();
    let k = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 4096 }).map((b) => Buffer.from(b)),
          fc.array(mutation, { maxLength: 10 }).map((m) => joinLines(mutate(REAL_LINES, m), false, true)),
        ),
        async (buf) => {
          // A gzip magic would make it a (corrupt) gzip stream: an INPUT_ERROR and exit 1, tested elsewhere.
          // So would a format callpair names and does not read (zstd, UTF-16…).
          const safe = (buf[0] === 0x1f && buf[1] === 0x8b) || sniff(buf, 'x.jsonl', true)?.kind === 'unsupported' ? Buffer.concat([Buffer.from('\n'), buf]) : buf;
          const file = path.join(dir, `garbage-${k++}.jsonl`);
          writeFileSync(file, safe);
          const res = await runCli(['analyze', '--format', 'json', '--allow-empty', file]);
          expect(withoutGateLine(res.stderr)).toBe('');
          expect(res.code).toBe(0);
          const report = JSON.parse(res.stdout) as Report;
          expect(ledgerViolations(report)).toEqual([]);
          expect(report.inputs[0]!.lines).toBe(physicalLines(safe));
        },
      ),
      fcParams(Math.max(3, Math.ceil(FUZZ_RUNS / 8)), FUZZ_TIME_MS * 4),
    );
  });
});
