/**
 * The profile registry: `--profile auto` (every profile, chosen per record) or one by name.
 */
import { amplifierProfile } from './amplifier.js';
import { assayProfile } from './assay.js';
import { CustomProfileError, customProfile, loadCustomSpec } from './custom.js';
import type { Profile } from './types.js';

export type ProfileFactory = (options: Record<string, unknown>) => Profile;

export const PROFILES: ReadonlyMap<string, ProfileFactory> = new Map<string, ProfileFactory>([
  ['amplifier', amplifierProfile],
  ['assay', assayProfile],
]);

export function profileNames(): string[] {
  return ['auto', ...PROFILES.keys()];
}

/** Thrown for an unknown profile name (a usage error). */
export class UnknownProfileError extends Error {
  override name = 'UnknownProfileError';
}

export function resolveProfiles(name: string, options: Record<string, unknown> = {}): Profile[] {
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

export type { Profile } from './types.js';
