import { describe, expect, it } from 'vitest';
import { amp, analyzeLines, resetClock } from './helpers.js';
import { renderMarkdown } from '../src/formatters/markdown.js';

describe('markdown size budget', () => {
  // 20 000 findings: a table row each (~200 bytes here) would be 4 MB, four times the limit.
  it('a capture with 20 000 findings gives a summary under 1 MiB, with "…and N more"', async () => {
    resetClock();
    const lines: object[] = [];
    const caller = 'agent|<b>*'.repeat(3);
    for (let i = 0; i < 20_000; i++) lines.push(amp({ event: 'llm:request', id: `r${i}`, provider: 'p', model: 'm', caller, session: `S${i % 100}` }));
    const report = await analyzeLines(lines, { maxFindings: 20_000 });
    expect(report.findingCounts.ORPHAN_REQUEST).toBe(20_000);
    expect(report.findings).toHaveLength(20_000);
    const md = renderMarkdown(report);
    expect(Buffer.byteLength(md)).toBeLessThan(1024 * 1024);
    expect(md).toMatch(/…and 19950 more/);
    expect(md).toContain('✅ gate passed');
  }, 120_000);
});
