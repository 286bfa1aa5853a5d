/**
 * The state of one assay run (one `assayProfile()` instance): its options and every count the
 * handlers keep. Nothing is module-level: two runs never share state.
 */
import type { Loc } from '../../model.js';
import type { IdKey } from '../event.js';
import { type AssayOptions, DEFAULT_CORRELATION_KEY, DEFAULT_WINDOW, type DenyEntry, MAX_TOOLS, type Suspect } from './options.js';
import { bump } from './windows.js';

export class AssayRun {
  readonly roles: NonNullable<AssayOptions['roles']>;
  /** `decision` is evaluated with a caller log, `delivery` with an upstream log. */
  readonly decisionEval: boolean;
  readonly deliveryEval: boolean;
  /** The `_meta` key of the correlation id, and the field name findings give it. */
  readonly key: string;
  readonly keyField: string;
  readonly window: number;

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
  readonly seenCorr = new Map<string, true>();
  recordsWithoutId = 0;
  // JSON-RPC.
  callerCalls = 0;
  upstreamCalls = 0;
  establishSkipped = 0;
  /** Chaining: caller request (by its Loc object) → the key its forwarded line would arrive with. */
  readonly chain = new WeakMap<Loc, IdKey>();
  // Delivery audit.
  readonly denyKeys = new Map<string, DenyEntry>();
  /** Deny records no key recognises, by sanitised tool name (bounded by `window` in all). */
  readonly uncheckedDenies = new Map<string, DenyEntry[]>();
  uncheckedRemembered = 0;
  /** Paired arrivals a deny record could explain, judged at the end (bounded by `window`). */
  readonly suspects: Suspect[] = [];
  allowRecords = 0;
  allowArrived = 0;
  denyRecords = 0;
  denyArrived = 0;
  denyUnchecked = 0;
  deniedArrivals = 0;
  unrecordedArrivals = 0;

  constructor(opts: AssayOptions) {
    this.roles = opts.roles ?? {};
    const hasCapture = this.roles.capture ?? true;
    this.decisionEval = hasCapture && this.roles.caller === true;
    this.deliveryEval = hasCapture && this.roles.upstream === true;
    this.key = typeof opts.correlationKey === 'string' && opts.correlationKey !== '' ? opts.correlationKey : DEFAULT_CORRELATION_KEY;
    this.keyField = `params._meta[${JSON.stringify(this.key)}]`;
    this.window = typeof opts.window === 'number' && opts.window > 0 ? opts.window : DEFAULT_WINDOW;
  }

  countTool(tool: string | null): void {
    if (tool === null) return;
    if (this.byTool.has(tool) || this.byTool.size < MAX_TOOLS) bump(this.byTool, tool);
    else this.toolsOmitted++;
  }
}
