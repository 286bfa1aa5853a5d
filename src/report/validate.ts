/**
 * Validation of a `callpair.report.v1` read back from a file (render, diff, merge, `--baseline`;
 * docs/report.md, "Reading a saved report"). A saved report is input, possibly hostile (a CI
 * artifact from another job): the formatters and the merge were written for reports `analyze`
 * made, so before any of them sees one, every fixed-vocabulary field is checked against its
 * vocabulary (finding codes with their severities, gate check names and ops, enums), every number
 * the views print is a finite number of the right kind, and every name that is printed unescaped
 * (channel names, input profiles, the tool version) has its safe shape. Capture-derived strings
 * (scopes, callers, ids, paths, messages) stay free text: each formatter escapes them for its medium.
 *
 * One pass over the parsed report, linear in its size; a path to the value is built only for the
 * problem reported.
 */
import { CONFIDENCES, METHODS } from '../model.js';
import { NAME_SHAPE } from '../profiles/lang/spec.js';
import { FINDING_CODES, isFindingCode, UNVERIFIED_CAUSES, type FindingCode } from './findings.js';
import { GATE_CHECKS, GATE_UNKNOWNS, SEVERITIES } from './gate.js';
import { REPORT_SCHEMA } from './report.js';

/** A tool version: semver-like, short, nothing a terminal or a markup language acts on. */
export const VERSION_SHAPE = /^[0-9]{1,9}\.[0-9]{1,9}\.[0-9]{1,9}(?:-[0-9A-Za-z-]{1,20}(?:\.[0-9A-Za-z-]{1,20}){0,4})?(?:\+[0-9A-Za-z-]{1,20}(?:\.[0-9A-Za-z-]{1,20}){0,4})?$/;

/** Where a value is: built into `findings[0].code` only when a problem is reported. */
type Where = { up: Where; key: string | number } | null;

class Invalid extends Error {
  constructor(
    readonly where: Where,
    readonly problem: string,
  ) {
    super(problem);
  }
}

