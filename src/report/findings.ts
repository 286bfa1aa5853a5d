/**
 * Findings: typed data with stable codes. No prose lives here; formatters (and `messages.ts`)
 * turn `code` + `data` into text.
 */
import type { Loc } from '../model.js';
import { clipText } from '../profiles/clip.js';
import { append } from '../arrays.js';

export type Severity = 'error' | 'warning' | 'note';

/** Every code with its fixed severity. Display order: by severity, then this order. */
export const FINDING_CODES = {
  INPUT_ERROR: 'error',
  UNSUPPORTED_SCHEMA: 'error',
  INCONSISTENT_RECORD: 'error',
  DENIED_BUT_DELIVERED: 'error',
  UNRECORDED_DELIVERY: 'error',
  ORPHAN_REQUEST: 'warning',
  ORPHAN_RESPONSE: 'warning',
  AMBIGUOUS_PAIR: 'warning',
  DUPLICATE_ID: 'warning',
  INVALID_ID: 'warning',
  MALFORMED_LINE: 'warning',
  OVERSIZED_LINE: 'warning',
  CROSSED_PAIR: 'note',
  DUPLICATE_TERMINAL: 'note',
  // Appended (not in severity order) so that existing SARIF rule indices stay put.
  NO_CALL_EVENTS: 'error',
  UNMATCHED_INPUT: 'warning',
  SIGNATURE_CONFLICT: 'error',
  OUT_OF_RANGE: 'warning',
  SCOPES_FOLDED: 'note',
  /** `callpair merge` only; appended so the SARIF rule indices of the other codes stay put. */
  SPLIT_SCOPE: 'error',
  /** Appended so the SARIF rule indices of the other codes stay put. */
  DELIVERY_UNVERIFIED: 'error',
  /** Custom profiles: a time present in a record that the profile field could not read. */
  UNREADABLE_TIME: 'warning',
  /** A terminal stamped before its request: the clocks disagree; reported, never corrected. */
  CLOCK_SKEW: 'note',
  DUPLICATE_KEY: 'error',
  /** Custom profiles: a channel that declares an id, but no terminal ever paired by it (ids that never match, or a side without ids). */
  IDS_NEVER_MATCH: 'warning',
  /** A JSON document read element by element that JSON.parse would reject whole (or whose skeleton passed its bound): its records are not verified. */
  DOCUMENT_UNVERIFIED: 'error',
} as const satisfies Record<string, Severity>;

export type FindingCode = keyof typeof FINDING_CODES;
export const ALL_CODES = Object.keys(FINDING_CODES) as FindingCode[];
export const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, note: 2 };

export function isFindingCode(s: string): s is FindingCode {
  return Object.prototype.hasOwnProperty.call(FINDING_CODES, s);
}

/** What an invalid id may reveal: never its value. */
export interface InvalidIdInfo {
  field: string;
  reason: 'not-a-string' | 'too-long' | 'bad-characters' | 'not-a-string-or-number' | 'not-a-safe-integer' | 'empty';
  /** Length of the string, or of the JSON text of a non-string value. */
  length: number;
  /** First 12 hex digits of the SHA-256 of that text. */
  sha256: string;
}

