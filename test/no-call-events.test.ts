import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runCli, tmpDir } from './helpers.js';
import { sarifValidator } from './sarif-validator.js';

describe('nothing matched never passes quietly', () => {
  it('an empty directory: NO_CALL_EVENTS, exit 1; 0 with --allow-empty', async () => {
    const dir = path.join(tmpDir(), 'empty');
    mkdirSync(dir);
    const r = await runCli(['analyze', '--format', 'json', dir]);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout);
    expect(rep.findings[0]).toMatchObject({ code: 'NO_CALL_EVENTS', severity: 'error', data: { reason: 'no-inputs', inputs: 0 } });
    expect(rep.findings[0].message).toContain('no input file was found');
    const ok = await runCli(['analyze', '--allow-empty', dir]);
    expect(ok.code).toBe(0);
  });

  it('an OpenHands trajectory of messages and finish only (no tool call): NO_CALL_EVENTS, exit 1; 0 with --allow-empty', async () => {
    const traj = fixture('transcript/openhands/basic_interactions.json');
    const r = await runCli(['analyze', '--format', 'json', traj]);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout);
    expect(rep.findings.map((f: { code: string }) => f.code)).toEqual(['NO_CALL_EVENTS', 'UNMATCHED_INPUT']);
    expect(rep.records.transcript).toMatchObject({ noObservationActions: 1, toolCalls: 0 });
    expect((await runCli(['analyze', '--allow-empty', traj])).code).toBe(0);
  });

  it('a CSV file: the file is named, the run fails; 0 with --allow-empty', async () => {
    const csv = path.join(tmpDir(), 'calls.csv');
    writeFileSync(csv, 'id,method,latency\n1,tools/call,12\n');
    const r = await runCli(['analyze', csv]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('NO_CALL_EVENTS');
    expect(r.stdout).toContain(`${csv}: none of its 2 records matched a profile, treated as a non-capture`);
    expect((await runCli(['analyze', '--allow-empty', csv])).code).toBe(0);
    // A finding without a location is still valid SARIF.
    const sarif = await runCli(['analyze', '-f', 'sarif', csv]);
    const validate = sarifValidator();
    expect(validate(JSON.parse(sarif.stdout)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('a profile that matches nothing: exit 1, naming the profile; 0 with --allow-empty', async () => {
    const r = await runCli(['analyze', '--format', 'json', '--profile', 'jsonrpc', fixture('custom/http-log.jsonl')]);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout);
    const codes = rep.findings.map((f: { code: string }) => f.code);
    expect(codes).toEqual(['NO_CALL_EVENTS', 'UNMATCHED_INPUT']);
    expect(rep.findings[0].message).toBe('no call events: none of the 8 records in 1 input(s) matched profile jsonrpc (another log shape needs a profile: --profile FILE.json, docs/profiles.md; --allow-empty if none is expected)');
    expect((await runCli(['analyze', '--allow-empty', '--profile', 'jsonrpc', fixture('custom/http-log.jsonl')])).code).toBe(0);
  });

  it('--profile jsonrpc: a call whose id is invalid is INVALID_ID and still a call (no id: paired by the fallbacks, or an orphan)', async () => {
    const file = path.join(tmpDir(), 'bad-ids.jsonl');
    writeFileSync(
      file,
      [
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}',
        '{"jsonrpc":"2.0","id":-0,"method":"tools/call","params":{"name":"t"}}',
        '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"t"}}',
        '{"jsonrpc":"2.0","id":1,"result":{}}',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      ].join('\n') + '\n',
    );
    const r = await runCli(['analyze', '--profile', 'jsonrpc', '-f', 'json', '--max-orphan-requests', '0', file]);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout);
    expect(rep.findingCounts).toMatchObject({ INVALID_ID: 2, ORPHAN_REQUEST: 2 });
    expect(rep.channels[0]).toMatchObject({ requests: 3, orphanRequests: 2 });
    expect(rep.findingCounts.NO_CALL_EVENTS).toBeUndefined();
  });

  it('--profile jsonrpc on a file of notifications only: NO_CALL_EVENTS, exit 1; 0 with --allow-empty', async () => {
    const file = path.join(tmpDir(), 'notes.jsonl');
    writeFileSync(file, '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","method":"notifications/progress"}\n');
    const r = await runCli(['analyze', '--profile', 'jsonrpc', '-f', 'json', file]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).findingCounts).toMatchObject({ NO_CALL_EVENTS: 1 });
    expect((await runCli(['analyze', '--profile', 'jsonrpc', '--allow-empty', file])).code).toBe(0);
  });

  it('a custom log of event records only (they expect no outcome): NO_CALL_EVENTS, exit 1; 0 with --allow-empty', async () => {
    const dir = tmpDir();
    const log = path.join(dir, 'events.jsonl');
    writeFileSync(log, '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","method":"notifications/progress"}\n');
    const r = await runCli(['analyze', '--format', 'json', '--profile', fixture('custom/lang/notifications.json'), log]);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout);
    expect(rep.findings.map((f: { code: string }) => f.code)).toEqual(['NO_CALL_EVENTS', 'UNMATCHED_INPUT']);
    expect(rep.records['rpc-events']).toMatchObject({ records: 2, events: 2 });
    expect((await runCli(['analyze', '--allow-empty', '--profile', fixture('custom/lang/notifications.json'), log])).code).toBe(0);
    // With a call beside the events, the log is a capture: the events stay counted, the run passes.
    writeFileSync(log, '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":1,"result":{}}\n');
    const ok = await runCli(['analyze', '--format', 'json', '--profile', fixture('custom/lang/notifications.json'), log]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).records['rpc-events']).toMatchObject({ records: 3, events: 1 });
  });

  it('a directory with its profile file and a README: says which files were not read as captures', async () => {
    const dir = tmpDir();
    copyFileSync(fixture('custom/http-log.jsonl'), path.join(dir, 'http-log.jsonl'));
    copyFileSync(fixture('custom/http-profile.json'), path.join(dir, 'http-profile.json'));
    writeFileSync(path.join(dir, 'README.md'), '# notes\n');
    writeFileSync(path.join(dir, 'schema.json'), '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}\n');
    const r = await runCli(['analyze', '--format', 'json', '--profile', path.join(dir, 'http-profile.json'), dir]);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep.inputs.map((i: { path: string }) => path.basename(i.path))).toEqual(['http-log.jsonl', 'schema.json']);
    expect(rep.notes).toContain(`Not read as a capture: ${path.join(dir, 'http-profile.json')} (the profile file).`);
    expect(rep.notes).toContain(`Not read as captures (not named *.jsonl, *.ndjson, *.json or *.har, optionally .gz): ${path.join(dir, 'README.md')}.`);
    const unmatched = rep.findings.filter((f: { code: string }) => f.code === 'UNMATCHED_INPUT');
    expect(unmatched.map((f: { data: { path: string } }) => path.basename(f.data.path))).toEqual(['schema.json']);
  });
});

describe('compare and pairs: nothing matched never passes quietly', () => {
  it.each(['compare', 'pairs'])('%s: one line on stderr, exit 1; --allow-empty: exit 0', async (cmd) => {
    const input = fixture('real/openai-batch/batchinput.jsonl');
    const r = await runCli([cmd, '--profile', 'jsonrpc', input]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^callpair: no call events: .*matched profile jsonrpc/m);
    const ok = await runCli([cmd, '--profile', 'jsonrpc', '--allow-empty', input]);
    expect(ok.code).toBe(0);
  });
});
