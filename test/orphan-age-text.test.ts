/** An orphan request's age is written with the same words and number in every text format. */
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { amp, analyzeLines, resetClock } from './helpers.js';
import { table } from '../src/formatters/table.js';
import { markdown } from '../src/formatters/markdown.js';
import { github } from '../src/formatters/github.js';
import { renderJunit } from '../src/formatters/junit.js';

const ctx = { chalk: new Chalk({ level: 0 }), cwd: process.cwd() };

describe('orphan request age', () => {
  it('table, Markdown, GitHub and JUnit write the same "<duration> before the end of its scope" (the msText number)', async () => {
    for (const [lines, text] of [
      [[amp({ event: 'llm:request', id: 'a', provider: 'p', model: 'm' }), amp({ event: 'llm:request', id: 'b', provider: 'p', model: 'm' }), amp({ event: 'llm:response', id: 'b', provider: 'p', model: 'm', status: 'ok' })], '20 ms before the end of its scope'],
      [[amp({ event: 'llm:request', id: 'a', provider: 'p', model: 'm' })], '0.00 ms before the end of its scope'],
    ] as const) {
      resetClock();
      const report = await analyzeLines([...lines], { gate: { maxOrphanRequests: 0 } });
      const outs = { table: table.render(report, ctx), markdown: markdown.render(report, ctx), github: github.render(report, ctx), junit: renderJunit(report) };
      for (const [name, out] of Object.entries(outs)) {
        expect(out, name).toContain(text);
        expect(out, name).not.toMatch(/before end\b/);
      }
    }
  });
});