/** Per-code data payloads: the discriminated union's second half. */
export interface FindingDataMap {
  ORPHAN_REQUEST: { caller: string; reason: 'end-of-input' | 'evicted'; ageMs: number | null; id: string | null; note?: string; tool?: string | null };
  ORPHAN_RESPONSE: { caller: string; reason: string; id: string | null; kind?: string; tool?: string | null; note?: string };
  AMBIGUOUS_PAIR: { caller: string; candidates: number; method: 'signature' | 'fifo' };
  CROSSED_PAIR: {
    shadow: 'fifo' | 'signature';
    terminalCaller: string;
    trueCaller: string;
    shadowCaller: string | null;
    /** The id as shown (model.ts `shownId`); null when it has no display form. */
    id: string | null;
  };
  DUPLICATE_ID: { id: string | null; caller: string };
  DUPLICATE_TERMINAL: { id: string | null; caller: string };
  INVALID_ID: InvalidIdInfo;
  /** More scopes than a channel holds state for: `folded` were folded into its totals (held: those kept, limit: the cap). */
  SCOPES_FOLDED: { folded: number; held: number; limit: number };
  /** A capture number outside its range (docs/design.md §2), treated as unknown; `value` is the number's text, null when it is not finite (1e999). */
  OUT_OF_RANGE: { field: string; value: string | null; min: number; max: number };
  /** A time a custom profile's field (`time`, `start`, `roles[1].time`, `duration`) could not read; names the profile field, never a key path. */
  UNREADABLE_TIME: { field: string };
  /**
   * A custom profile's channel declares an id, both sides have records, and not one terminal paired
   * by id: `never-match` (both sides carry ids, none equal: a number on one side and a string on the
   * other, another key) or `missing` (`side` never carries one: a wrong id path). `field`: the
   * profile field(s) of that side (`id`, `roles[1].id`), never a key path; counts are of events with an id.
   */
  IDS_NEVER_MATCH: { reason: 'never-match' | 'missing'; side: 'requests' | 'terminals' | 'both'; field: string; requestsWithId: number; terminalsWithId: number };
  /** Both times as the records state them (epoch ms); `skewMs`: how far the terminal is before its request. */
  CLOCK_SKEW: { requestTime: number; terminalTime: number; skewMs: number; id: string | null };
  /**
   * `unusable`: valid JSON that no profile could handle (counted as an ignored record);
   * `duplicate-key`: valid JSON holding twice a key a profile checks for repeats, when that
   * profile has no finding of its own for it (read as JSON.parse reads it: the last one).
   * `not-an-object` is never made (a value other than an object is an ignored record:
   * docs/inputs.md#lines-no-profile-reads); saved reports that hold it still validate.
   */
  MALFORMED_LINE: { reason: 'invalid-json' | 'truncated' | 'not-an-object' | 'unusable' | 'duplicate-key'; bytes: number };
  OVERSIZED_LINE: { bytes: number; limit: number };
  /** `path`: the input (or directory entry) that failed; `byteOffset`: bytes read from it before the failure. */
  INPUT_ERROR: { error: string; byteOffset: number | null; path?: string };
  UNSUPPORTED_SCHEMA: { schema: string };
  /**
   * One object of an Assay line (a decision record, a caller or upstream JSON-RPC message) holds a
   * key the audit reads twice (`key`: its dotted path, e.g. `method`, `params.name`): JSON.parse
   * reads the last one, a first-wins parser the first, so two parsers disagree about what was sent.
   * `document: 'split'`: a JSON document read element by element (docs/inputs.md, "Large
   * documents") holds a key of its split path twice in one object (`log.entries`): its records could
   * not be read as JSON.parse reads them (those read are the first array's, or none).
   */
  DUPLICATE_KEY: { key: string; document?: 'split' };
  /**
   * A JSON document over --max-line-bytes read element by element (docs/inputs.md, "Large
   * documents") that is not JSON as a whole (`invalid-json`: a byte outside its elements, a
   * separator of its array, or an element, is no JSON; `truncated`: cut short), or whose skeleton
   * (its bytes outside the elements) passed `limit` bytes (`skeleton-over-limit`: not known), or an
   * element passed `limit` bytes and was skipped unread (`element-over-limit`: its syntax and the
   * separators around it are not known): JSON.parse of the document may give no records, yet
   * `records` were read from it. Also any document whose top-level array is no JSON between its
   * elements (`separator`: a missing comma, a comma after `[`, after a comma or before `]`).
   */
  DOCUMENT_UNVERIFIED: { reason: 'invalid-json' | 'truncated' | 'skeleton-over-limit' | 'element-over-limit' | 'separator' | 'trailing'; records: number; limit: number };
  /** `kind: 'malformed'`: a field has the wrong JSON type; otherwise the record contradicts itself or its vocabulary. */
  INCONSISTENT_RECORD: { problems: string[]; kind?: 'inconsistent' | 'malformed' };
  /** `id`: the engine key the arrival and the deny record share (a correlation id, or `jsonrpc:…`); `deny`: where the deny record is. */
  /**
   * `ambiguous`: the arrival was paired with an allow, but no id tells it apart from this denied call
   * (an id shared by both, or none usable): it may be the denied call (docs/assay.md).
   */
  DENIED_BUT_DELIVERED: {
    tool: string | null;
    id: string | null;
    reason?: string | null;
    deny?: { path: string; line: number } | null;
    ambiguous?: true;
    /** The files look like several runs (repeated `initialize`, reused caller ids): give one run's files. */
    runs?: { callerHandshakes: number; upstreamHandshakes: number; callerIdsReused: number };
  };
  UNRECORDED_DELIVERY: { tool: string | null; id: string | null };
  /**
   * An id joined a terminal to requests whose required signature differs (another tool under one
   * correlation id): never a pair. `field` is the first differing signature field, with both values.
   */
  SIGNATURE_CONFLICT: { id: string; caller: string; field: string | null; request: string | null; terminal: string | null };
  /**
   * Nothing to audit: `inputs` read, `records` in them; `reason` `no-inputs` (an empty directory)
   * or `nothing-matched` (no record matched the profile `profile`). Off with --allow-empty.
   */
  NO_CALL_EVENTS: { reason: 'no-inputs' | 'nothing-matched'; inputs: number; records: number; profile: string };
  /**
   * An input none of whose records a profile used: `path`, its `records` and `lines`, and `role`
   * (`capture`, or assay's `caller`/`upstream`). `reason` `no-json-rpc`: a caller/upstream log that
   * holds no JSON-RPC message at all (so its silence is no evidence about deliveries).
   */
  UNMATCHED_INPUT: { path: string; role: 'capture' | 'caller' | 'upstream'; records: number; lines: number; reason?: 'no-json-rpc' };
  /** `callpair merge`: the scope is listed by more than one shard report (calls crossing shards could not pair). */
  SPLIT_SCOPE: { reports: number };
  /**
   * The Assay delivery audit could not see everything it needs, so its verdict is "unverified"
   * (docs/assay.md, "Exact, or fail closed"): `cause` is one of UNVERIFIED_CAUSES, `count` how many
   * lines, records or files it concerns (`locations` shows the first few); `path` the file when one
   * file is the cause; `reason` what made a line unread; `window` and `bound` the bound reached.
   */
  DELIVERY_UNVERIFIED: { cause: UnverifiedCause; count: number; path?: string | null; reason?: string; window?: string; bound?: number };
}

