/** An unknown number (`null` in JSON) is `n/a` in every text view, never `—` (docs/report.md, "Unknown"). */
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { analyze } from '../src/analyze.js';
import { table } from '../src/formatters/table.js';
import { markdown } from '../src/formatters/markdown.js';
import { fixture } from './helpers.js';

const ctx = { chalk: new Chalk({ level: 0 }), cwd: process.cwd() };

describe('unknown numbers in text views', () => {
  it('a HAR capture with no id pairs: the crossed rates are n/a in the table and in Markdown', async () => {
    const report = await analyze({ inputs: [fixture('real/har/har-fulfill.har.json')] });
    const ch = report.channels[0]!;
    expect([ch.crossed.comparable, ch.crossed.fifoRate, ch.crossed.signatureRate]).toEqual([0, null, null]);
    const t = table.render(report, ctx);
    expect(t).toContain('of 0 id pairs (n/a); signature-FIFO 0 (n/a)');
    const md = markdown.render(report, ctx);
    expect(md).toContain('0 of 0 (n/a)');
    for (const out of [t, md]) expect(out).not.toMatch(/\(—\)/);
  });
});
