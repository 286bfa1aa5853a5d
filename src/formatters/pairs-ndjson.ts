/** `callpair pairs`: every call and every orphan as one NDJSON line, written while the pass runs. */
import type { PairsLine } from '../compare/pairs-line.js';
import { safeJson } from './json.js';
import type { PairsFormatter } from './types.js';

/** One NDJSON line (with its newline), risky characters escaped. */
export function pairsLineText(line: PairsLine): string {
  return `${safeJson(line)}\n`;
}

export const pairsNdjson: PairsFormatter = {
  name: 'ndjson',
  description: 'one JSON object per call or orphan, one per line',
  extension: 'ndjson',
  line: pairsLineText,
};
