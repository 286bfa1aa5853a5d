/**
 * The profile registry: `--profile auto` (every profile, chosen per record) or one by name.
 */
import { amplifierProfile } from './amplifier.js';
import { assayProfile } from './assay/index.js';
import { jsonrpcProfile } from './jsonrpc.js';
import { openAiBatchProfile } from './openai-batch.js';
import { transcriptProfile } from './transcript.js';
import { harProfile } from './har.js';
import { CustomProfileError, customProfile, loadCustomSpec } from './custom.js';
import type { ChannelSpec } from '../model.js';
import type { Profile } from './types.js';

export type ProfileFactory = (options: Record<string, unknown>) => Profile;

export const PROFILES: ReadonlyMap<string, ProfileFactory> = new Map<string, ProfileFactory>([
  ['amplifier', amplifierProfile],
  ['assay', assayProfile],
  ['jsonrpc', jsonrpcProfile],
  ['openai-batch', openAiBatchProfile],
  // Last, so that in `auto` every older family claims its records first.
  ['transcript', transcriptProfile],
  ['har', harProfile],
]);

export function profileNames(): string[] {
  return ['auto', ...PROFILES.keys()];
}

/** Thrown for an unknown profile name (a usage error). */
export class UnknownProfileError extends Error {
  override name = 'UnknownProfileError';
}

/** Two profiles in use declare a channel of the same name (a usage error, like an unknown profile). */
export class DuplicateChannelError extends UnknownProfileError {
  override name = 'DuplicateChannelError';
}

function resolveOne(name: string, options: Record<string, unknown>): Profile[] {
  if (name === 'auto') return [...PROFILES.values()].map((f) => f(options));
  const f = PROFILES.get(name);
  if (!f) {
    // A path to a custom profile file (docs/design.md §3.3).
    if (/\.json$/i.test(name) || name.includes('/')) {
      try {
        return [customProfile(loadCustomSpec(name))];
      } catch (e) {
        if (e instanceof CustomProfileError) throw new UnknownProfileError(e.message);
        throw e;
      }
    }
    throw new UnknownProfileError(`unknown profile ${JSON.stringify(name)} (choose from ${profileNames().join(', ')}, or a profile file *.json)`);
  }
  return [f(options)];
}

/**
 * The profiles of `--profile`: `auto`, a name, a profile file, or several of these joined by `,`
 * (`auto,my-profile.json`). Channel names must be unique across them.
 */
export function resolveProfiles(name: string, options: Record<string, unknown> = {}): Profile[] {
  const parts = name.includes(',') && !PROFILES.has(name) ? name.split(',').filter((p) => p.length > 0) : [name];
  // `--profile ,` (or `""`) names no profile: nothing would be read and the gate would pass.
  if (parts.length === 0 || parts.every((p) => p.trim() === ''))
    throw new UnknownProfileError(`--profile ${JSON.stringify(name)} names no profile (choose from ${profileNames().join(', ')}, or a profile file *.json)`);
  const profiles = parts.flatMap((p) => resolveOne(p, options));
  channelSpecs(profiles);
  return profiles;
}

/** The channels of a set of profiles by name; two channels of the same name are rejected. */
export function channelSpecs(profiles: readonly Profile[]): Map<string, ChannelSpec> {
  const out = new Map<string, ChannelSpec>();
  const owner = new Map<string, string>();
  for (const p of profiles) {
    for (const c of p.channels) {
      const prev = owner.get(c.name);
      if (prev !== undefined)
        throw new DuplicateChannelError(
          `profiles ${JSON.stringify(prev)} and ${JSON.stringify(p.name)} both declare channel ${JSON.stringify(c.name)}: channel names must be unique (rename one)`,
        );
      owner.set(c.name, p.name);
      out.set(c.name, c);
    }
  }
  return out;
}

export type { Profile } from './types.js';
