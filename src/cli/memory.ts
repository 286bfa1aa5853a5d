/**
 * A flat memory footprint for the CLI (docs/performance.md, "Memory"). V8 doubles its young
 * generation whenever as many bytes as it holds have survived scavenges since it last grew, so a
 * long run ends with two 16 MiB semi-spaces (32 MiB of young generation) where a short one has a
 * few MiB; and while collecting is cheap it lets the old generation grow to up to 4× what was live
 * at the last full collection. Together they were most of the difference in peak RSS between a
 * 50 MB and a 1 GB capture. Once the young generation reaches YOUNG_CAP the CLI stops its growth
 * and lets the old generation grow by 30 % of what is live instead: measured no slower on the bench
 * shapes (what survives a scavenge is the open calls, not the line rate).
 *
 * Process-wide V8 settings, so the CLI makes them, never the library: a host embedding `analyze()`
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
      // Both read by V8 each time it sizes a space: a growth factor of 1 keeps the young generation
      // as it is; the old generation's next limit becomes 1.3× what is live (V8's own factor is 1.1–4).
      v8().setFlagsFromString('--semi-space-growth-factor=1');
      v8().setFlagsFromString('--heap-growing-percent=30');
      capped = true;
    }
  }
}
