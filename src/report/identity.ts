/**
 * What identifies a finding across runs (docs/scale-out.md#baselines-callpair-diff-and-analyze---baseline, docs/ci.md#sarif): its code,
 * channel, scope and the data that names the call (ids, callers, tools, reasons), for line-level
 * problems the file, and its ordinal among the findings with those same fields (the n-th of them)
 * — never its line number, which moves when lines are added above. `--baseline` matches findings
 * by this identity and SARIF's `partialFingerprints` hash it, so code scanning and the baseline
 * agree on which findings are unchanged.
 */
import { crypto } from '../builtins.js';
import type { Finding } from './findings.js';

/** Data fields that move between runs of the same problem (ages, offsets, sizes, candidate counts). */
const VOLATILE = new Set(['ageMs', 'byteOffset', 'deny', 'bytes', 'candidates', 'shadowCaller']);

/** A finding's fields that stay the same between runs (no line, no volatile data). */
export function stableKey(f: Finding): string {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f.data as unknown as Record<string, unknown>)) if (!VOLATILE.has(k)) data[k] = v;
  const file = f.code === 'MALFORMED_LINE' || f.code === 'OVERSIZED_LINE' || f.code === 'INVALID_ID' || f.code === 'INPUT_ERROR' || f.code === 'DOCUMENT_UNVERIFIED' ? (f.locations[0]?.path ?? null) : null;
  if (f.code === 'OVERSIZED_LINE') delete data.limit;
  if (f.code === 'DOCUMENT_UNVERIFIED') {
    delete data.records;
    delete data.limit;
  }
  return JSON.stringify([f.code, f.channel, f.scope, data, file]);
}

/** Each finding's identity, in order: its stable key and its ordinal among equal keys (0, 1, …). */
export function findingIdentities(findings: readonly Finding[]): string[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const key = stableKey(f);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return `${key}#${n}`;
  });
}

/** An identity as a short stable hash (SARIF `partialFingerprints`). */
export function identityHash(identity: string): string {
  return crypto().createHash('sha256').update(identity).digest('hex').slice(0, 32);
}
