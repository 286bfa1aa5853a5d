/**
 * What the pass takes (`AnalyzeOptions`), its defaults, and the record of them a report carries
 * (`report.run`, what `callpair merge` requires to be equal).
 */
import { availableParallelism } from 'node:os';
import type { ChannelSpec, CallEvent, OrphanRequestRecord, OrphanResponseRecord, PairRecord, ShadowPairRecord } from '../model.js';
import type { Finding } from '../report/findings.js';
import { parseFailOn, type GateOptions } from '../report/gate.js';
import type { RunReport } from '../report/report.js';
import type { TimelineOptions } from '../report/timeline.js';
import type { Profile } from '../profiles/index.js';

/** The most threads `jobs` uses on any machine. */
export const JOBS_LIMIT = 4;

/** The threads `jobs` uses on a machine of `cores` cores: the cores, at most JOBS_LIMIT (docs/inputs.md, `--jobs`). */
export function jobsCap(cores: number): number {
  return Math.max(1, Math.min(cores, JOBS_LIMIT));
}

/** The threads a run asked for `jobs` uses: a whole number from 1 to the cap (the report is the same for any). */
export function usedJobs(jobs: number | undefined, cores = availableParallelism()): number {
  const n = jobs !== undefined && Number.isFinite(jobs) ? Math.floor(jobs) : 1;
  return Math.max(1, Math.min(n, jobsCap(cores)));
}

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
  /** One line of one input the reader reports on as it reads (trace `PATH:LINE`). */
  lineProbe?: LineProbe;
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
  /** Threads that decode and parse JSONL (default 1: this thread only; at most the cores, at most 4: `usedJobs`); the report is the same. */
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

/**
 * What the reader did with one line of one input (`trace PATH:LINE`, docs/trace.md), filled in as
 * the pass reads it: `at`, the record that starts on the line (parsed: a line skipped without
 * JSON.parse, counted in `unparsed`, has none); `within`, the JSON document record (a top-level
 * value or array element, read whole; or an element of a document read element by element) that
 * starts before the line and ends on or after it.
 * `outcome`: `used` by a profile, `duplicate`, or `ignored` (no profile claimed it, or one ignored it).
 */
export interface LineProbe {
  path: string;
  line: number;
  at?: ProbedRecord;
  within?: ProbedRecord & { bytes: Buffer };
}

export interface ProbedRecord {
  line: number;
  /** An element of a document read element by element: its JSON pointer. */
  pointer?: string;
  /** The record's last line. */
  end: number;
  outcome: 'used' | 'ignored' | 'duplicate';
  value: unknown;
}
