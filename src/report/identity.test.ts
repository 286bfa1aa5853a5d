/** A finding's identity across runs (identity.ts): a file-level problem keeps it when the file grows. */
import { describe, expect, it } from 'vitest';
import { finding } from './findings.js';
import { stableKey } from './identity.js';

describe('finding identity', () => {
  it('DOCUMENT_UNVERIFIED names its file, not how many records were read before nor the bound', () => {
    const at = (path: string, line: number, records: number, limit: number) => stableKey(finding('DOCUMENT_UNVERIFIED', { locations: [{ path, line }] }, { reason: 'invalid-json', records, limit }));
    expect(at('a.har', 1, 2, 1024)).toBe(at('a.har', 3, 5, 2048));
    expect(at('a.har', 1, 2, 1024)).not.toBe(at('b.har', 1, 2, 1024));
  });
});