/** Why the Assay delivery audit is unverified (DELIVERY_UNVERIFIED `cause`; docs/assay.md lists each). */
export const UNVERIFIED_CAUSES = [
  'unread-line',
  'evicted',
  'window',
  'deny-without-id',
  'deny-not-in-caller-log',
  'caller-log-empty',
  'ambiguous-pairing',
  'no-json-rpc',
  'method-spelling',
  'keyless-arrival',
  'key-case',
] as const;
export type UnverifiedCause = (typeof UNVERIFIED_CAUSES)[number];

export type Finding = {
  [C in FindingCode]: {
    code: C;
    severity: (typeof FINDING_CODES)[C];
    channel: string | null;
    scope: string | null;
    /** Filled when the report is built, from `code` + `data` (report/messages.ts). */
    message: string;
    locations: Loc[];
    data: FindingDataMap[C];
  };
}[FindingCode];

export type FindingOf<C extends FindingCode> = Extract<Finding, { code: C }>;

/**
 * Every string of a finding's data, however deep, clipped with the one clip rule (profiles/clip.ts):
 * a finding is made here and only here, so no profile can forget to bound what it echoes (a deny
 * `reason`, a problem text, an id). Plain data only: arrays and plain objects are copied.
 */
function clipData<T>(v: T): T {
  if (typeof v === 'string') return clipText(v) as T;
  if (Array.isArray(v)) return v.map(clipData) as T;
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) out[keys[i]!] = clipData((v as Record<string, unknown>)[keys[i]!]);
    return out as T;
  }
  return v;
}

/** Makes a finding (its data's strings clipped); the message is filled in when the report is assembled. */
export function finding<C extends FindingCode>(
  code: C,
  where: { channel?: string | null; scope?: string | null; locations: Loc[] },
  data: FindingDataMap[C],
): FindingOf<C> {
  return {
    code,
    severity: FINDING_CODES[code],
    channel: where.channel ?? null,
    scope: where.scope === undefined || where.scope === null ? null : clipText(where.scope),
    message: '',
    locations: where.locations,
    data: clipData(data),
  } as unknown as FindingOf<C>;
}

/**
 * The order of a code's findings (docs/scale-out.md): by first location — path in input order
 * (byte order with `/` lowest, the order a directory is walked in), then line — then by content.
 * A total order on what a finding says, so the first N of a code are the same whether one run sees
 * every input or `callpair merge` combines shard reports in any grouping.
 */
