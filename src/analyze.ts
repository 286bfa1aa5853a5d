/**
 * One streaming pass: sources → reader → profiles → engine → report. `analyze`, `compare` and
 * `pairs` all run this same pass; they differ only in what they listen to.
 */
import path from 'node:path';
import { isFailed, type CallEvent, type Loc, type OrphanRequestRecord, type OrphanResponseRecord, type PairRecord, type ShadowPairRecord, type ChannelSpec } from './model.js';
import { DEFAULT_MAX_HELD_SCOPES, PairingEngine, type EngineSink } from './engine/engine.js';
import { FindingCollector, finding, type Finding } from './report/findings.js';
import { findingMessage } from './report/messages.js';
import { noteText } from './report/notes.js';
import { evaluateGate, parseFailOn, type GateOptions } from './report/gate.js';
import { channelReportWithData, inputTotals, REPORT_SCHEMA, type InputLedgerReport, type MergeDataReport, type Report, type RunReport } from './report/report.js';
import { dropRepeatedFiles, InputUsageError, resolveSources, type Source, type SourceRole, type WalkError } from './input/sources.js';
import { ChunkRecycler, readSource } from './input/read.js';
import { fileContains } from './input/sniff.js';
import { WorkerPool } from './input/parallel.js';
import { combinedKeep, keepFunction, keepFunctions, profileKeeps } from './profiles/keep.js';
import type { LineSink } from './input/lines.js';
import { combineRules, type ClassifyRule } from './input/classify.js';
import { channelSpecs, resolveProfiles, type Profile } from './profiles/index.js';
import type { ProfileContext, RecordHandler, RecordOutcome } from './profiles/types.js';
import { VERSION } from './version.js';
import { TimelineCollector, type TimelineOptions } from './report/timeline.js';
import { append } from './arrays.js';

