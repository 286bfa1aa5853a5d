/**
 * Progress on stderr, only when stderr is a TTY and not in CI (docs/design.md §9): one line, redrawn at most
 * five times a second, erased at the end. The path is capture-controlled text: sanitised.
 */
import { safeText } from '../formatters/safe.js';

export interface Progress {
  update(p: { path: string; index: number; inputs: number; bytes: number }): void;
  done(): void;
}

const NONE: Progress = { update() {}, done() {} };

export function makeProgress(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): Progress {
  if (!stream.isTTY || (env.CI !== undefined && env.CI !== '' && env.CI !== 'false')) return NONE;
  let last = 0;
  let shown = false;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < 200) return;
      last = now;
      const mb = (p.bytes / 1e6).toFixed(p.bytes < 1e7 ? 1 : 0);
      const which = p.inputs > 1 ? ` [${p.index + 1}/${p.inputs}]` : '';
      const width = Math.max(20, (stream.columns || 80) - 30);
      stream.write(`\r\u001b[2Kcallpair: reading${which} ${safeText(p.path, width)} ${mb} MB`);
      shown = true;
    },
    done() {
      if (shown) stream.write('\r\u001b[2K');
      shown = false;
    },
  };
}
