/**
 * Stage 5, reader: every source read in order, each record offered to the profiles that open it
 * (the first to claim it uses it), every line accounted for in the input's ledger; bad lines and
 * read errors become findings and the run goes on. With `jobs` > 1 a worker pool decodes and parses.
 */
import type { Loc } from '../model.js';
import { finding, type FindingCollector } from '../report/findings.js';
import type { InputLedgerReport } from '../report/report.js';
import { InputUsageError, type Source, type WalkError } from '../input/sources.js';
import { ChunkRecycler, readSource } from '../input/read.js';
import { WorkerPool } from '../input/parallel.js';
import { combinedKeep, keepFunction, keepFunctions, profileKeeps } from '../profiles/keep.js';
import type { LineSink } from '../input/lines.js';
import { combineRules, type ClassifyRule } from '../input/classify.js';
import type { Profile } from '../profiles/index.js';
import type { ProfileContext, RecordHandler, RecordOutcome } from '../profiles/types.js';
import { resolve } from 'node:path';
import { DEFAULT_MAX_LINE_BYTES, usedJobs, type AnalyzeOptions, type LineProbe } from './options.js';

/** A directory entry that could not be walked: an INPUT_ERROR, before anything is read. */
export function reportWalkErrors(walkErrors: readonly WalkError[], collector: FindingCollector): void {
  for (const w of walkErrors) {
    collector.add(finding('INPUT_ERROR', { locations: [] }, { error: `directory entry ${w.path}: ${w.reason}`, byteOffset: null, path: w.path }));
  }
}

/** Every source, in order; `inputs[k]` is the ledger of `sources[k]`. */
export async function readInputs(sources: readonly Source[], profiles: readonly Profile[], ctx: ProfileContext, collector: FindingCollector, opts: AnalyzeOptions): Promise<InputLedgerReport[]> {
  const needles = [...new Set(profiles.flatMap((p) => p.needles))].map((n) => Buffer.from(n));
  const inputs: InputLedgerReport[] = [];
  const pool = makePool(opts, needles, profiles);
  const recycler = new ChunkRecycler();
  try {
    for (const [index, source] of sources.entries()) {
      inputs.push(await readOne(source, profiles, ctx, collector, needles, opts, pool, { index, total: sources.length }, recycler));
    }
  } finally {
    await pool?.close();
  }
  return inputs;
}