export interface AnalyzeOptions {
  /** Paths, directories, globs, or `-` for stdin. */
  inputs: readonly string[];
  /** Assay: the caller's sent JSON-RPC log(s). */
  caller?: readonly string[];
  /** Assay: the upstream's received JSON-RPC log(s). */
  upstream?: readonly string[];
  /** `auto` (default) or a profile name. */
  profile?: string;
  /** Longest line read (default 64 MiB); longer lines are `oversized` and skipped. */
  maxLineBytes?: number;
  /** Parse every line, so malformed lines anywhere are found. */
  validateAll?: boolean;
  /** Findings kept per code in the report (default 1000); all are counted. */
  maxFindings?: number;
  /** Recently closed ids remembered for DUPLICATE_TERMINAL (default 100 000). */
  closedWindow?: number;
  /** List at most this many scopes per channel in the report (the most troubled); default: all. */
  maxScopes?: number;
  /** Open calls per channel before the oldest is evicted as an orphan (default 100 000). */
  maxOpenCalls?: number;
  /**
   * Scopes a channel holds state for (default 50 000, or `maxScopes` when larger); past it the
   * longest idle are folded into the channel's totals with SCOPES_FOLDED (docs/design.md §8).
   */
  maxHeldScopes?: number;
  gate?: GateOptions;
  /** Stream for `-` (default process.stdin). */
  stdin?: NodeJS.ReadableStream;
  /** Listeners on the pass (compare, pairs). */
  /** The channels in use, by name, before anything is read (their declarations). */
  onChannels?: (specs: ReadonlyMap<string, ChannelSpec>) => void;
  onPair?: (p: PairRecord) => void;
  onOrphanRequest?: (o: OrphanRequestRecord) => void;
  onOrphanResponse?: (o: OrphanResponseRecord) => void;
  /** What the FIFO and signature-FIFO shadows gave each non-redundant terminal (compare). */
  onShadowPair?: (s: ShadowPairRecord) => void;
  /** A scope folded into its channel's totals (over the held-scope cap): drop what you keep per scope. */
  onScopeFolded?: (channel: string, scope: string) => void;
  /** Every event a profile emits, just before the engine sees it (trace). */
  onEvent?: (ev: CallEvent) => void;
  /** Every finding as it is made, before --max-findings trims the list (trace). */
  onFinding?: (f: Finding) => void;
  /** Called after each input chunk; the pass waits for the promise it returns (backpressure for streaming listeners). */
  drain?: () => Promise<void> | undefined;
  /** Called after each input chunk: which input, and how many (decompressed) bytes of it were read. */
  onProgress?: (p: { path: string; index: number; inputs: number; bytes: number }) => void;
  /** Profile-specific options (e.g. assay's `correlationKey`). */
  profileOptions?: Record<string, unknown>;
  /** Collect the per-call timeline (report field `timeline`, for the html format); off by default. */
  timeline?: boolean | TimelineOptions;
  /** Threads that decode and parse JSONL (default 1: this thread only); the report is the same. */
  jobs?: number;
  /** A run with nothing to audit (no input, or no record matched) is no NO_CALL_EVENTS error. */
  allowEmpty?: boolean;
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_FINDINGS = 1000;
/** Open calls per channel before the oldest is evicted (as an orphan, reason `evicted`): ~0.8 KB each. */
export const DEFAULT_MAX_OPEN_CALLS = 100_000;
/** Recently closed ids remembered per channel for DUPLICATE_TERMINAL. */
export const DEFAULT_CLOSED_WINDOW = 100_000;

export async function analyze(opts: AnalyzeOptions): Promise<Report> {
  const sources: Source[] = [];
  const walkErrors: WalkError[] = [];
  const skipped: string[] = [];
  const add = async (args: readonly string[] | undefined, role: SourceRole) => {
    if (!args || args.length === 0) return;
    // A caller or upstream argument that names no log (an empty directory, one holding only
    // `upstream.log`) is a usage error like an unmatched glob: its side of the audit would be missing.
    for (const group of role === 'capture' ? [args] : args.map((a) => [a])) {
      const r = await resolveSources(group, role);
      if (role !== 'capture' && r.sources.length === 0 && r.walkErrors.length === 0) {
        const seen = r.skipped.length > 0 ? ` (not read: ${r.skipped.slice(0, 3).map((x) => JSON.stringify(x)).join(', ')}${r.skipped.length > 3 ? ' …' : ''})` : '';
        throw new InputUsageError(`--${role} ${JSON.stringify(group[0])}: no log in it; a log is named *.jsonl, *.ndjson or *.json, optionally .gz${seen}`);
      }
      append(sources, r.sources);
      append(walkErrors, r.walkErrors);
      append(skipped, r.skipped);
    }
  };
  // Request sides before terminal sides (assay reads in file order without timestamps).
  await add(opts.caller, 'caller');
  await add(opts.inputs, 'capture');
  await add(opts.upstream, 'upstream');
  // The custom profile file itself, met in a directory given as input, is no capture.
  const profileFiles = profileFilePaths(opts.profile);
  const profileSkipped: string[] = [];
  if (profileFiles.size > 0) {
    const captures: Source[] = [];
    for (const s of sources) {
      if (typeof s.file === 'string' && profileFiles.has(path.resolve(s.file))) profileSkipped.push(s.path);
      else captures.push(s);
    }
    sources.length = 0;
    append(sources, captures);
  }

  // The same file given twice (`x`, `./x`, a hard link) is read once and named in a note.
  const distinct = dropRepeatedFiles(sources);
  sources.length = 0;
  append(sources, distinct.sources);

  // Which input roles exist is known before reading (profiles evaluate a channel only when both
  // sides exist). A caller or upstream log with no JSON-RPC message at all (a plain log of method
  // names…) says nothing about what was sent or received: its side is not evaluated, and it gets
  // an UNMATCHED_INPUT finding instead of every call looking undelivered.
  const rpcLess = new Set<Source>();
  for (const s of sources) {
    if ((s.role === 'caller' || s.role === 'upstream') && s.file !== null && !(await fileContains(s.file, JSONRPC_KEY))) rpcLess.add(s);
  }
  const usable = (role: SourceRole) => sources.some((s) => s.role === role && !rpcLess.has(s));
  const roles = { capture: opts.inputs.length > 0, caller: usable('caller'), upstream: usable('upstream') };
  // What the assay audit must know before reading (docs/assay.md, "Exact, or fail closed"): how
  // many files each side has (order across files is no evidence), which logs hold no JSON-RPC, and
  // the bound of its windows (the open-call bound, unless set).
  const roleFiles = { capture: 0, caller: 0, upstream: 0 };
  for (const s of sources) roleFiles[s.role]++;
  const unusableLogs = [...rpcLess].map((s) => ({ role: s.role, path: s.path }));
  const profiles = resolveProfiles(opts.profile ?? 'auto', { roles, roleFiles, unusableLogs, window: opts.maxOpenCalls ?? DEFAULT_MAX_OPEN_CALLS, maxOpenCalls: opts.maxOpenCalls ?? DEFAULT_MAX_OPEN_CALLS, ...opts.profileOptions });
  const collector = new FindingCollector(opts.maxFindings ?? DEFAULT_MAX_FINDINGS);
  const specs = channelSpecs(profiles);
  opts.onChannels?.(specs);
  const channelOwner = new Map(profiles.flatMap((p) => p.channels.map((c) => [c.name, p] as const)));
  // Failed outcomes, counted once from each channel's declaration (every format shows this count).
  const failed = new Map<string, number>();
  const addFinding = opts.onFinding
    ? (f: Finding) => {
        collector.add(f);
        opts.onFinding!(f);
      }
    : (f: Finding) => collector.add(f);
  const sink: EngineSink = {
    finding: addFinding,
    pair: (p) => {
      const spec = specs.get(p.channel);
      if (spec && isFailed(spec, p.terminal.attrs)) failed.set(p.channel, (failed.get(p.channel) ?? 0) + 1);
      opts.onPair?.(p);
    },
    orphanRequest: (o) => {
      opts.onOrphanRequest?.(o);
      channelOwner.get(o.channel)?.orphanRequest?.(o, ctx);
    },
    orphanResponse: (o) => {
      opts.onOrphanResponse?.(o);
      channelOwner.get(o.channel)?.orphanResponse?.(o, ctx);
    },
    shadowPair: opts.onShadowPair,
    scopeFolded: opts.onScopeFolded,
  };
  const timeline = opts.timeline ? new TimelineCollector(opts.timeline === true ? {} : opts.timeline) : null;
  if (timeline) tapTimeline(sink, timeline);
  const engine = new PairingEngine({
    channels: [...specs.values()],
    sink,
    closedWindow: opts.closedWindow ?? DEFAULT_CLOSED_WINDOW,
    maxOpenCalls: opts.maxOpenCalls ?? DEFAULT_MAX_OPEN_CALLS,
    maxHeldScopes: opts.maxHeldScopes ?? Math.max(DEFAULT_MAX_HELD_SCOPES, opts.maxScopes ?? 0),
  });
  const onEvent = opts.onEvent;
  const ctx: ProfileContext = {
    emit: timeline
      ? (ev) => {
          timeline.event(ev);
          onEvent?.(ev);
          return engine.push(ev);
        }
      : onEvent
        ? (ev) => {
            onEvent(ev);
            return engine.push(ev);
          }
        : (ev) => engine.push(ev),
    finding: addFinding,
  };

  for (const w of walkErrors) {
    collector.add(finding('INPUT_ERROR', { locations: [] }, { error: `directory entry ${w.path}: ${w.reason}`, byteOffset: null, path: w.path }));
  }

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
  for (const p of profiles) p.finish?.(ctx);
  engine.finish();

  // Nothing passes quietly: an input no profile used is named, and a run with nothing to audit fails.
  // inputs[k] is the ledger of sources[k] (a lookup by path per input was quadratic in the inputs).
  for (const [k, i] of inputs.entries()) {
    const src = sources[k];
    if (src && rpcLess.has(src) && src.role !== 'capture') {
      collector.add(
        finding('UNMATCHED_INPUT', { locations: [{ path: i.path, line: 1 }] }, { path: i.path, role: src.role, records: i.records, lines: i.lines, reason: 'no-json-rpc' }),
      );
    } else if (i.used === 0 && i.error === null && src?.role === 'capture') {
      collector.add(finding('UNMATCHED_INPUT', { locations: [{ path: i.path, line: 1 }] }, { path: i.path, role: 'capture', records: i.records, lines: i.lines }));
    }
  }
  let events = 0;
  for (const st of engine.channels.values()) events += st.counters.requests + st.counters.terminals + st.counters.interims;
  const usedRecords = inputs.reduce((n, i) => n + i.used, 0);
  if (events === 0 && usedRecords === 0 && !opts.allowEmpty) {
    collector.add(
      finding('NO_CALL_EVENTS', { locations: [] }, {
        reason: sources.length === 0 ? 'no-inputs' : 'nothing-matched',
        inputs: sources.length,
        records: inputs.reduce((n, i) => n + i.records, 0),
        profile: profiles.length === 1 ? profiles[0]!.name : opts.profile ?? 'auto',
      }),
    );
  }

  // Channels with any event, or that a profile evaluated, in declaration order.
  const channels = [];
  const mergeData: MergeDataReport = { channels: [] };
  const evaluated = new Set(profiles.flatMap((p) => p.evaluatedChannels?.() ?? []));
  const snapshot = engine.snapshot({ distributions: timeline !== null });
  for (const st of snapshot.channels) {
    const c = st.counters;
    if (c.requests + c.terminals + c.interims > 0 || evaluated.has(st.spec.name)) {
      const { report, data } = channelReportWithData(st, opts.maxScopes, failed.get(st.spec.name) ?? 0);
      channels.push(report);
      mergeData.channels.push(data);
    }
  }

  const records: Record<string, unknown> = {};
  const notes: string[] = [];
  if (profileSkipped.length > 0) notes.push(`Not read as a capture: ${profileSkipped.join(', ')} (the profile file).`);
  if (distinct.repeated.length > 0) {
    const shown = distinct.repeated.slice(0, 10).map((r) => `${r.path} (same file as ${r.same})`).join(', ');
    const more = distinct.repeated.length > 10 ? ` and ${distinct.repeated.length - 10} more` : '';
    notes.push(`Read once, given more than once: ${shown}${more}.`);
  }
  if (skipped.length > 0) {
    const shown = skipped.slice(0, 10).join(', ');
    notes.push(`Not read as captures (not named *.jsonl, *.ndjson, *.json or *.har, optionally .gz): ${shown}${skipped.length > 10 ? ` and ${skipped.length - 10} more` : ''}.`);
  }
  for (const p of profiles) {
    const s = p.summary?.();
    if (s !== undefined) records[p.name] = s;
    const n = p.notes?.();
    // A note two profiles give (times read as UTC) is said once.
    if (n) for (const t of n.map(noteText)) if (!notes.includes(t)) notes.push(t);
  }

  const findings = collector.list().map((f) => ({ ...f, message: findingMessage(f) }) as Finding);
  const findingCounts = collector.countsObject();
  const findingsOmitted: Report['findingsOmitted'] = {};
  const max = opts.maxFindings ?? DEFAULT_MAX_FINDINGS;
  for (const [code, n] of Object.entries(findingCounts) as [keyof typeof findingCounts, number][]) {
    if (n > max) findingsOmitted[code] = n - max;
  }

  const totals = inputTotals(inputs);

  const report: Report = {
    schema: REPORT_SCHEMA,
    tool: { name: 'callpair', version: VERSION },
    run: runReport(opts, profiles),
    inputs,
    totals,
    channels,
    records,
    notes,
    findings,
    findingCounts,
    findingsOmitted,
    gate: evaluateGate(opts.gate ?? {}, findingCounts, channels),
    mergeData,
  };
  if (timeline) report.timeline = timeline.build(channels, snapshot.channels);
  return report;
}

/** The options that shaped a report (`report.run`): what `callpair merge` requires to be equal. */
export function runReport(opts: AnalyzeOptions, profiles: readonly Profile[]): RunReport {
  return {
    profile: opts.profile ?? 'auto',
    profileOptions: { ...opts.profileOptions },
    profiles: profiles.map((p) => p.name),
    channels: profiles.flatMap((p) => p.channels.map((c) => c.name)),
    maxLineBytes: opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    validateAll: opts.validateAll ?? false,
    maxFindings: opts.maxFindings ?? DEFAULT_MAX_FINDINGS,
    closedWindow: opts.closedWindow ?? DEFAULT_CLOSED_WINDOW,
    maxOpenCalls: opts.maxOpenCalls ?? DEFAULT_MAX_OPEN_CALLS,
    maxScopes: opts.maxScopes ?? null,
    allowEmpty: opts.allowEmpty ?? false,
    gate: gateRun(opts.gate ?? {}),
  };
}

export function gateRun(g: GateOptions): RunReport['gate'] {
  return {
    failOn: parseFailOn(g.failOn ?? []),
    maxCrossedRate: g.maxCrossedRate ?? null,
    maxOrphanRequests: g.maxOrphanRequests ?? null,
    maxAmbiguous: g.maxAmbiguous ?? null,
    minIdCoverage: g.minIdCoverage ?? null,
    noFail: g.noFail ?? false,
    allowUnverified: g.allowUnverified ?? false,
  };
}

/** The gate options a report was made with. */
export function gateOptionsOf(g: RunReport['gate']): GateOptions {
  const o: GateOptions = { failOn: g.failOn, noFail: g.noFail };
  if (g.allowUnverified) o.allowUnverified = true;
  if (g.maxCrossedRate !== null) o.maxCrossedRate = g.maxCrossedRate;
  if (g.maxOrphanRequests !== null) o.maxOrphanRequests = g.maxOrphanRequests;
  if (g.maxAmbiguous !== null) o.maxAmbiguous = g.maxAmbiguous;
  if (g.minIdCoverage !== null) o.minIdCoverage = g.minIdCoverage;
  return o;
}

/** The resolved paths of the custom profile files `--profile` names (`x.json`, `auto,x.json`). */
function profileFilePaths(profile: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const p of (profile ?? '').split(',')) if (/\.json$/i.test(p) || p.includes('/')) out.add(path.resolve(p));
  return out;
}

