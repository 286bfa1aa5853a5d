import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { deliveryAudit } from '../src/formatters/delivery-verdict.js';
import { fixture, tmpDir } from './helpers.js';

describe('assay edge shapes', () => {
  it('acceptance: --profile assay reads the contract file as published (records[].record), every record validated', async () => {
    const r = await analyze({ inputs: [fixture('real/assay-contract/enforcement_decision_contract.v0.json')], profile: 'assay' });
    expect(r.records.assay).toMatchObject({ records: 10, valid: 10, malformed: 0, inconsistent: 0, byDecision: { allow: 1, deny: 9, other: 0 } });
    expect(r.inputs[0]).toMatchObject({ format: 'json', profile: 'assay', used: 1 });
    expect(r.findingCounts).toEqual({});
    expect(r.gate.passed).toBe(true);
  });

  it('an upstream log with no JSON-RPC message gets UNMATCHED_INPUT, not a false delivery warning, and the audit is unverified', async () => {
    const plain = path.join(tmpDir(), 'upstream.log');
    writeFileSync(plain, 'tools/call github.create_deploy_key\ntools/call misc.send_report\n');
    for (const validateAll of [false, true]) {
      const r = await analyze({
        inputs: [fixture('assay/run-ids.decisions.ndjson')],
        caller: [fixture('assay/run-ids.caller.jsonl')],
        upstream: [plain],
        profile: 'assay',
        validateAll,
      });
      expect(r.channels.map((c) => c.channel)).toEqual(['decision']);
      // Lines that mention tools/call are read, in every mode (docs/assay.md, `wrapped`): these are
      // no JSON, so each is a MALFORMED_LINE and a line the audit could not read.
      expect(r.findingCounts).toEqual({ MALFORMED_LINE: 2, UNMATCHED_INPUT: 1, DELIVERY_UNVERIFIED: 2 });
      const unmatched = r.findings.find((f) => f.code === 'UNMATCHED_INPUT')!;
      expect(unmatched).toMatchObject({ data: { role: 'upstream', reason: 'no-json-rpc', path: plain } });
      expect(unmatched.message).toBe(`--upstream ${plain} holds no JSON-RPC message: it says nothing about what the upstream received`);
      // The side the delivery audit needs is missing: the default gate does not pass.
      const unv = r.findings.filter((f) => f.code === 'DELIVERY_UNVERIFIED');
      expect(unv.map((f) => f.data)).toEqual([
        { cause: 'unread-line', count: 2, path: plain, reason: 'invalid-json' },
        { cause: 'no-json-rpc', count: 1, path: plain, reason: 'upstream' },
      ]);
      for (const f of unv) expect(f.severity).toBe('error');
      expect(r.gate.passed).toBe(false);
      // An --upstream was given: the verdict is "could not verify", not "no --upstream log", and no note asks for one.
      expect(deliveryAudit(r)).toMatchObject({ state: 'could-not-verify', level: 'error', text: 'delivery audit: could not verify — 2 DELIVERY_UNVERIFIED: unread-line, no-json-rpc' });
      expect(r.notes.join('\n')).not.toContain('give --upstream FILE');
    }
  });
});

describe('assay audit after an eviction at --max-open-calls', () => {
  it('could not verify, never a made-up violation: an arrival whose allow was evicted is no UNRECORDED_DELIVERY, an evicted caller call no "caller call with no decision record"', async () => {
    const r = await analyze({
      inputs: [fixture('assay/run-ids.decisions.ndjson')],
      profile: 'assay',
      caller: [fixture('assay/run-ids.caller.jsonl')],
      upstream: [fixture('assay/run-ids.upstream.jsonl')],
      maxOpenCalls: 1,
    });
    const whole = await analyze({
      inputs: [fixture('assay/run-ids.decisions.ndjson')],
      profile: 'assay',
      caller: [fixture('assay/run-ids.caller.jsonl')],
      upstream: [fixture('assay/run-ids.upstream.jsonl')],
    });
    // Whatever the unbounded audit finds unrecorded, the bounded one finds no more.
    expect(r.findingCounts.UNRECORDED_DELIVERY ?? 0).toBeLessThanOrEqual(whole.findingCounts.UNRECORDED_DELIVERY ?? 0);
    expect(r.findingCounts.DELIVERY_UNVERIFIED).toBeGreaterThan(0);
    const evicted = r.findings.filter((f) => f.code === 'ORPHAN_REQUEST' && (f.data as { reason: string }).reason === 'evicted');
    expect(evicted.length).toBeGreaterThan(0);
    for (const f of evicted) expect(f.message).toContain('evicted while open');
  });
});
