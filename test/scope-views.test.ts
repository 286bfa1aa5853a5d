/**
 * Views for the reader of a report: the worst scopes by the one ranking (warnings before
 * notes) in the table, Markdown and HTML; Markdown ordered errors → warnings → notes with notes
 * grouped by code; the HTML timeline before the findings.
 */
import { describe, expect, it } from 'vitest';
import { runCli, writeCapture } from './helpers.js';

const t = (ms: number) => new Date(Date.UTC(2026, 8, 3, 10, 0, 0, ms)).toISOString();
const req = (s: string, id: string, caller: string, at: number) => ({ ts: t(at), event: 'llm:request', session_id: s, request_id: id, data: { provider: 'p', model: 'm', caller } });
const resp = (s: string, id: string, caller: string, at: number) => ({ ts: t(at), event: 'llm:response', session_id: s, request_id: id, status: 'ok', data: { provider: 'p', model: 'm', caller } });

// "noisy": two crossed pairs (notes only); "broken": one orphan request and one orphan response (warnings).
const capture = writeCapture([
  req('noisy', 'n1', 'agent', 1),
  req('noisy', 'n2', 'title', 2),
  resp('noisy', 'n2', 'title', 3),
  resp('noisy', 'n1', 'agent', 4),
  req('noisy', 'n3', 'agent', 5),
  req('noisy', 'n4', 'title', 6),
  resp('noisy', 'n4', 'title', 7),
  resp('noisy', 'n3', 'agent', 8),
  req('broken', 'b1', 'agent', 10),
  resp('broken', 'b1', 'agent', 11),
  req('broken', 'b2', 'compactor', 12),
  resp('broken', 'zz', 'ghost', 13),
]);

describe('worst scopes, one ranking in every view', () => {
  it('table: a per-scope view with scope id, calls, orphans, ambiguous, crossed; the orphaned scope first', async () => {
    const r = await runCli(['analyze', capture, '--wide']);
    const sec = r.stdout.slice(r.stdout.indexOf('Worst scopes'));
    expect(sec).toMatch(/│ channel │ scope +│ calls │ orphans │ ambiguous │ crossed \(FIFO\) │ crossed \(signature-FIFO\) │/);
    expect(sec).toMatch(/│ llm +│ broken +│ 2 +│ 2 +│ 0 +│ 0 +│ 0 +│/);
    expect(sec.indexOf('broken')).toBeLessThan(sec.indexOf('noisy'));
  });

  it('Markdown: worst scopes in the same order; errors → warnings → notes; notes grouped by code with a count', async () => {
    const r = await runCli(['analyze', capture, '-f', 'markdown']);
    const md = r.stdout;
    const ws = md.slice(md.indexOf('### Worst scopes'), md.indexOf('### Findings'));
    expect(ws.indexOf('| broken |')).toBeLessThan(ws.indexOf('| noisy |'));
    expect(md).toContain('| code | severity | count | meaning: what to do |');
    const warnings = md.indexOf('#### Errors and warnings');
    const notes = md.indexOf('#### Note findings');
    expect(warnings).toBeGreaterThan(0);
    expect(notes).toBeGreaterThan(warnings);
    // Warnings one by one, with a scope column; no note among them.
    const list = md.slice(warnings, notes);
    expect(list).toContain('| severity | code | scope | where | what |');
    expect(list).toContain('llm broken');
    expect(list).not.toContain('CROSSED_PAIR');
    // Notes: one row per code, with the count by baseline.
    const noteRows = md.slice(notes).split('\n').filter((l) => l.startsWith('| `'));
    expect(noteRows).toHaveLength(1);
    expect(noteRows[0]).toMatch(/^\| `CROSSED_PAIR` \| 4 \(FIFO 4, signature-FIFO \d+\) \| noisy \|/);
  });

  it('HTML: the worst scopes in the summary in the same order, the timeline before the findings', async () => {
    const r = await runCli(['analyze', capture, '-f', 'html']);
    const h = r.stdout;
    const ws = h.slice(h.indexOf('class="worst-scopes"'));
    expect(ws.indexOf('broken')).toBeLessThan(ws.indexOf('noisy'));
    expect(h.indexOf('<section id="timeline">')).toBeGreaterThan(0);
    expect(h.indexOf('<section id="timeline">')).toBeLessThan(h.indexOf('<section id="findings">'));
    expect(h.indexOf('<section id="findings">')).toBeLessThan(h.indexOf('class="findings"'));
  });
});
