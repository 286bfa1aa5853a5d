/**
 * `pairs` columns follow the channel's declared meaning (docs/report.md, `callpair pairs`;
 * docs/pairs.schema.json, definitions/kinds): the MCP tool is in `tool`, a profile's group values
 * are in `labels` under the profile's names (never squeezed into provider/model), an unstated
 * status stays null, and an orphan's caller is the one the table shows. Every line validates
 * against its channel kind's schema with ajv.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { CallLine, OrphanLine, PairsLine } from '../src/compare/pairs.js';
import { amp, resetClock, ROOT, runCli, writeCapture } from './helpers.js';

const schema = JSON.parse(readFileSync(path.join(ROOT, 'docs', 'pairs.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addSchema(schema);
const kind = (k: string) => ajv.getSchema(`${schema.$id}#/definitions/kinds/${k}`)!;

async function pairsOf(args: string[]): Promise<PairsLine[]> {
  const r = await runCli(['pairs', ...args]);
  expect(r.stderr).not.toMatch(/error/i);
  return r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as PairsLine);
}

function expectKind(k: string, lines: PairsLine[]): void {
  const v = kind(k);
  expect(lines.length).toBeGreaterThan(0);
  for (const l of lines) expect(v(l), `${JSON.stringify(l)}\n${JSON.stringify(v.errors)}`).toBe(true);
}

describe('pairs columns by channel kind', () => {
  it('JSON-RPC tools/call: the tool name is in tool, never in model', async () => {
    const f = writeCapture([
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'a' } } },
      { jsonrpc: '2.0', id: 1, result: { content: [] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write_file' } },
    ]);
    const lines = await pairsOf([f]);
    expectKind('jsonrpc', lines);
    const call = lines.find((l): l is CallLine => l.type === 'call')!;
    expect(call).toMatchObject({ tool: 'read_file', model: null, provider: null, labels: { method: 'tools/call', tool: 'read_file' }, rowKey: 'tools/call' });
    const orphan = lines.find((l): l is OrphanLine => l.type === 'orphan')!;
    expect(orphan).toMatchObject({ tool: 'write_file', model: null, line: 3 });
    // The table lists the same orphan with the same caller.
    const table = await runCli(['analyze', f, '--wide']);
    const row = table.stdout.split('\n').find((l) => l.includes(`${path.basename(f)}:3`) && l.includes('jsonrpc'))!;
    expect(row.split('│').map((c) => c.trim())).toContain(orphan.caller);
  });

  it('a custom profile: group values are in labels under the profile’s names, provider and model stay null', async () => {
    const lines = await pairsOf(['fixtures/real/har/har-fulfill.har.json', '--profile', 'fixtures/real/profiles/har-entries.json']);
    expectKind('custom', lines);
    const call = lines[0] as CallLine;
    expect(call.provider).toBeNull();
    expect(call.model).toBeNull();
    expect(Object.keys(call.labels)).toHaveLength(2);
    expect(Object.values(call.labels)).toEqual(['GET', '200']);
    expect(call).toMatchObject({ method: 'record', requestPath: 'fixtures/real/har/har-fulfill.har.json', requestLine: 24 });
  });

  it('amplifier: a response that states no status keeps status null (and is not failed)', async () => {
    resetClock();
    const f = writeCapture([
      amp({ event: 'llm:request', id: 'r-1', provider: 'p', model: 'm', caller: 'a' }),
      amp({ event: 'llm:response', id: 'r-1', provider: 'p', model: 'm' }),
      amp({ event: 'llm:request', id: 'r-2', provider: 'p', model: 'm', caller: 'a' }),
      amp({ event: 'llm:response', id: 'r-2', provider: 'p', model: 'm', status: 'ok' }),
    ]);
    const lines = (await pairsOf([f])) as CallLine[];
    expectKind('llm', lines);
    expect(lines.map((l) => [l.id, l.status, l.failed])).toEqual([
      ['r-1', null, false],
      ['r-2', 'ok', false],
    ]);
    expect(lines[0]).toMatchObject({ provider: 'p', model: 'm', tool: null, labels: { provider: 'p', model: 'm' }, caller: 'a', rowKey: 'a' });
  });

  it('Assay and OpenAI Batch lines match their kinds', async () => {
    const A = 'fixtures/assay';
    expectKind('assay', await pairsOf([`${A}/run-ids.decisions.ndjson`, '--caller', `${A}/run-ids.caller.jsonl`, '--upstream', `${A}/run-ids.upstream.jsonl`]));
    expectKind('openai-batch', await pairsOf(['fixtures/real/openai-batch/batchinput.jsonl', 'fixtures/real/openai-batch/batch_output.jsonl']));
  });
});
