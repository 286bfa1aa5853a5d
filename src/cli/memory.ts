/**
 * A flat memory footprint for the CLI (docs/performance.md, "Memory"). V8 doubles its young
 * generation whenever as many bytes as it holds have survived scavenges since it last grew, so a
 * long run ends with two 16 MiB semi-spaces (32 MiB of young generation) where a short one has a
 * few MiB — the largest part of the difference in peak RSS between a 50 MB and a 1 GB capture. The
 * CLI stops that growth at YOUNG_CAP: scavenges stay as cheap (what survives them is the open
 * calls, not the line rate), measured no slower on the bench shapes.
 *
 * A process-wide V8 setting, so the CLI makes it, never the library: a host embedding `analyze()`
 * keeps its own heap tuning. Called once per chunk read (the progress callback); after the cap is
 * set it is a no-op.
 */
import { v8 } from '../builtins.js';

/** The young generation's size (both semi-spaces) past which it no longer grows. */
const YOUNG_CAP = 8 << 20;

let capped = false;

export function capYoungGeneration(): void {
  if (capped) return;
  for (const s of v8().getHeapSpaceStatistics()) {
    if (s.space_name === 'new_space' && s.space_size >= YOUNG_CAP) {
      // Read by V8 each time it would grow the young generation (a factor of 1: it stays as it is).
      v8().setFlagsFromString('--semi-space-growth-factor=1');
      capped = true;
    }
  }
}
