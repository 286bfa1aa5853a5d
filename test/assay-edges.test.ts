import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { fixture, tmpDir } from './helpers.js';

describe('assay edge shapes', () => {
  it('acceptance: --profile assay reads the contract file as published (records[].record), every record validated', async () => {
    const r = await analyze({ inputs: [fixture('real/assay-contract/enforcement_decision_contract.v0.json')], profile: 'assay' });
    expect(r.records.assay).toMatchObject({ records: 10, valid: 10, malformed: 0, inconsistent: 0, byDecision: { allow: 1, deny: 9, other: 0 } });
    expect(r.inputs[0]).toMatchObject({ format: 'json', profile: 'assay', used: 1 });
    expect(r.findingCounts).toEqual({});
    expect(r.gate.passed).toBe(true);
  });

  it('an upstream log with no JSON-RPC message gets a finding, not a false delivery warning', async () => {
    const plain = path.join(tmpDir(), 'upstream.log');
    writeFileSync(plain, 'tools/call github.create_deploy_key\ntools/call misc.send_report\n');
    const r = await analyze({
      inputs: [fixture('assay/run-ids.decisions.ndjson')],
      caller: [fixture('assay/run-ids.caller.jsonl')],
      upstream: [plain],
      profile: 'assay',
    });
    expect(r.channels.map((c) => c.channel)).toEqual(['decision']);
    expect(r.findingCounts).toEqual({ UNMATCHED_INPUT: 1 });
    expect(r.findings[0]).toMatchObject({ code: 'UNMATCHED_INPUT', data: { role: 'upstream', reason: 'no-json-rpc', path: plain } });
    expect(r.findings[0]!.message).toBe(`--upstream ${plain} holds no JSON-RPC message: it says nothing about what the upstream received`);
  });
});
