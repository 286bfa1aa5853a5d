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

describe('custom profile: a records array of a document over the bound', () => {
  it('is read element by element: the same calls at the same lines, each element bounded alone', async () => {
    const calls = [0, 1, 2, 3].map((k) => ({ id: `c${k}`, kind: 'req', t: `2026-01-01T00:00:0${k}.000Z`, pad: 'x'.repeat(300) }));
    const results = [0, 1, 2, 3].map((k) => ({ id: `c${k}`, kind: 'res', t: `2026-01-01T00:00:0${k}.500Z` }));
    const file = path.join(tmpDir(), 'calls.json');
    writeFileSync(file, JSON.stringify({ run: 'r1', calls: [...calls, ...results] }, null, 2));
    const profile = path.join(tmpDir(), 'calls-profile.json');
    writeFileSync(profile, JSON.stringify({ name: 'calls-doc', records: 'calls[]', roles: [{ role: 'request', when: { path: 'kind', equals: 'req' } }, { role: 'terminal', when: { path: 'kind', equals: 'res' } }], id: 'id', time: 't' }));
    const lines = (r: Awaited<ReturnType<typeof analyze>>) => r.findings.length;
    const whole = await analyze({ inputs: [file], profile });
    const split = await analyze({ inputs: [file], profile, maxLineBytes: 1000 });
    expect(whole.totals).toMatchObject({ records: 1, oversized: 0 });
    expect(split.totals).toMatchObject({ records: 8, oversized: 0 });
    expect(split.channels[0]).toMatchObject({ requests: 4, terminals: 4, orphanRequests: 0 });
    expect(split.channels[0]!.pairs.byMethod.id).toBe(4);
    expect(split.channels[0]!.latencyMs).toEqual(whole.channels[0]!.latencyMs);
    expect(lines(split)).toBe(lines(whole));
  });
});

describe('custom profile: an id that never pairs is a finding', () => {
  const run = (profile: string) => analyze({ inputs: [fixture('custom/ids/calls.jsonl')], profile: fixture(`custom/ids/${profile}.json`) });
  const codes = (r: Awaited<ReturnType<typeof analyze>>) => r.findings.filter((f) => f.code === 'IDS_NEVER_MATCH');

  it('terminals whose requests were evicted at --max-open-calls matched ids: no IDS_NEVER_MATCH', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'never.jsonl');
    const recs = [...['a', 'b', 'c'].map((i) => ({ t: 'req', s: 'A', i })), ...['a', 'b'].map((i) => ({ t: 'res', s: 'A', i }))];
    writeFileSync(file, recs.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const profile = path.join(dir, 'p.json');
    writeFileSync(profile, JSON.stringify({ name: 'm', channel: 'm', roles: [{ role: 'request', when: { path: 't', equals: 'req' } }, { role: 'terminal', when: { path: 't', equals: 'res' } }], id: 'i', scope: 's' }));
    const r = await analyze({ inputs: [file], profile, maxOpenCalls: 1 });
    expect(r.findings.filter((f) => f.code === 'ORPHAN_RESPONSE').map((f) => f.data.reason)).toEqual(['id-evicted', 'id-evicted']);
    expect(codes(r)).toEqual([]);
  });

  it('numbers on the requests, strings on the terminals: IDS_NEVER_MATCH (warning) naming the profile field', async () => {
    const f = codes(await run('number-and-string'));
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'warning', channel: 'calls', locations: [{ line: 3 }], data: { reason: 'never-match', side: 'both', field: 'id', requestsWithId: 2, terminalsWithId: 2 } });
  });

  it('a typo in one role\'s id path: IDS_NEVER_MATCH naming that role\'s field, the side that never carries an id', async () => {
    const r = await run('typo-on-one-side');
    expect(r.channels[0]!.pairs.byMethod).toMatchObject({ id: 0, fifo: 2 });
    const f = codes(r);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ channel: 'calls', data: { reason: 'missing', side: 'terminals', field: 'roles[1].id', requestsWithId: 2, terminalsWithId: 0 } });
    expect(f[0]!.message).toBe('profile field roles[1].id: the terminals never carry an id (a wrong path? or ids that are no valid correlation id, INVALID_ID: numbers need "idKind": "protocol"); nothing paired by id');
  });

  it('ids that pair: no finding', async () => {
    const r = await run('matching');
    expect(r.channels[0]!.pairs.byMethod.id).toBe(2);
    expect(codes(r)).toEqual([]);
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