/**
 * Every JSON-RPC 2.0 message holds this key, whatever its spacing; a file with a `\u` escape may
 * spell it otherwise (`"jsonr\u0070c"`), so it counts as holding it (exact, or the exact path).
 */
const JSONRPC_KEY = [Buffer.from('"jsonrpc"'), Buffer.from('\\u')];

/** The timeline listens to the engine beside any other listener. */
function tapTimeline(sink: EngineSink, t: TimelineCollector): void {
  const { pair, orphanRequest, orphanResponse } = sink;
  sink.pair = (p) => {
    t.pair(p);
    pair?.(p);
  };
  sink.orphanRequest = (o) => {
    t.orphanRequest(o);
    orphanRequest?.(o);
  };
  sink.orphanResponse = (o) => {
    t.orphanResponse(o);
    orphanResponse?.(o);
  };
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

  const sink: LineSink = {
    record(value: unknown, line: number, raw: Buffer | null, digest?: string, doc?: Buffer, pointer?: string) {
      const loc: Loc = pointer === undefined ? { path, line } : { path, line, pointer };
      let outcome: RecordOutcome = 'unclaimed';
      let by = '';
      try {
        for (const { name, h } of handlers) {
          outcome = h.record(value, loc, raw, digest, doc);
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
    },
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
    duplicates,
    used: usedTotal,
    bytes: l.bytes,
    error: r.error,
  };
}

/** The worker pool for `jobs` > 1 (workers start on the first large JSONL input). */
function makePool(opts: AnalyzeOptions, needles: readonly Buffer[], profiles: readonly Profile[]): WorkerPool | null {
  const jobs = opts.jobs ?? 1;
  if (!(jobs > 1)) return null;
  // This thread frames lines and takes a share of the batches too: jobs - 1 workers.
  return new WorkerPool(jobs - 1, {
    keep: combinedKeep(profiles),
    keeps: profileKeeps(profiles),
    needles: needles.map((n) => n.toString('latin1')),
    validateAll: opts.validateAll ?? false,
    maxLineBytes: opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
  });
}
