/**
 * What `trace` says of a shadow's pick when the call is not paired by id (an orphan response whose
 * id no open request has), and of a whole-record call (a HAR entry), which no order pairs.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const HAR = 'fixtures/real/har/har-fulfill.har.json';

describe('trace: shadow verdicts', () => {
  it('an orphan response with an id: its id matches no open request (never "no id")', async () => {
    const r = await runCli(['trace', 'fixtures/orphan-crossed.jsonl:10']);
    expect(r.stdout).toContain('FIFO would take fixtures/orphan-crossed.jsonl:6 (compactor) — its id 7b1e2c55-0000-4000-8000-00000000dead matches no open request');
    expect(r.stdout).not.toContain('no id to say which is right');
    const t = JSON.parse((await runCli(['trace', 'fixtures/orphan-crossed.jsonl:10', '-f', 'json'])).stdout);
    expect(t.calls[0].terminal.id).toBe('7b1e2c55-0000-4000-8000-00000000dead');
  });

  it('the Assay upstream call whose id no decision has: its id corr-0003 matches no open request', async () => {
    const a = 'fixtures/assay/run-ids';
    const r = await runCli(['trace', `${a}.upstream.jsonl:6`, `${a}.decisions.ndjson`, '--caller', `${a}.caller.jsonl`, '--upstream', `${a}.upstream.jsonl`, '--profile', 'assay']);
    expect(r.stdout).toContain('FIFO would take fixtures/assay/run-ids.decisions.ndjson:4 (ci-agent) — its id corr-0003 matches no open request');
    expect(r.stdout).not.toContain('no id to say which is right');
  });
});

describe('trace: a whole-record call (HAR entry)', () => {
  it('no FIFO or signature comparison, no open list, one caller for the request and its outcome', async () => {
    const r = await runCli(['trace', `${HAR}:101`, '--profile', 'har']);
    expect(r.stdout).toContain('One record: the request and its outcome are the same record');
    expect(r.stdout).not.toContain('FIFO would');
    expect(r.stdout).not.toContain('Open in scope');
    const t = JSON.parse((await runCli(['trace', `${HAR}:101`, '--profile', 'har', '-f', 'json'])).stdout);
    const c = t.calls[0];
    expect(c.method).toBe('record');
    expect(c.fifo).toBeNull();
    expect(c.signature).toBeNull();
    expect(c.open).toEqual([]);
    expect(c.terminal.caller).toBe(c.request.caller);
  });
});