function whereText(w: Where): string {
  const parts: string[] = [];
  for (let x = w; x !== null; x = x.up) parts.push(typeof x.key === 'number' ? `[${x.key}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(x.key) ? `.${x.key}` : `[${JSON.stringify(x.key.slice(0, 40))}]`);
  return parts.reverse().join('').replace(/^\./, '');
}

type Check = (v: unknown, w: Where) => void;
const at = (w: Where, key: string | number): Where => ({ up: w, key });
const bad = (w: Where, problem: string): never => {
  throw new Invalid(w, problem);
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const str: Check = (v, w) => {
  if (typeof v !== 'string') bad(w, 'must be a string');
};
const bool: Check = (v, w) => {
  if (typeof v !== 'boolean') bad(w, 'must be true or false');
};
const uint: Check = (v, w) => {
  if (!Number.isSafeInteger(v) || (v as number) < 0) bad(w, 'must be a whole number ≥ 0');
};
const finite: Check = (v, w) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(w, 'must be a finite number');
};
const rate: Check = (v, w) => {
  if (typeof v !== 'number' || !(v >= 0 && v <= 1)) bad(w, 'must be a number from 0 to 1');
};
/** Epoch milliseconds a Date can hold (formatters write them as ISO 8601). */
const epochMs: Check = (v, w) => {
  if (typeof v !== 'number' || !(Math.abs(v) <= 8.64e15)) bad(w, 'must be a time (epoch milliseconds)');
};
const name: Check = (v, w) => {
  if (typeof v !== 'string' || !NAME_SHAPE.test(v)) bad(w, 'not a valid name (1–64 letters, digits, _ . or -, starting with a letter or digit)');
};
/**
 * An input's profile (src/pass/reader.ts): `none`, or the names of the profiles that read its
 * records, sorted and joined by `+` (`amplifier+jsonrpc`): each part by the name rule, which has no `+`.
 */
const inputProfile: Check = (v, w) => {
  if (typeof v !== 'string' || !v.split('+').every((p) => NAME_SHAPE.test(p))) bad(w, 'not a valid name (1–64 letters, digits, _ . or -, starting with a letter or digit; several joined by +)');
};
/** A label a profile declares (profiles/lang/spec.ts `label`; built-in labels fit too). */
const label: Check = (v, w) => {
  if (typeof v !== 'string' || !/^[A-Za-z0-9_ ./-]{1,40}$/.test(v)) bad(w, 'not a valid label (1–40 letters, digits, spaces or _ . / -)');
};
const nullable =
  (c: Check): Check =>
  (v, w) => {
    if (v !== null) c(v, w);
  };
const oneOf = (values: readonly string[]): Check => {
  const set = new Set(values);
  return (v, w) => {
    if (typeof v !== 'string' || !set.has(v)) bad(w, `must be one of ${values.join(', ')}`);
  };
};
const arr =
  (item: Check): Check =>
  (v, w) => {
    if (!Array.isArray(v)) bad(w, 'must be a list');
    const a = v as unknown[];
    for (let i = 0; i < a.length; i++) item(a[i], at(w, i));
  };
/** An object with these fields (`opt`: checked when present); other fields are allowed (fields may be added). */
const obj =
  (fields: Record<string, Check>, opt: Record<string, Check> = {}): Check =>
  (v, w) => {
    if (!isObject(v)) bad(w, 'must be an object');
    const o = v as Record<string, unknown>;
    for (const k in fields) {
      if (!Object.prototype.hasOwnProperty.call(o, k)) bad(at(w, k), 'missing');
      fields[k]!(o[k], at(w, k));
    }
    for (const k in opt) if (Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined) opt[k]!(o[k], at(w, k));
  };
/** An object whose keys are finding codes, each with a whole number. */
const codeCounts: Check = (v, w) => {
  if (!isObject(v)) bad(w, 'must be an object');
  for (const [k, n] of Object.entries(v as Record<string, unknown>)) {
    if (!isFindingCode(k)) bad(at(w, k), 'not a known finding code');
    uint(n, at(w, k));
  }
};

/** `pointer`: where a record sits inside the JSON value at that line (RFC 6901), for records found at a `records` path. */
const loc = obj({ path: str, line: uint }, { pointer: str });
const severity = oneOf(SEVERITIES);
const code: Check = (v, w) => {
  if (typeof v !== 'string' || !isFindingCode(v)) bad(w, 'not a known finding code');
};

const latencyStats = obj({ count: uint, min: finite, p50: nullable(finite), p90: nullable(finite), p99: nullable(finite), max: finite, minAt: nullable(loc), maxAt: nullable(loc) });

const counters: Record<string, Check> = {
  requests: uint,
  terminals: uint,
  interims: uint,
  unattributedInterims: uint,
  redundant: uint,
  pairs: obj(
    { total: uint, byMethod: obj({ id: uint, signature: uint, fifo: uint }, { record: uint }), byConfidence: obj({ exact: uint, unambiguous: uint, ambiguous: uint }) },
  ),
  orphanRequests: uint,
  evictedRequests: uint,
  orphanResponses: uint,
  duplicateTerminals: uint,
  duplicateIds: uint,
  crossed: obj({ comparable: uint, fifo: uint, signature: uint, fifoRate: nullable(rate), signatureRate: nullable(rate) }),
  idCoverage: obj({ requests: nullable(rate), terminals: nullable(rate) }),
  maxInFlight: uint,
  negativeLatencies: uint,
  latencyMs: nullable(latencyStats),
};

/** A channel's failure rule (model.ts `FailureRule`); nested `any` rules at most a few deep. */
function failureRule(depth: number): Check {
  return (v, w) => {
    if (!isObject(v)) bad(w, 'must be an object');
    const r = v as Record<string, unknown>;
    oneOf(['status-in', 'status-not-in', 'status-at-least', 'error-present', 'any'])(r.kind, at(w, 'kind'));
    if (r.kind === 'status-in' || r.kind === 'status-not-in') arr(str)(r.statuses, at(w, 'statuses'));
    else if (r.kind === 'status-at-least') finite(r.min, at(w, 'min'));
    else if (r.kind === 'any') {
      if (depth >= 4) bad(w, 'rules nested too deep');
      arr(failureRule(depth + 1))(r.rules, at(w, 'rules'));
    }
  };
}

const meaning = obj(
  {
    rowLabel: label,
    attribution: oneOf(['caller', 'tool', 'provider', 'model', 'group']),
    groupLabels: (v, w) => {
      arr(label)(v, w);
      if ((v as unknown[]).length > 2) bad(w, 'at most 2 labels');
    },
    failure: failureRule(0),
    idKind: oneOf(['correlation', 'protocol']),
  },
  { terminalOrder: oneOf(['arbitrary']), ids: oneOf(['undeclared']) },
);

const channel = obj({
  channel: name,
  ordered: bool,
  meaning,
  ...counters,
  failed: uint,
  scopeCount: uint,
  latencyByGroup: arr(obj({ group: nullable(str), subgroup: nullable(str), count: uint, min: finite, p50: nullable(finite), p90: nullable(finite), p99: nullable(finite), max: finite, minAt: nullable(loc), maxAt: nullable(loc) })),
  scopes: arr(obj({ scope: str, ...counters }, { zeroLatencies: uint })),
}, { scopesOmitted: uint, scopesFolded: uint, unsureOrphans: uint, unsureRepeats: uint, zeroLatencies: uint });

/** What each code's `data` holds (findings.ts `FindingDataMap`): enums checked, strings free text. */
const DATA: Record<FindingCode, Check> = {
  ORPHAN_REQUEST: obj({ caller: str, reason: oneOf(['end-of-input', 'evicted']), ageMs: nullable(finite), id: nullable(str) }, { note: str, tool: nullable(str) }),
  ORPHAN_RESPONSE: obj({ caller: str, reason: str, id: nullable(str) }, { kind: str, tool: nullable(str) }),
  AMBIGUOUS_PAIR: obj({ caller: str, candidates: uint, method: oneOf(METHODS) }),
  CROSSED_PAIR: obj({ shadow: oneOf(['fifo', 'signature']), terminalCaller: str, trueCaller: str, shadowCaller: nullable(str), id: nullable(str) }),
  DUPLICATE_ID: obj({ id: nullable(str), caller: str }),
  DUPLICATE_TERMINAL: obj({ id: nullable(str), caller: str }),
  INVALID_ID: obj({ field: str, reason: oneOf(['not-a-string', 'too-long', 'bad-characters', 'not-a-string-or-number', 'not-a-safe-integer', 'empty']), length: uint, sha256: str }),
  SCOPES_FOLDED: obj({ folded: uint, held: uint, limit: uint }),
  OUT_OF_RANGE: obj({ field: str, value: nullable(str), min: finite, max: finite }),
  UNREADABLE_TIME: obj({ field: str }),
  IDS_NEVER_MATCH: obj({ reason: oneOf(['never-match', 'missing']), side: oneOf(['requests', 'terminals', 'both']), field: str, requestsWithId: uint, terminalsWithId: uint }),
  CLOCK_SKEW: obj({ requestTime: epochMs, terminalTime: epochMs, skewMs: finite, id: nullable(str) }),
  MALFORMED_LINE: obj({ reason: oneOf(['invalid-json', 'truncated', 'not-an-object', 'unusable', 'duplicate-key']), bytes: uint }),
  OVERSIZED_LINE: obj({ bytes: uint, limit: uint }),
  INPUT_ERROR: obj({ error: str, byteOffset: nullable(uint) }, { path: str }),
  UNSUPPORTED_SCHEMA: obj({ schema: str }),
  DUPLICATE_KEY: obj({ key: str }, { document: oneOf(['split']) }),
  DOCUMENT_UNVERIFIED: obj({ reason: oneOf(['invalid-json', 'truncated', 'skeleton-over-limit', 'element-over-limit', 'separator', 'trailing']), records: uint, limit: uint }),
  INCONSISTENT_RECORD: obj({ problems: arr(str) }, { kind: oneOf(['inconsistent', 'malformed']) }),
  DENIED_BUT_DELIVERED: obj(
    { tool: nullable(str), id: nullable(str) },
    { reason: nullable(str), deny: nullable(loc), runs: obj({ callerHandshakes: uint, upstreamHandshakes: uint, callerIdsReused: uint }) },
  ),
  UNRECORDED_DELIVERY: obj({ tool: nullable(str), id: nullable(str) }),
  NO_CALL_EVENTS: obj({ reason: oneOf(['no-inputs', 'nothing-matched']), inputs: uint, records: uint, profile: str }),
  UNMATCHED_INPUT: obj({ path: str, role: oneOf(['capture', 'caller', 'upstream']), records: uint, lines: uint }, { reason: oneOf(['no-json-rpc']) }),
  SIGNATURE_CONFLICT: obj({ id: str, caller: str, field: nullable(str), request: nullable(str), terminal: nullable(str) }),
  SPLIT_SCOPE: obj({ reports: uint }),
  DELIVERY_UNVERIFIED: obj({ cause: oneOf(UNVERIFIED_CAUSES), count: uint }, { path: nullable(str), reason: str, window: str, bound: uint }),
};

const finding: Check = (v, w) => {
  if (!isObject(v)) bad(w, 'must be an object');
  const f = v as Record<string, unknown>;
  code(f.code, at(w, 'code'));
  const c = f.code as FindingCode;
  if (f.severity !== FINDING_CODES[c]) bad(at(w, 'severity'), `must be ${FINDING_CODES[c]} (the severity of ${c})`);
  nullable(name)(f.channel, at(w, 'channel'));
  nullable(str)(f.scope, at(w, 'scope'));
  str(f.message, at(w, 'message'));
  arr(loc)(f.locations, at(w, 'locations'));
  DATA[c](f.data, at(w, 'data'));
};

const FAIL_ON_ITEMS = new Set<string>([...Object.keys(FINDING_CODES), ...SEVERITIES]);
const FIXED_CHECKS = new Set<string>(GATE_CHECKS);
const checkName: Check = (v, w) => {
  if (typeof v !== 'string' || !(FIXED_CHECKS.has(v) || (v.startsWith('fail-on:') && FAIL_ON_ITEMS.has(v.slice('fail-on:'.length))))) bad(w, 'not a known gate check');
};

const gate = obj({
  passed: bool,
  enforced: bool,
  checks: arr(obj({ name: checkName, limit: finite, actual: nullable(finite), passed: bool, op: oneOf(['<=', '>=']), codes: arr(code) }, { unknown: oneOf([...GATE_UNKNOWNS]), counted: oneOf(['new']) })),
}, { allowUnverified: (v, w) => { if (v !== true) bad(w, 'must be true when present'); } });

const failOnItem: Check = (v, w) => {
  if (typeof v !== 'string' || !FAIL_ON_ITEMS.has(v)) bad(w, 'not a finding code or a severity');
};

const run = obj(
  {
    profile: str,
    maxLineBytes: uint,
    validateAll: bool,
    maxFindings: uint,
    closedWindow: uint,
    maxOpenCalls: uint,
    maxScopes: nullable(uint),
    gate: obj({
      failOn: arr(failOnItem),
      maxCrossedRate: nullable(rate),
      maxOrphanRequests: nullable(uint),
      maxAmbiguous: nullable(uint),
      minIdCoverage: nullable(rate),
      noFail: bool,
    }, { allowUnverified: bool }),
  },
  { profileOptions: obj({}), profiles: arr(name), channels: arr(name), allowEmpty: bool },
);

const sketch = obj(
  { count: uint, min: finite, max: finite, minAt: nullable(loc), maxAt: nullable(loc) },
  {
    values: arr(finite),
    buckets: (v, w) => {
      arr((x, wx) => {
        if (!Array.isArray(x) || x.length !== 3) bad(wx, 'must be [bucket, count, smallest]');
        const b = x as unknown[];
        finite(b[0], at(wx, 0));
        uint(b[1], at(wx, 1));
        finite(b[2], at(wx, 2));
      })(v, w);
      // As a histogram writes them: each bucket once, ascending (a repeated one has no one meaning).
      const list = v as Array<[number, number, number]>;
      for (let i = 1; i < list.length; i++) if (!(list[i]![0] > list[i - 1]![0])) bad(at(w, i), 'must come after the bucket before it (ascending, each once)');
    },
  },
);

const mergeData = obj({ channels: arr(obj({ channel: name, requestsWithId: uint, terminalsWithId: uint, latency: nullable(sketch), groups: arr(sketch) })) });

const input = obj({
  path: str,
  format: oneOf(['jsonl', 'json']),
  gzip: bool,
  profile: inputProfile,
  lines: uint,
  records: uint,
  blank: uint,
  malformed: uint,
  oversized: uint,
  ignored: uint,
  duplicates: uint,
  used: uint,
  bytes: uint,
  error: nullable(obj({ message: str, byteOffset: uint })),
}, { unparsed: uint });

const totals = obj({ lines: uint, records: uint, ignored: uint, malformed: uint, oversized: uint, blank: uint, duplicates: uint }, { unparsed: uint });

const assaySummary = obj({
  records: uint,
  valid: uint,
  malformed: uint,
  unsupportedSchema: uint,
  inconsistent: uint,
  otherAssayRecords: uint,
  byDecision: obj({ allow: uint, deny: uint, other: uint }),
  byReason: arr(obj({ reason: str, count: uint })),
  byTool: arr(obj({ tool: str, count: uint })),
  toolsOmitted: uint,
  correlationIds: obj({ present: uint, absent: uint, invalid: uint, duplicated: nullable(uint) }),
  calls: obj({ caller: nullable(uint), upstream: nullable(uint), establishSkipped: uint }),
  delivery: nullable(
    obj({
      allow: obj({ records: uint, arrived: uint, notArrived: uint }),
      deny: obj({ records: uint, arrived: nullable(uint), notArrived: nullable(uint), unchecked: uint }),
      deniedArrivals: uint,
      unrecordedArrivals: uint,
    }),
  ),
}, { methodSpellings: obj({ count: uint, first: obj({ path: str, line: uint }) }) });

const records: Check = (v, w) => {
  if (!isObject(v)) bad(w, 'must be an object');
  for (const [k, section] of Object.entries(v as Record<string, unknown>)) {
    if (!NAME_SHAPE.test(k)) bad(at(w, k), 'not a valid profile name');
    if (k === 'assay') assaySummary(section, at(w, k));
    else if (!isObject(section)) bad(at(w, k), 'must be an object');
  }
};

const delta = obj({ base: nullable(finite), head: nullable(finite), delta: nullable(finite) });
const baseline = obj({
  counts: obj({ new: uint, fixed: uint, unchanged: uint }),
  states: arr(oneOf(['new', 'unchanged'])),
  fixed: arr(finding),
  newCounts: codeCounts,
  complete: bool,
  deltas: obj({ crossedRate: delta, orphanRequests: delta, orphanResponses: delta, ambiguous: delta, idCoverage: delta }),
  failOnNew: bool,
});

const point = obj({ loc, t: finite });
const timeline = obj({
  maxScopes: uint,
  maxCallsPerScope: uint,
  scopesTotal: uint,
  scopes: arr(
    obj({
      channel: name,
      scope: str,
      axis: oneOf(['time', 'input-order']),
      start: nullable(epochMs),
      span: finite,
      lanes: arr(str),
      counts: obj({ pairs: uint, orphanRequests: uint, orphanResponses: uint, crossedFifo: uint, ambiguous: uint, maxInFlight: uint }),
      calls: arr(
        obj({
          kind: oneOf(['pair', 'orphan-request', 'orphan-response']),
          lane: uint,
          caller: str,
          method: nullable(oneOf(METHODS)),
          confidence: nullable(oneOf(CONFIDENCES)),
          status: nullable(str),
          error: bool,
          timeout: bool,
          errorText: nullable(str),
          id: nullable(str),
          provider: nullable(str),
          model: nullable(str),
          tool: nullable(str),
          request: nullable(point),
          terminal: nullable(point),
          end: finite,
          latencyMs: nullable(finite),
          fifoPartner: nullable(uint),
          crossed: bool,
          reason: nullable(str),
        }),
      ),
      omittedCalls: nullable(obj({ count: uint, reason: str })),
      unlinkedCrossed: uint,
      partial: bool,
    }),
  ),
  omittedScopes: arr(obj({ count: uint, reason: oneOf(['past-limit', 'not-kept', 'no-calls']), withProblems: uint })),
  latency: arr(
    obj({
      channel: name,
      group: nullable(str),
      subgroup: nullable(str),
      buckets: arr((v, w) => {
        if (!Array.isArray(v) || v.length !== 2) bad(w, 'must be [lower bound, count]');
        finite((v as unknown[])[0], at(w, 0));
        uint((v as unknown[])[1], at(w, 1));
      }),
    }),
  ),
});

const report = obj(
  {
    schema: (v, w) => {
      if (v !== REPORT_SCHEMA) bad(w, `must be ${REPORT_SCHEMA}`);
    },
    tool: obj({
      name: (v, w) => {
        if (v !== 'callpair') bad(w, 'must be callpair');
      },
      version: (v, w) => {
        if (typeof v !== 'string' || !VERSION_SHAPE.test(v)) bad(w, 'not a version (like 1.2.3)');
      },
    }),
    inputs: arr(input),
    totals,
    channels: arr(channel),
    records,
    notes: arr(str),
    findings: arr(finding),
    findingCounts: codeCounts,
    findingsOmitted: codeCounts,
    gate,
  },
  { run, mergeData, baseline, timeline },
);

/**
 * The first problem of a report read from a file, as `findings[0].code: not a known finding code`,
 * or null when it is sound. Beyond shapes: no code lists more findings than `findingCounts` counts.
 */
export function reportProblem(r: unknown): string | null {
  try {
    report(r, null);
    const rep = r as { findings: Array<{ code: FindingCode }>; findingCounts: Partial<Record<FindingCode, number>> };
    const listed = new Map<FindingCode, number>();
    rep.findings.forEach((f, i) => {
      const n = (listed.get(f.code) ?? 0) + 1;
      listed.set(f.code, n);
      if (n > (rep.findingCounts[f.code] ?? 0)) bad(at(at(null, 'findings'), i), `more ${f.code} findings listed than findingCounts.${f.code} counts`);
    });
    return null;
  } catch (e) {
    if (e instanceof Invalid) {
      const w = whereText(e.where);
      return w === '' ? e.problem : `${w}: ${e.problem}`;
    }
    throw e;
  }
}
