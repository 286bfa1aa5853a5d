/**
 * The state of one assay run (one `assayProfile()` instance): its options and every count the
 * handlers keep. Nothing is module-level: two runs never share state.
 */
import type { Loc } from '../../model.js';
import type { FindingDataMap, UnverifiedCause } from '../../report/findings.js';
import type { IdKey } from '../event.js';
import { type AssayOptions, DEFAULT_CORRELATION_KEY, DEFAULT_WINDOW, type DenyEntry, MAX_TOOLS, MAX_UNVERIFIED_LOCATIONS, type Suspect } from './options.js';
import { bump, TakeLists } from './windows.js';

/** One DELIVERY_UNVERIFIED finding in the making: its data and the first locations. */
export interface UnverifiedEntry {
  data: FindingDataMap['DELIVERY_UNVERIFIED'];
  locations: Loc[];
}

export class AssayRun {
  readonly roles: NonNullable<AssayOptions['roles']>;
  /** `decision` is evaluated with a caller log, `delivery` with an upstream log. */
  readonly decisionEval: boolean;
  readonly deliveryEval: boolean;
  /** An upstream log was given (read or not): the delivery audit was asked for. */
  readonly auditAsked: boolean;
  /** The `_meta` key of the correlation id, and the field name findings give it. */
  readonly key: string;
  readonly keyField: string;
  readonly window: number;
  readonly maxOpenCalls: number | null;
  /** Pairing by order on `decision` / `delivery` crosses files: no pair without an id is surer than `ambiguous`. */
  readonly decisionAcrossFiles: boolean;
  readonly deliveryAcrossFiles: boolean;
  readonly unusableLogs: ReadonlyArray<{ role: string; path: string }>;
  readonly skippedLogs: ReadonlyArray<{ role: string; path: string }>;

  // Validation and counts.
  records = 0;
  valid = 0;
  malformed = 0;
  unsupported = 0;
  inconsistent = 0;
  otherAssay = 0;
  readonly byDecision = { allow: 0, deny: 0, other: 0 };
  readonly byReason = new Map<string, number>();
  readonly byTool = new Map<string, number>();
  toolsOmitted = 0;
  readonly corr = { present: 0, absent: 0, invalid: 0, duplicated: 0 };
  /** Correlation ids seen (for `duplicated`); full at `window`: the count is then unknown. */
  readonly seenCorr = new Set<string>();
  seenCorrFull = false;
  recordsWithoutId = 0;
  // JSON-RPC.
  callerCalls = 0;
  upstreamCalls = 0;
  establishSkipped = 0;
  /** `tools/call`-shaped lines whose method is spelled otherwise (`TOOLS/CALL`): ignored, counted, the first located. */
  methodSpellings = 0;
  methodSpellingFirst: Loc | null = null;
  /** `initialize` requests per log: more than one is several runs in one file set. */
  readonly handshakes = { caller: 0, upstream: 0 };
  /** Caller JSON-RPC ids seen, and how many calls reused one (several runs, or a caller bug). */
  readonly callerIds = new Set<string>();
  callerIdsFull = false;
  callerIdsReused = 0;
  /** Chaining: caller request (by its Loc object) → the key its forwarded line would arrive with. */
  readonly chain = new WeakMap<Loc, IdKey>();
  // Delivery audit.
  readonly denyKeys = new Map<string, DenyEntry>();
  /** Deny records no key recognises, by sanitised tool name (bounded by `window` in all). */
  readonly uncheckedDenies: TakeLists<DenyEntry>;
  /** Deny records a key recognises, by sanitised tool name (bounded by `window` in all): a key-less arrival of their tool may be one. */
  readonly keyedDenies: TakeLists<DenyEntry>;
  /** Sanitised tool names of deny records (at most `window`; past it every tool counts as denied). */
  readonly denyTools = new Set<string>();
  denyToolsFull = false;
  /** Sanitised tool names of allow records (bounded like `denyTools`). */
  readonly allowTools = new Set<string>();
  allowToolsFull = false;
  /** Decision records without a correlation id paired with their caller call by order among several candidates (bounded by `window`). */
  readonly orderPaired: Array<{ loc: Loc; tool: string; decision: 'allow' | 'deny' }> = [];
  /** Paired arrivals a deny record could explain, judged at the end (bounded by `window`). */
  readonly suspects: Suspect[] = [];
  allowRecords = 0;
  allowArrived = 0;
  denyRecords = 0;
  denyArrived = 0;
  denyUnchecked = 0;
  deniedArrivals = 0;
  unrecordedArrivals = 0;
  /** Why the delivery audit is unverified, in the order first met (one finding each). */
  readonly unverified = new Map<string, UnverifiedEntry>();

