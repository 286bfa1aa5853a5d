/**
 * A report file is not a terminal: Markdown, JUnit and the table with --wide carry a finding's
 * message whole; one over MESSAGE_MAX (only a message built from several long capture strings) is
 * cut and says how many characters are left out and that the JSON report holds them
 * (docs/report.md, "Terminal views").
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { amp, analyzeLines, resetClock, tmpDir } from './helpers.js';
import { markdown } from '../src/formatters/markdown.js';
import { junit } from '../src/formatters/junit.js';
import { table } from '../src/formatters/table.js';
import { json } from '../src/formatters/json.js';
import { MESSAGE_MAX } from '../src/formatters/safe.js';
import type { Report } from '../src/report/report.js';

const ctx = { chalk: new Chalk({ level: 0 }), cwd: process.cwd() };
const { parse: readJunit } = createRequire(import.meta.url)('test-results-parser') as {
  parse(o: { type: string; files: string[] }): { suites: Array<{ cases: Array<{ name: string; status: string; stack_trace: string }> }> };
};
/** Every failure text of a JUnit file, as a JUnit reader gives it. */
const junitFailures = (report: Report): string => {
  const file = path.join(tmpDir(), 'callpair.junit.xml');
  writeFileSync(file, junit.render(report, ctx));
  return readJunit({ type: 'junit', files: [file] }).suites.flatMap((s) => s.cases.filter((c) => c.status === 'FAIL').map((c) => c.stack_trace)).join('\n');
};
/** The views a reader keeps: Markdown, JUnit, the table with --wide (no width: nothing is fitted). */
const views = (report: Report) => ({ markdown: markdown.render(report, ctx), junit: junitFailures(report), table: table.render(report, ctx) });

describe('finding messages in report files', () => {
  it('a 650-character message is whole in Markdown, JUnit and the --wide table', async () => {
    resetClock();
    const caller = `${'x'.repeat(600)} the end of a long caller name`;
    const report = await analyzeLines([amp({ event: 'llm:request', id: 'r1', provider: 'p', model: 'm', caller })], { gate: { maxOrphanRequests: 0 } });
    const message = report.findings.find((f) => f.code === 'ORPHAN_REQUEST')!.message;
    expect(message.length).toBeGreaterThan(600);
    expect(message.length).toBeLessThan(MESSAGE_MAX);
    const v = views(report);
    for (const [name, text] of Object.entries(v)) {
      expect(text, name).toContain(message);
      expect(text, name).not.toContain('more characters');
    }
  });

  it('a message over the cap is cut with "… (N more characters; see the JSON report)", N exact, and is whole in JSON', async () => {
    resetClock();
    // Capture strings are clipped to 1 024 characters, so only a message holding several long ones
    // passes the cap: the formatters render what the report holds, so one such message is set here.
    const report = await analyzeLines([amp({ event: 'llm:request', id: 'r1', provider: 'p', model: 'm', caller: 'main' })], { gate: { maxOrphanRequests: 0 } });
    const finding = report.findings.find((f) => f.code === 'ORPHAN_REQUEST')!;
    const message = `request from ${'😀'.repeat(1200)} never closed`;
    finding.message = message;
    expect(message.length).toBeGreaterThan(MESSAGE_MAX);
    // 13 characters, then 993 emoji (two UTF-16 units each, never split), then the rest.
    const kept = message.slice(0, MESSAGE_MAX - 1);
    const marked = `${kept}… (${[...message.slice(kept.length)].length} more characters; see the JSON report)`;
    expect([...message.slice(kept.length)].length).toBe(1200 - 993 + ' never closed'.length);
    const v = views(report);
    for (const [name, text] of Object.entries(v)) {
      expect(text, name).toContain(marked);
      expect(text, name).not.toContain(message);
    }
    expect(json.render(report, ctx)).toContain(JSON.stringify(message));
  });
});
