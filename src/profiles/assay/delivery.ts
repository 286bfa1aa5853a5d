/**
 * The delivery audit (docs/assay.md): an upstream arrival no allow record took is an orphan
 * response of `delivery`; it is DENIED_BUT_DELIVERED when a deny record explains it (its key
 * belongs to a deny record, or, with the caller log, it has no key and a deny record of its tool
 * has none either), else UNRECORDED_DELIVERY. An arrival that was paired with an allow although a
 * deny record could explain it as well (a suspect) is judged at the end: if that deny record saw
 * no arrival of its own, no id tells the two calls apart, and the arrival is reported as a
 * DENIED_BUT_DELIVERED marked `ambiguous` (error): never silently absorbed by the allow.
 */
import type { OrphanRequestRecord, OrphanResponseRecord } from '../../model.js';
import { finding } from '../../report/findings.js';
import type { ProfileContext } from '../types.js';
import { DECISION_CHANNEL, DELIVERY_CHANNEL } from './channels.js';
import { type DenyEntry, RUN_SCOPE } from './options.js';
import type { AssayRun } from './run.js';

/** The oldest deny record without a key, of this tool, that no arrival was attributed to yet. */
function uncheckedDeny(run: AssayRun, tool: string): DenyEntry | undefined {
  return run.uncheckedDenies.first(tool);
}

/** An arrival is attributed to a deny record: the matrix counts that deny as arrived. */
function attribute(run: AssayRun, entry: DenyEntry): void {
  run.deniedArrivals++;
  if (entry.arrived) return;
  entry.arrived = true;
  run.denyArrived++;
  if (entry.unchecked) {
    entry.unchecked = false;
    run.denyUnchecked--;
  }
}

export function classifyArrival(run: AssayRun, o: OrphanResponseRecord, ctx: ProfileContext): void {
  if (o.channel !== DELIVERY_CHANNEL.name) return;
  const t = o.terminal;
  // Without a key, with the caller log: a deny record of its tool that has no key either.
  const entry = t.id !== null ? run.denyKeys.get(t.id) : run.decisionEval ? uncheckedDeny(run, t.attrs.tool ?? '') : undefined;
  if (entry) {
    attribute(run, entry);
    ctx.finding(
      finding(
        'DENIED_BUT_DELIVERED',
        { channel: DELIVERY_CHANNEL.name, scope: o.scope, locations: [t.loc, entry.loc] },
        { tool: t.attrs.tool ?? entry.tool, id: t.id, reason: entry.reason, deny: entry.loc, ...severalRuns(run) },
      ),
    );
  } else if (o.reason === 'id-evicted') {
    // Its allow record was read and evicted at --max-open-calls before it came: covered, not
    // unrecorded; the eviction already leaves the audit unverified (DELIVERY_UNVERIFIED evicted).
  } else {
    run.unrecordedArrivals++;
    ctx.finding(finding('UNRECORDED_DELIVERY', { channel: DELIVERY_CHANNEL.name, scope: o.scope, locations: [t.loc] }, { tool: t.attrs.tool ?? null, id: t.id }));
  }
}

/**
 * At the end of input: each paired arrival a deny record could explain, whose deny record saw no
 * arrival of its own, is a DENIED_BUT_DELIVERED marked `ambiguous` (one per deny record). When each
 * call arrived once (the allow's and the deny's), the second arrival was already classified and
 * nothing here is ambiguous.
 */
export function judgeSuspects(run: AssayRun, ctx: ProfileContext): void {
  for (const s of run.suspects) {
    // Without the caller log a deny without a key is already unverified (deny-without-id), as in classifyArrival.
    const entry = s.key !== null ? run.denyKeys.get(s.key) : run.decisionEval ? uncheckedDeny(run, s.tool) : undefined;
    if (!entry || entry.arrived) {
      // A key-less arrival taken by an allow on its tool alone, while a deny record of that tool
      // (one a key recognises) saw no arrival: nothing tells which call it was. Fail closed.
      if (s.key === null && (run.keyedDenies.first(s.tool) !== undefined || run.denyToolsFull)) run.unverify('keyless-arrival', s.loc, { path: s.loc.path });
      continue;
    }
    attribute(run, entry);
    ctx.finding(
      finding(
        'DENIED_BUT_DELIVERED',
        { channel: DELIVERY_CHANNEL.name, scope: RUN_SCOPE, locations: [s.loc, entry.loc] },
        { tool: s.tool !== '' ? s.tool : entry.tool, id: s.key, reason: entry.reason, deny: entry.loc, ambiguous: true, ...severalRuns(run) },
      ),
    );
  }
  run.suspects.length = 0;
}

/** The hint that the files hold several runs (named in DENIED_BUT_DELIVERED; docs/assay.md). */
function severalRuns(run: AssayRun): { runs?: { callerHandshakes: number; upstreamHandshakes: number; callerIdsReused: number } } {
  if (!run.severalRuns()) return {};
  return { runs: { callerHandshakes: run.handshakes.caller, upstreamHandshakes: run.handshakes.upstream, callerIdsReused: run.callerIdsReused } };
}

/** At the end of input: one DELIVERY_UNVERIFIED per cause (docs/assay.md, "Exact, or fail closed"). */
export function reportUnverified(run: AssayRun, ctx: ProfileContext): void {
  if (!run.auditAsked) return;
  for (const u of run.unusableLogs) run.unverify('no-json-rpc', { path: u.path, line: 1 }, { path: u.path, reason: u.role });
  // A file of a --caller/--upstream directory that the walk does not read (`upstream.jsonl.1`, `upstream.log`).
  for (const u of run.skippedLogs) run.unverify('unread-line', { path: u.path, line: 1 }, { path: u.path, reason: 'not-a-log' });
  for (const e of run.unverified.values()) {
    ctx.finding(finding('DELIVERY_UNVERIFIED', { channel: DELIVERY_CHANNEL.name, scope: RUN_SCOPE, locations: e.locations }, e.data));
  }
}

/** An open call evicted over --max-open-calls: every later pair by order may be shifted. */
export function evicted(run: AssayRun, o: OrphanRequestRecord): void {
  if (o.reason !== 'evicted' || (o.channel !== DELIVERY_CHANNEL.name && o.channel !== DECISION_CHANNEL.name)) return;
  run.unverify('evicted', o.request.loc, { window: o.channel, ...(run.maxOpenCalls !== null ? { bound: run.maxOpenCalls } : {}) });
}
