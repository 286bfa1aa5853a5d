import { describe, expect, it } from 'vitest';
import { amp, analyzeLines, resetClock } from './helpers.js';
import { ANNOTATIONS_PER_LEVEL, renderGithub } from '../src/formatters/github.js';

describe('github annotations', () => {
  it('writes at most 10 per level, then one notice with how many more are in the report', async () => {
    resetClock();
    const lines: object[] = [];
    for (let i = 0; i < 8; i++) {
      lines.push(amp({ event: 'llm:request', id: `a${i}`, provider: 'p', model: 'm', caller: 'main' }));
      lines.push(amp({ event: 'llm:request', id: `b${i}`, provider: 'p', model: 'm', caller: 'side' }));
      lines.push(amp({ event: 'llm:response', id: `b${i}`, provider: 'p', model: 'm', caller: 'side', status: 'ok' }));
      lines.push(amp({ event: 'llm:response', id: `a${i}`, provider: 'p', model: 'm', caller: 'main', status: 'ok' }));
    }
    for (let i = 0; i < 25; i++) lines.push(amp({ event: 'llm:request', id: `o${i}`, provider: 'p', model: 'm', caller: 'bg' }));
    const report = await analyzeLines(lines, { gate: { maxOrphanRequests: 0 }, maxFindings: 20 });
    const out = renderGithub(report, '/');
    const rows = out.trimEnd().split('\n');
    const count = (lvl: string) => rows.filter((r) => r.startsWith(`::${lvl} `)).length;
    expect(count('error')).toBe(1); // the failed gate check
    expect(count('warning')).toBe(ANNOTATIONS_PER_LEVEL);
    expect(count('notice')).toBe(ANNOTATIONS_PER_LEVEL); // 9 findings + the "more" notice
    const more = rows.find((r) => r.includes('title=callpair%3A more findings'))!;
    // 25 orphans (20 listed, 5 only counted) and 16 crossed: 10 warnings + 9 notices annotated.
    expect(more).toMatch(/::22 more finding\(s\) are in the report.*10 warning, 7 notice, 5 counted but not listed/);
    expect(rows[0]).toMatch(/^::error file=.*,line=\d+,title=callpair gate%3A max-orphan-requests::gate check failed/);
    expect(rows.at(-1)).toMatch(/^callpair gate failed: .*max-orphan-requests: 25 \(limit <= 0\) FAIL/);
  });

  it('a hostile caller cannot inject a command or a control character', async () => {
    resetClock();
    const report = await analyzeLines([amp({ event: 'llm:request', id: 'x1', provider: 'p', model: 'm', caller: 'evil\n::error::pwned\u001b]8;;http://x\u0007,:%' })]);
    const out = renderGithub(report, '/');
    expect(out.split('\n').filter((l) => l.startsWith('::'))).toHaveLength(1);
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('evil::error::pwned,:%25');
  });
});
