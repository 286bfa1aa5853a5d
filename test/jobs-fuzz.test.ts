/**
 * `--jobs 2` gives the report of `--jobs 1` on the fuzz corpus (test/fuzz.test.ts's generators):
 * random bytes, hostile records, mutated real lines, from stdin in small chunks (lines cut between
 * chunks everywhere). The stream starts once the worker is up, so batches do reach it.
 */
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import type { Report } from '../src/report/report.js';
import { eventRecord, fcParams, FUZZ_RUNS, FUZZ_TEST_TIMEOUT, FUZZ_TIME_MS, joinLines, mutate, mutation, REAL_LINES } from './hostile-gen.js';

function delayedChunks(buf: Buffer, sizes: readonly number[], delayMs: number): Readable {
  const chunks: Buffer[] = [];
  for (let pos = 0, k = 0; pos < buf.length; ) {
    const n = Math.max(1, sizes.length ? sizes[k++ % sizes.length]! : buf.length);
    chunks.push(buf.subarray(pos, pos + n));
    pos += n;
  }
  return Readable.from(
    (async function* () {
      await new Promise((r) => setTimeout(r, delayMs));
      yield* chunks;
    })(),
    { objectMode: false },
  );
}

async function both(buf: Buffer, sizes: readonly number[], validateAll: boolean): Promise<[Report, Report]> {
  const opts = { inputs: ['-'], maxFindings: 1000, validateAll };
  const one = await analyze({ ...opts, stdin: delayedChunks(buf, sizes, 0), jobs: 1 });
  const two = await analyze({ ...opts, stdin: delayedChunks(buf, sizes, 300), jobs: 2 });
  return [one, two];
}

const chunkSizes = fc.array(fc.integer({ min: 1, max: 256 }), { maxLength: 4 });
const runs = Math.max(6, Math.ceil(FUZZ_RUNS / 5));

describe('fuzz: --jobs 2 gives the report of --jobs 1', { timeout: FUZZ_TEST_TIMEOUT }, () => {
  it('random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), chunkSizes, fc.boolean(), async (bytes, sizes, validateAll) => {
        const [one, two] = await both(Buffer.from(bytes), sizes, validateAll);
        expect(two).toEqual(one);
      }),
      fcParams(runs, FUZZ_TIME_MS * 2),
    );
  });

  it('hostile amplifier-shaped records', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventRecord, { maxLength: 60 }), chunkSizes, fc.boolean(), async (recs, sizes, validateAll) => {
        const buf = joinLines(
          recs.map((r) => Buffer.from(JSON.stringify(r))),
          false,
          true,
        );
        const [one, two] = await both(buf, sizes, validateAll);
        expect(two).toEqual(one);
      }),
      fcParams(runs, FUZZ_TIME_MS * 2),
    );
  });

  it('mutations of real lines', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { maxLength: 12 }), chunkSizes, fc.boolean(), fc.boolean(), async (muts, sizes, crlf, finalNewline) => {
        const buf = joinLines(mutate(REAL_LINES, muts), crlf, finalNewline);
        const [one, two] = await both(buf, sizes, false);
        expect(two).toEqual(one);
      }),
      fcParams(runs, FUZZ_TIME_MS * 2),
    );
  });
});