  constructor(opts: AssayOptions) {
    this.roles = opts.roles ?? {};
    const hasCapture = this.roles.capture ?? true;
    this.decisionEval = hasCapture && this.roles.caller === true;
    this.deliveryEval = hasCapture && this.roles.upstream === true;
    this.unusableLogs = opts.unusableLogs ?? [];
    this.skippedLogs = opts.skippedLogs ?? [];
    this.auditAsked = hasCapture && (this.roles.upstream === true || this.unusableLogs.some((u) => u.role === 'upstream'));
    this.key = typeof opts.correlationKey === 'string' && opts.correlationKey !== '' ? opts.correlationKey : DEFAULT_CORRELATION_KEY;
    this.keyField = `params._meta[${JSON.stringify(this.key)}]`;
    this.window = typeof opts.window === 'number' && opts.window > 0 ? opts.window : DEFAULT_WINDOW;
    this.maxOpenCalls = typeof opts.maxOpenCalls === 'number' ? opts.maxOpenCalls : null;
    const files = opts.roleFiles ?? {};
    const capture = files.capture ?? 0;
    this.decisionAcrossFiles = capture > 1 || (files.caller ?? 0) > 1;
    this.deliveryAcrossFiles = capture > 1 || (files.upstream ?? 0) > 1;
    this.uncheckedDenies = new TakeLists<DenyEntry>(this.window, (e) => e.arrived);
    this.keyedDenies = new TakeLists<DenyEntry>(this.window, (e) => e.arrived);
  }

  /** Remembers that a deny record of `tool` (sanitised) exists. */
  addDenyTool(tool: string): void {
    if (this.denyTools.has(tool)) return;
    if (this.denyTools.size < this.window) this.denyTools.add(tool);
    else this.denyToolsFull = true;
  }

  /** Remembers that an allow record of `tool` (sanitised) exists. */
  addAllowTool(tool: string): void {
    if (this.allowTools.has(tool)) return;
    if (this.allowTools.size < this.window) this.allowTools.add(tool);
    else this.allowToolsFull = true;
  }

  /** Could an allow record be of `tool`? (Unknown past the bound: yes.) */
  allowsTool(tool: string): boolean {
    return this.allowToolsFull || this.allowTools.has(tool);
  }

  /** Could a deny record be of `tool`? (Unknown past the bound: yes.) */
  deniesTool(tool: string): boolean {
    return this.denyToolsFull || this.denyTools.has(tool);
  }

  countTool(tool: string | null): void {
    if (tool === null) return;
    if (this.byTool.has(tool) || this.byTool.size < MAX_TOOLS) bump(this.byTool, tool);
    else this.toolsOmitted++;
  }

  /** A reason the delivery audit cannot be exact; entries of one cause, path, reason and window are counted together. */
  unverify(cause: UnverifiedCause, loc: Loc | null, extra: Omit<FindingDataMap['DELIVERY_UNVERIFIED'], 'cause' | 'count'> = {}): void {
    const k = JSON.stringify([cause, extra.path ?? null, extra.reason ?? null, extra.window ?? null]);
    let e = this.unverified.get(k);
    if (!e) {
      e = { data: { cause, count: 0, ...extra }, locations: [] };
      this.unverified.set(k, e);
    }
    e.data.count++;
    if (loc && e.locations.length < MAX_UNVERIFIED_LOCATIONS) e.locations.push(loc);
  }

  /** Is this the several runs of one file set? (Repeated handshakes, reused caller ids.) */
  severalRuns(): boolean {
    return this.handshakes.caller > 1 || this.handshakes.upstream > 1 || this.callerIdsReused > 0;
  }
}
