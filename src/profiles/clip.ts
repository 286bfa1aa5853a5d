/**
 * Capture strings are hostile and may be huge (a 60 MB "model" on one line). Profiles clip every
 * free-text string they keep in an event (scope, caller, provider, model, status, error, tool) to a
 * bounded length, so the engine's memory is bounded per open call and per scope, never by line
 * size. A clipped string ends with a marker that names the cut length and a SHA-256 prefix of the
 * whole string, so two different long strings never compare equal after clipping (signatures and
 * scopes stay exact up to a 48-bit hash).
 */
import { crypto } from '../builtins.js';

/** Longest capture string kept in an event, in UTF-16 code units (before the marker). */
export const MAX_KEPT_TEXT = 1024;

/** The marker a clipped string ends with (clipping is idempotent: a clipped string is kept as is). */
const MARKER = /^…\[\+\d{1,16} chars, sha256 [0-9a-f]{12}\]$/;

export function clipText(s: string, max = MAX_KEPT_TEXT): string {
  if (s.length <= max) return s;
  // Already clipped (the cut may be one shorter: a surrogate pair is never split).
  if (s.length <= max + 48) {
    for (const cut of [max, max - 1]) if (s.charCodeAt(cut) === 0x2026 && MARKER.test(s.slice(cut))) return s;
  }
  let cut = max;
  // Never split a surrogate pair.
  const c = s.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  const hash = crypto().createHash('sha256').update(s).digest('hex').slice(0, 12);
  // A copy, not a slice: V8 slices keep the whole parent string alive (a 100 KB session id would
  // stay in memory for as long as its scope does). utf16le round-trips every code unit exactly.
  const head = Buffer.from(s.slice(0, cut), 'utf16le').toString('utf16le');
  return `${head}…[+${s.length - cut} chars, sha256 ${hash}]`;
}

export function clipOrNull(s: string | null | undefined): string | null {
  return s === null || s === undefined ? null : clipText(s);
}
