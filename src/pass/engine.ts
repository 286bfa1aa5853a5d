/**
 * Stage 4, engine: the pairing engine over the profiles' channels, its sink (findings, the failed
 * count per channel, the listeners of AnalyzeOptions, the profiles' orphan hooks, the timeline), and
 * the context profiles emit events into.
 */
import { isFailed, type ChannelSpec } from '../model.js';
import { DEFAULT_MAX_HELD_SCOPES, PairingEngine, type EngineSink } from '../engine/engine.js';
import type { FindingCollector, Finding } from '../report/findings.js';
import { TimelineCollector } from '../report/timeline.js';
import { channelSpecs, type Profile } from '../profiles/index.js';
import type { ProfileContext } from '../profiles/types.js';
import { DEFAULT_CLOSED_WINDOW, DEFAULT_MAX_OPEN_CALLS, type AnalyzeOptions } from './options.js';

export interface Pass {
  engine: PairingEngine;
  /** What profiles emit events and findings into. */
  ctx: ProfileContext;
  specs: ReadonlyMap<string, ChannelSpec>;
  /** Failed outcomes per channel, counted once from each channel's declaration (every format shows this count). */
  failed: ReadonlyMap<string, number>;
  timeline: TimelineCollector | null;
}

export function wireEngine(opts: AnalyzeOptions, profiles: readonly Profile[], collector: FindingCollector): Pass {
  const specs = channelSpecs(profiles);
  opts.onChannels?.(specs);
  const channelOwner = new Map(profiles.flatMap((p) => p.channels.map((c) => [c.name, p] as const)));
  const failed = new Map<string, number>();
  // The collector tells opts.onFinding of every finding (analyze.ts), the reader's too.
  const addFinding = (f: Finding) => collector.add(f);
  const sink: EngineSink = {
    finding: addFinding,
    // A listener sees every finding: then each is made.
    skipFinding: opts.onFinding ? undefined : (code, at) => collector.skip(code, at),
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
  return { engine, ctx, specs, failed, timeline };
}

/** The end of the input: profiles emit what they held back, then the engine closes what is open. */
export function finishPass(profiles: readonly Profile[], pass: Pass): void {
  for (const p of profiles) p.finish?.(pass.ctx);
  pass.engine.finish();
}

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
