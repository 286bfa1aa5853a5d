/**
 * The one chalk instance. chalk alone does not honour NO_COLOR, so the policy is here:
 * --no-color or NO_COLOR (non-empty) → no colour; FORCE_COLOR → chalk's own reading;
 * otherwise colour only when the stream is a TTY.
 */
import { Chalk, supportsColor, type ChalkInstance } from 'chalk';

export function makeChalk(opts: { color: boolean; env: NodeJS.ProcessEnv; isTTY: boolean }): ChalkInstance {
  if (!opts.color || (opts.env.NO_COLOR !== undefined && opts.env.NO_COLOR !== '')) return new Chalk({ level: 0 });
  if (opts.env.FORCE_COLOR !== undefined) {
    const lvl = supportsColor ? supportsColor.level : 0;
    return new Chalk({ level: opts.env.FORCE_COLOR === '0' || opts.env.FORCE_COLOR === 'false' ? 0 : Math.max(1, lvl) as 1 | 2 | 3 });
  }
  return new Chalk({ level: opts.isTTY && supportsColor ? supportsColor.level : 0 });
}
