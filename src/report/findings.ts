/**
 * Findings: typed data with stable codes. No prose lives here; formatters (and `messages.ts`)
 * turn `code` + `data` into text.
 */
import type { Loc } from '../model.js';

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
  reason: 'not-a-string' | 'too-long' | 'bad-characters' | 'not-a-string-or-number';
  /** Length of the string, or of the JSON text of a non-string value. */
  length: number;
  /** First 12 hex digits of the SHA-256 of that text. */
  sha256: string;
}

/** Per-code data payloads: the discriminated union's second half. */
export interface FindingDataMap {
  ORPHAN_REQUEST: { caller: string; reason: 'end-of-input' | 'evicted'; ageMs: number | null; id: string | null; note?: string; tool?: string | null };
  ORPHAN_RESPONSE: { caller: string; reason: string; id: string | null; kind?: string; tool?: string | null };
  AMBIGUOUS_PAIR: { caller: string; candidates: number; method: 'signature' | 'fifo' };
  CROSSED_PAIR: {
    shadow: 'fifo' | 'signature';
    terminalCaller: string;
    trueCaller: string;
    shadowCaller: string | null;
    id: string;
  };
  DUPLICATE_ID: { id: string; caller: string };
  DUPLICATE_TERMINAL: { id: string; caller: string };
  INVALID_ID: InvalidIdInfo;
  /**
   * `unusable`: valid JSON that no profile could handle (counted as an ignored record);
   * `duplicate-key` (`--validate-all`): valid JSON holding a key the reader classifies by twice at
   * top level (read as JSON.parse reads it, the last one; the fast path reads the first).
   */
  MALFORMED_LINE: { reason: 'invalid-json' | 'truncated' | 'not-an-object' | 'unusable' | 'duplicate-key'; bytes: number };
  OVERSIZED_LINE: { bytes: number; limit: number };
  /** `path`: the input (or directory entry) that failed; `byteOffset`: bytes read from it before the failure. */
  INPUT_ERROR: { error: string; byteOffset: number | null; path?: string };
  UNSUPPORTED_SCHEMA: { schema: string };
  /** `kind: 'malformed'`: a field has the wrong JSON type; otherwise the record contradicts itself or its vocabulary. */
  INCONSISTENT_RECORD: { problems: string[]; kind?: 'inconsistent' | 'malformed' };
  /** `id`: the engine key the arrival and the deny record share (a correlation id, or `jsonrpc:…`); `deny`: where the deny record is. */
  DENIED_BUT_DELIVERED: { tool: string | null; id: string | null; reason?: string | null; deny?: { path: string; line: number } | null };
  UNRECORDED_DELIVERY: { tool: string | null; id: string | null };
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
}

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

/** Makes a finding; the message is filled in when the report is assembled. */
export function finding<C extends FindingCode>(
  code: C,
  where: { channel?: string | null; scope?: string | null; locations: Loc[] },
  data: FindingDataMap[C],
): FindingOf<C> {
  return {
    code,
    severity: FINDING_CODES[code],
    channel: where.channel ?? null,
    scope: where.scope ?? null,
    message: '',
    locations: where.locations,
    data,
  } as unknown as FindingOf<C>;
}

/**
 * Counts every finding and keeps the first `max` of each code, so a capture with a million
 * orphans still gives a small report. Deterministic: input order.
 */
export class FindingCollector {
  readonly counts = new Map<FindingCode, number>();
  private readonly kept = new Map<FindingCode, Finding[]>();
  constructor(private readonly max: number) {}

  add(f: Finding): void {
    const n = (this.counts.get(f.code) ?? 0) + 1;
    this.counts.set(f.code, n);
    if (n <= this.max) {
      let list = this.kept.get(f.code);
      if (!list) this.kept.set(f.code, (list = []));
      list.push(f);
    }
  }

  count(code: FindingCode): number {
    return this.counts.get(code) ?? 0;
  }

  /** Kept findings: by severity, then code order, then input order. */
  list(): Finding[] {
    const out: Finding[] = [];
    const codes = ALL_CODES.filter((c) => this.kept.has(c)).sort(
      (a, b) => SEVERITY_RANK[FINDING_CODES[a]] - SEVERITY_RANK[FINDING_CODES[b]] || ALL_CODES.indexOf(a) - ALL_CODES.indexOf(b),
    );
    for (const c of codes) out.push(...(this.kept.get(c) ?? []));
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