export function compareFindings(a: Finding, b: Finding): number {
  const la = a.locations[0];
  const lb = b.locations[0];
  if (la && lb) {
    const c = comparePaths(la.path, lb.path) || la.line - lb.line;
    if (c !== 0) return c;
  } else if (la || lb) return la ? 1 : -1; // located findings after the unlocated (directory walk errors)
  const x = findingKey(a);
  const y = findingKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const keys = new WeakMap<Finding, string>();
function findingKey(f: Finding): string {
  let k = keys.get(f);
  if (k === undefined) keys.set(f, (k = JSON.stringify([f.channel, f.scope, f.locations, f.data])));
  return k;
}

/** Paths in the order a directory walk reads them: byte order, `/` below every other character. */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  const x = a.replaceAll('/', '\u0000');
  const y = b.replaceAll('/', '\u0000');
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Codes in the order every view lists them: errors first, then warnings, then notes; code order within a severity. */
export function bySeverity<C extends FindingCode>(codes: readonly C[]): C[] {
  return [...codes].sort((a, b) => SEVERITY_RANK[FINDING_CODES[a]] - SEVERITY_RANK[FINDING_CODES[b]] || ALL_CODES.indexOf(a) - ALL_CODES.indexOf(b));
}

/** The first `max` of a list in `compareFindings` order (the list is sorted in place). */
export function firstFindings(list: Finding[], max: number): Finding[] {
  list.sort(compareFindings);
  if (list.length > max) list.length = max;
  return list;
}

/**
 * Counts every finding and keeps the first `max` of each code in `compareFindings` order, so a
 * capture with a million orphans still gives a small report. Deterministic.
 */
export class FindingCollector {
  readonly counts = new Map<FindingCode, number>();
  private readonly kept = new Map<FindingCode, Finding[]>();
  /** Per code, once trimmed: the last kept finding; anything after it in the order can never be kept. */
  private readonly bound = new Map<FindingCode, Finding>();
  /** `listener`: told of every finding as it is added, before the cap trims the list. */
  constructor(
    private readonly max: number,
    private readonly listener?: (f: Finding) => void,
  ) {}

  add(f: Finding): void {
    this.listener?.(f);
    const n = (this.counts.get(f.code) ?? 0) + 1;
    this.counts.set(f.code, n);
    if (this.max === 0) return;
    const b = this.bound.get(f.code);
    if (b !== undefined && compareFindings(f, b) >= 0) return;
    let list = this.kept.get(f.code);
    if (!list) this.kept.set(f.code, (list = []));
    list.push(f);
    // Findings mostly arrive in order; trimming at twice the cap keeps memory bounded.
    if (list.length >= 2 * this.max + 64) {
      firstFindings(list, this.max);
      this.bound.set(f.code, list[this.max - 1]!);
    }
  }

  /**
   * Counts a finding of `code` whose first location is `at` without it being made, when `add`
   * would count it and keep nothing (the first `max` of its code all come before `at`); false:
   * make it and `add` it. Lets a caller skip building findings nobody will see (a crossed pair on
   * every other line).
   */
  skip(code: FindingCode, at: Loc): boolean {
    if (this.max !== 0) {
      const lb = this.bound.get(code)?.locations[0];
      if (lb === undefined || (comparePaths(at.path, lb.path) || at.line - lb.line) <= 0) return false;
    }
    this.counts.set(code, (this.counts.get(code) ?? 0) + 1);
    return true;
  }

  count(code: FindingCode): number {
    return this.counts.get(code) ?? 0;
  }

  /** Kept findings: by severity, then code order, then `compareFindings`. */
  list(): Finding[] {
    const out: Finding[] = [];
    const codes = bySeverity(ALL_CODES.filter((c) => this.kept.has(c)));
    for (const c of codes) append(out, firstFindings(this.kept.get(c) ?? [], this.max));
    return out;
  }

  /** Counts in code order, for the report (a fresh object, known keys only). */
  countsObject(): Partial<Record<FindingCode, number>> {
    const o: Partial<Record<FindingCode, number>> = {};
    for (const c of ALL_CODES) {
      const n = this.counts.get(c);
      if (n) o[c] = n;
    }
    return o;
  }
}