async function readOne(
  source: Source,
  profiles: readonly Profile[],
  ctx: ProfileContext,
  collector: FindingCollector,
  needles: readonly Buffer[],
  opts: AnalyzeOptions,
  pool: WorkerPool | null,
  position: { index: number; total: number },
  recycler: ChunkRecycler,
): Promise<InputLedgerReport> {
  const progressIndex = position.index;
  const progressTotal = position.total;
  const handlers: Array<{ name: string; h: RecordHandler }> = [];
  const rules: Array<{ profile: string; rule: ClassifyRule | undefined }> = [];
  for (const p of profiles) {
    const h = p.open(source, ctx);
    if (h) {
      handlers.push({ name: p.name, h });
      rules.push({ profile: p.name, rule: p.classify?.[source.role] });
    }
  }
  if (handlers.length === 0 && source.role !== 'capture') {
    // Caller and upstream logs are read first, so this stops the run before anything is reported.
    throw new InputUsageError(`--${source.role} ${source.path}: no profile in use reads ${source.role} logs (use --profile auto or assay)`);
  }
  const used = new Map<string, number>();
  let ignored = 0;
  let duplicates = 0;
  let usedTotal = 0;
  const path = source.path;
  const maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  // A line no handler saw: each handler is told (the assay audit fails closed on it).
  const unread = (line: number, reason: string) => {
    for (const { h } of handlers) h.unread?.({ path, line }, reason);
  };

  /**
   * One record offered to the handlers and counted: how it was taken. `later`: the first handler
   * reads `value` whole, the others `later(value)` (LineSink.recordClaimed).
   */
  const offer = (value: unknown, line: number, raw: Buffer | null, doc?: Buffer, pointer?: string, later?: (value: unknown) => unknown): RecordOutcome => {
    {
      const loc: Loc = pointer === undefined ? { path, line } : { path, line, pointer };
      let outcome: RecordOutcome = 'unclaimed';
      let by = '';
      try {
        for (let i = 0; i < handlers.length; i++) {
          const { name, h } = handlers[i]!;
          if (i === 1 && later !== undefined) value = later(value);
          outcome = h.record(value, loc, raw, doc);
          if (outcome !== 'unclaimed') {
            by = name;
            break;
          }
        }
      } catch {
        // A hostile record that a profile could not handle (e.g. nesting too deep to serialise):
        // counted as ignored and reported, so the rest of the file is still read.
        outcome = 'ignored';
        collector.add(finding('MALFORMED_LINE', { locations: [loc] }, { reason: 'unusable', bytes: raw?.length ?? 0 }));
        unread(line, 'unusable');
      }
      if (outcome === 'used') {
        usedTotal++;
        used.set(by, (used.get(by) ?? 0) + 1);
      } else if (outcome === 'duplicate') duplicates++;
      else ignored++;
      return outcome;
    }
  };

  const probe = opts.lineProbe && source.path !== '-' && resolve(opts.lineProbe.path) === resolve(path) ? opts.lineProbe : null;
  const sink: LineSink = {
    record: probe
      ? (value, line, raw, doc, pointer, element) => {
          const o = offer(value, line, raw, doc, pointer);
          if (line <= probe.line) noteProbe(probe, value, line, o, doc, pointer, element);
        }
      : (value, line, raw, doc, pointer) => void offer(value, line, raw, doc, pointer),
    recordClaimed: probe
      ? (value, line, raw, later) => {
          const o = offer(value, line, raw, undefined, undefined, later);
          if (line <= probe.line) noteProbe(probe, later(value), line, o, undefined, undefined, undefined);
        }
      : (value, line, raw, later) => void offer(value, line, raw, undefined, undefined, later),
    malformed(line, reason, bytes) {
      collector.add(finding('MALFORMED_LINE', { locations: [{ path, line }] }, { reason, bytes }));
      unread(line, reason);
    },
    oversized(line, bytes) {
      collector.add(finding('OVERSIZED_LINE', { locations: [{ path, line }] }, { bytes, limit: maxLineBytes }));
      unread(line, 'oversized');
    },
    repeatedKey(line, profile, key, bytes) {
      const h = handlers.find((x) => x.name === profile)?.h;
      if (h?.repeatedKey) h.repeatedKey(key, { path, line });
      else collector.add(finding('MALFORMED_LINE', { locations: [{ path, line }] }, { reason: 'duplicate-key', bytes }));
    },
    repeatedSplitKey(line, key) {
      // A document read element by element repeats a key of its split path: not read exactly (an error).
      collector.add(finding('DUPLICATE_KEY', { locations: [{ path, line }] }, { key, document: 'split' }));
      unread(line, 'duplicate-key');
    },
    unverifiedDocument(line, reason, records) {
      // A document read element by element that JSON.parse would reject whole (or not known): its records fail closed.
      collector.add(finding('DOCUMENT_UNVERIFIED', { locations: [{ path, line }] }, { reason, records, limit: maxLineBytes }));
      unread(line, reason);
    },
  };

  const r = await readSource(source, sink, { needles, maxLineBytes, validateAll: opts.validateAll ?? false, stdin: opts.stdin, drain: opts.drain, progress: opts.onProgress && ((bytes) => opts.onProgress!({ path, index: progressIndex, inputs: progressTotal, bytes })), pool, recycler, keep: keepFunction(combinedKeep(profiles)), classify: combineRules(rules), keeps: keepFunctions(profileKeeps(profiles)), splits: profiles.flatMap((p) => p.splits ?? []) });
  if (r.error) unread(Math.max(1, r.ledger.lines), 'input-error');
  for (const { h } of handlers) h.end?.();
  if (r.error) {
    collector.add(
      finding('INPUT_ERROR', { locations: [{ path, line: Math.max(1, r.ledger.lines) }] }, { error: r.error.message, byteOffset: r.error.byteOffset, path }),
    );
  }
  const l = r.ledger;
  const records = l.parsed + l.unparsed;
  return {
    path,
    format: r.format,
    gzip: r.gzip,
    profile: used.size === 0 ? 'none' : [...used.keys()].sort().join('+'),
    lines: l.lines,
    records,
    blank: l.blank,
    malformed: l.malformed,
    oversized: l.oversized,
    ignored: ignored + l.unparsed,
    unparsed: l.unparsed,
    duplicates,
    used: usedTotal,
    bytes: l.bytes,
    error: r.error,
  };
}

/** The worker pool for `jobs` > 1 (workers start on the first large JSONL input). */
function makePool(opts: AnalyzeOptions, needles: readonly Buffer[], profiles: readonly Profile[]): WorkerPool | null {
  const jobs = usedJobs(opts.jobs);
  if (jobs === 1) return null;
  // This thread frames lines and takes a share of the batches too: jobs - 1 workers.
  return new WorkerPool(jobs - 1, {
    keep: combinedKeep(profiles),
    keeps: profileKeeps(profiles),
    needles: needles.map((n) => n.toString('latin1')),
    validateAll: opts.validateAll ?? false,
    maxLineBytes: opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
  });
}

/**
 * The probed line's record (one starting on it), or the document record whose lines hold it: one
 * read whole (`doc`), or an element of a document read element by element (`element`, `pointer`).
 */
function noteProbe(probe: LineProbe, value: unknown, line: number, outcome: RecordOutcome, doc: Buffer | undefined, pointer: string | undefined, element: Buffer | undefined): void {
  const bytes = doc ?? element;
  let end = line;
  if (bytes) for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) end++;
  const r = { line, end, outcome: outcome === 'used' || outcome === 'duplicate' ? outcome : ('ignored' as const), value, ...(pointer !== undefined ? { pointer } : {}) };
  if (line === probe.line) probe.at ??= r;
  else if (bytes && end >= probe.line) probe.within = { ...r, bytes };
}
