/**
 * The safe-shape rule for correlation ids (docs/design.md §4): a string of 1–128 characters of
 * [A-Za-z0-9_-]. `null`, absent and "" mean no id. Anything else is invalid, and its value is
 * never kept: only a reason, a length and a SHA-256 prefix.
 */
import { crypto } from '../builtins.js';
import type { InvalidIdInfo } from '../report/findings.js';

export type IdCheck = { kind: 'none' } | { kind: 'valid'; id: string } | { kind: 'invalid'; info: InvalidIdInfo };

const NONE: IdCheck = { kind: 'none' };
export const MAX_ID_LENGTH = 128;

function isSafeChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
}

export function isSafeId(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_ID_LENGTH) return false;
  for (let i = 0; i < v.length; i++) if (!isSafeChar(v.charCodeAt(i))) return false;
  return true;
}

export function checkCorrelationId(field: string, v: unknown): IdCheck {
  if (v === undefined || v === null || v === '') return NONE;
  if (isSafeId(v)) return { kind: 'valid', id: v };
  let text: string;
  let reason: InvalidIdInfo['reason'];
  if (typeof v === 'string') {
    text = v;
    reason = v.length > MAX_ID_LENGTH ? 'too-long' : 'bad-characters';
  } else {
    text = safeStringify(v);
    reason = 'not-a-string';
  }
  return { kind: 'invalid', info: { field, reason, length: text.length, sha256: sha256Prefix(text) } };
}

export function sha256Prefix(text: string): string {
  return crypto().createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** JSON text of a hostile value; a value too deep to serialise (stack overflow) gets a fixed stand-in. */
function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v) ?? typeof v;
  } catch {
    // String(v) would recurse too (Array.prototype.join), so no second attempt.
    return `[unserialisable ${Array.isArray(v) ? 'array' : typeof v}]`;
  }
}
