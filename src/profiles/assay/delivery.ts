/**
 * The delivery audit: an upstream arrival no allow record took is an orphan response of
 * `delivery`; it is DENIED_BUT_DELIVERED when its key belongs to a deny record, else
 * UNRECORDED_DELIVERY.
 */
import type { OrphanResponseRecord } from '../../model.js';
import { finding } from '../../report/findings.js';
import type { ProfileContext } from '../types.js';
import { DELIVERY_CHANNEL } from './channels.js';
import type { AssayRun } from './run.js';

export function classifyArrival(run: AssayRun, o: OrphanResponseRecord, ctx: ProfileContext): void {
  if (o.channel !== DELIVERY_CHANNEL.name) return;
  const t = o.terminal;
  const entry = t.id !== null ? run.denyKeys.get(t.id) : undefined;
  if (entry) {
    run.deniedArrivals++;
    if (!entry.arrived) {
      entry.arrived = true;
      run.denyArrived++;
    }
    ctx.finding(
      finding(
        'DENIED_BUT_DELIVERED',
        { channel: DELIVERY_CHANNEL.name, scope: o.scope, locations: [t.loc, entry.loc] },
        { tool: t.attrs.tool ?? entry.tool, id: t.id, reason: entry.reason, deny: entry.loc },
      ),
    );
  } else {
    run.unrecordedArrivals++;
    ctx.finding(finding('UNRECORDED_DELIVERY', { channel: DELIVERY_CHANNEL.name, scope: o.scope, locations: [t.loc] }, { tool: t.attrs.tool ?? null, id: t.id }));
  }
}
