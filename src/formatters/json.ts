/**
 * `callpair.report.v1` as JSON: deterministic (the report holds no wall-clock time and every list
 * is in a fixed order), two-space indented. Characters that JSON allows raw but terminals and
 * browsers act on (C1 controls, bidi overrides, line/paragraph separators) are written escaped.
 */
import type { Formatter } from './types.js';

const RISKY = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(RISKY, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const json: Formatter = {
  name: 'json',
  description: 'the full report, callpair.report.v1',
  extension: 'json',
  render: (report) => `${safeJson(report, 2)}\n`,
};
