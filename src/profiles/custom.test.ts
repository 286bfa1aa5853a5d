import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { ledgerViolations } from '../report/report.js';
import { fixture, runCli, tmpDir } from '../../test/helpers.js';
import { at, parseCustomSpec, CustomProfileError, customChannel, customKeep } from './custom.js';

describe('custom profiles', () => {
  it('audits any JSONL request/response log from a profile file', async () => {
    const r = await analyze({ inputs: [fixture('custom/http-log.jsonl')], profile: fixture('custom/http-profile.json') });
    expect(r.channels.map((c) => c.channel)).toEqual(['http']);
    const ch = r.channels[0]!;
    expect(ch).toMatchObject({ requests: 4, terminals: 3, orphanRequests: 1, maxInFlight: 2 });
    expect(ch.pairs.byMethod).toEqual({ id: 2, signature: 1, fifo: 0 });
    expect(ch.crossed.fifo).toBe(2);
    expect(ch.latencyByGroup.map((g) => g.group)).toEqual(['/a', '/b', '/c']);
    expect(r.inputs[0]!.ignored).toBe(1);
    expect(ledgerViolations(r)).toEqual([]);
  });

  it('reads only own properties along a path', () => {
    expect(at({ a: { b: 1 } }, ['a', 'b'])).toBe(1);
    expect(at({ a: {} }, ['a', 'constructor'])).toBeUndefined();
    expect(at(JSON.parse('{"__proto__": {"x": 1}}'), ['__proto__', 'x'])).toBe(1);
  });

  it('rejects a profile without roles, and the CLI exits 2', async () => {
    expect(() => parseCustomSpec({ needles: [] })).toThrow(CustomProfileError);
    const r = await runCli(['analyze', '--profile', 'fixtures/custom/http-log.jsonl.json', 'fixtures/custom/http-log.jsonl']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot read profile');
  });
});

describe('custom profile: what the channel means', () => {
  const base = { channel: 'x', role: { path: 'kind', request: ['req'], terminal: ['resp'] }, group: ['route'] };
  it('declares rows, groups and failed outcomes, with defaults for files that say nothing', () => {
    const d = customChannel(parseCustomSpec(base));
    expect(d).toMatchObject({ rowLabel: 'caller', attribution: 'caller', groupLabels: ['route'], failure: { kind: 'status-not-in', statuses: ['ok', 'success'] }, idKind: 'correlation' });
    const c = customChannel(parseCustomSpec({ ...base, attribution: 'group', failed: [{ statusAtLeast: 500 }, { error: true }], idKind: 'protocol' }));
    expect(c).toMatchObject({ rowLabel: 'route', attribution: 'provider', failure: { kind: 'any', rules: [{ kind: 'status-at-least', min: 500 }, { kind: 'error-present' }] }, idKind: 'protocol' });
  });

  it('rejects a rule it cannot read, with one message', () => {
    for (const bad of [{ failed: { statusAtLeast: '500' } }, { failed: { status: 'x' } }, { failed: [] }, { attribution: 'tool' }, { rowLabel: 'a\u001bb' }, { idKind: 'uuid' }])
      expect(() => parseCustomSpec({ ...base, ...bad })).toThrow(CustomProfileError);
    expect(() => parseCustomSpec({ ...base, group: undefined, attribution: 'group' })).toThrow(/needs a "group" path/);
  });

  it('keep lists every path the file names', () => {
    const spec = parseCustomSpec({ ...base, scope: 'conn', id: 'meta.rid', error: 'err.msg', signature: ['method'] });
    expect(customKeep(spec)).toEqual({ tree: { kind: true, method: true, route: true, conn: true, meta: { rid: true }, err: { msg: true } } });
  });
});

describe('numeric statuses are defined exactly', () => {
  it('the custom http fixture status path: a number 1e21 and a 400-digit string fail statusAtLeast 500', async () => {
    const file = path.join(tmpDir(), 'http.jsonl');
    const lines = [
      { kind: 'req', conn: 'c', meta: { rid: 'a' }, at: '2025-01-01T00:00:00Z', client: 'x', method: 'GET', route: '/' },
      `{"kind":"resp","conn":"c","meta":{"rid":"a"},"at":"2025-01-01T00:00:01Z","status":1e21}`,
      { kind: 'req', conn: 'c', meta: { rid: 'b' }, at: '2025-01-01T00:00:00Z', client: 'x', method: 'GET', route: '/' },
      { kind: 'resp', conn: 'c', meta: { rid: 'b' }, at: '2025-01-01T00:00:01Z', status: '9'.repeat(400) },
      { kind: 'req', conn: 'c', meta: { rid: 'c' }, at: '2025-01-01T00:00:00Z', client: 'x', method: 'GET', route: '/' },
      { kind: 'resp', conn: 'c', meta: { rid: 'c' }, at: '2025-01-01T00:00:01Z', status: '499.9999999999999999999' },
    ];
    writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
    const r = await analyze({ inputs: [file], profile: fixture('custom/http-profile.json') });
    expect(r.channels[0]!.failed).toBe(2);
  });
});
