import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, httpProfile, nest } from '../../../test/helpers.js';
import { failureText } from '../../formatters/failure.js';
import { classify, recordsOf, type ReadRecord } from './classify.js';
import { deriveNeedles, lineHasNeedle } from './needles.js';
import { parseProfileSpec, ProfileSpecError, specMarkers } from './spec.js';

const interceptor = {
  name: 'mcp-interceptor',
  channel: 'mcp',
  roles: [
    { role: 'request', when: { path: 'type', equals: 'request' } },
    { role: 'terminal', when: { path: 'type', equals: 'response' } },
  ],
  id: 'count',
  idKind: 'protocol',
  time: 'timestamp',
  failed: { error: true },
  error: 'error',
  group: ['method'],
};

describe('profile language', () => {
  it('reads the MCP interceptor log: roles by value, typed integer ids, naive times, failure by presence', () => {
    const spec = parseProfileSpec(interceptor);
    const lines = readFileSync(fixture('real/mcp-interceptor/intercepted_logs.jsonl'), 'utf8').trim().split('\n');
    const needles = deriveNeedles(specMarkers(spec));
    expect(needles).toEqual(['"request"', '"response"']);
    expect(lines.every((l) => lineHasNeedle(l, needles))).toBe(true);
    const recs = lines.map((l) => classify(spec, JSON.parse(l), 'intercepted_logs.jsonl') as ReadRecord);
    expect(recs.map((r) => r.role)).toEqual(['request', 'terminal', 'request', 'terminal', 'request', 'terminal', 'request', 'terminal']);
    expect(recs[0]!.id).toEqual({ kind: 'valid', key: 'n:1', label: '1' });
    expect(recs[0]!.naive).toBe(true);
    expect(recs[5]).toMatchObject({ error: 'Method not found' });
    expect(recs[7]).toMatchObject({ error: null });
    expect(recs[7]!.time! - recs[6]!.time!).toBeCloseTo(2.331, 3);
  });

  it('role by presence of a field, by input file name, and records inside a JSON document', () => {
    const byPresence = parseProfileSpec({
      roles: [
        { role: 'request', when: { has: 'method' } },
        { role: 'terminal', when: { any: [{ present: 'result' }, { has: 'error' }] } },
      ],
      id: 'id',
      idKind: 'protocol',
    });
    expect((classify(byPresence, { id: 9, method: 'x' }, 'a.jsonl') as ReadRecord).role).toBe('request');
    expect((classify(byPresence, { id: 9, result: null }, 'a.jsonl') as ReadRecord).role).toBe('terminal');
    expect(classify(byPresence, { id: 9 }, 'a.jsonl')).toBe('unclaimed');
    expect(specMarkers(byPresence)).toEqual(['method', 'result', 'error']);

    const byFile = parseProfileSpec({
      roles: [
        { role: 'request', when: { file: '*requests*.jsonl' } },
        { role: 'terminal', when: { file: '*responses*.jsonl' } },
      ],
      id: 'custom_id',
    });
    expect((classify(byFile, { custom_id: 'a' }, 'batch-requests.jsonl') as ReadRecord).role).toBe('request');
    expect((classify(byFile, { custom_id: 'a' }, 'batch-responses.jsonl') as ReadRecord).role).toBe('terminal');
    expect(specMarkers(byFile)).toBeNull();

    const contract = JSON.parse(readFileSync(fixture('real/assay-contract/enforcement_decision_contract.v0.json'), 'utf8'));
    const docs = parseProfileSpec({ records: 'records[].record', roles: [{ role: 'terminal', when: { path: 'schema', equals: 'assay.enforcement_decision.v0' } }, { role: 'request', when: { has: 'never' } }] });
    expect([...recordsOf(docs, contract)]).toHaveLength(10);
    expect(specMarkers(docs)).toEqual(['records']);
  });

  it('directions namespace ids; calls take start and end or a duration', () => {
    const spec = parseProfileSpec({
      roles: [
        { role: 'request', when: { has: 'message.method' } },
        { role: 'terminal', when: { has: 'message.result' } },
      ],
      id: 'message.id',
      idKind: 'protocol',
      direction: { path: 'direction', out: ['sent'], in: ['received'] },
    });
    const req = classify(spec, { direction: 'received', message: { id: 1, method: 'sampling/createMessage' } }, 'x') as ReadRecord;
    const res = classify(spec, { direction: 'sent', message: { id: 1, result: {} } }, 'x') as ReadRecord;
    expect(req.id).toEqual(res.id);
    expect(req.id).toMatchObject({ key: 'in/n:1' });

    const call = parseProfileSpec({
      roles: [{ role: 'call' }],
      start: { path: 'startTimeUnixNano', unit: 'ns' },
      end: { path: 'endTimeUnixNano', unit: 'ns' },
      status: 'status.code',
      failed: { status: ['2'] },
      group: [['attributes', 'gen_ai.operation.name']],
    });
    const span = classify(call, { startTimeUnixNano: '1761258024203000000', endTimeUnixNano: '1761258026043000000', status: { code: 2 }, attributes: { 'gen_ai.operation.name': 'chat' } }, 'x') as ReadRecord;
    expect(span).toMatchObject({ role: 'call', status: '2', group: ['chat', null] });
    expect(span.end! - span.time!).toBeCloseTo(1840, 3);
    expect(parseProfileSpec({ roles: [{ role: 'call' }], start: { path: 't', unit: 'µs' }, duration: { path: 'd', unit: 'ms' } }).start!.alts[0]![0]!.format).toEqual({ kind: 'epoch', unit: 'us' });
    const withDuration = parseProfileSpec({ roles: [{ role: 'call' }], start: 'startedDateTime', duration: { path: 'time', unit: 'ms' } });
    const har = classify(withDuration, { startedDateTime: '2025-10-23T22:20:24.203+00:00', time: 1840 }, 'x') as ReadRecord;
    expect(har.end! - har.time!).toBe(1840);
  });

  it('an invalid profile is one line naming the field and what was expected', () => {
    const cases: Array<[unknown, string]> = [
      [[], 'profile: (the file): expected a JSON object, got an array'],
      [{ roles: [] }, 'profile: roles: expected a non-empty array of {"role", "when"}, got an array'],
      [{ roles: [{ role: 'reply' }] }, 'profile: roles[0].role: expected "request", "terminal", "interim", "call", "ignore", "event", "half", "relay", got "reply"'],
      [{ roles: [{ role: 'request', when: { path: 'type' } }, { role: 'terminal' }] }, 'profile: roles[0].when.equals: expected a string, number or boolean, or a non-empty array of them'],
      [{ ...interceptor, time: { path: 'ts', unit: 'seconds' } }, 'profile: time.unit: expected the epoch unit: one of "s", "ms", "us", "ns", got "seconds"'],
      [{ ...interceptor, idKind: 'int' }, 'profile: idKind: expected "correlation"'],
      [{ ...interceptor, failed: { statusAtLeast: '500' } }, 'profile: failed: expected {"status": [..]}'],
      [{ ...interceptor, needles: ['"type":"re'] }, 'profile: needles: expected no "needles": they are derived from the roles (remove the field)'],
      [{ ...interceptor, group: ['a..b'] }, 'profile: group[0]: an empty key'],
      [{ ...interceptor, colour: 1 }, 'profile: colour: expected a known field'],
      [{ roles: [{ role: 'call' }] }, 'profile: start: expected a start time'],
      [
        { ...interceptor, signature: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] },
        'profile: signature: expected an array of at most 6 paths (pairing cost grows as 2^fields), got "7 paths"',
      ],
    ];
    for (const [raw, msg] of cases) {
      let err: unknown;
      try {
        parseProfileSpec(raw);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ProfileSpecError);
      expect((err as Error).message).toContain(msg);
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('still reads the one-field role form', () => {
    const spec = parseProfileSpec({ role: { path: 'kind', request: ['req'], terminal: ['resp', 'error'], interim: ['retry'] }, id: 'meta.rid' });
    expect((classify(spec, { kind: 'error', meta: { rid: 'r1' } }, 'x') as ReadRecord).role).toBe('terminal');
    expect(specMarkers(spec)).toEqual(['req', 'resp', 'error', 'retry']);
  });
});

describe('recursive profile constructs are bounded', () => {
  it('role conditions nested deep are one line naming the field', () => {
    let when: unknown = { has: 'x' };
    for (let i = 0; i < 4000; i++) when = { any: [when] };
    expect(() => parseProfileSpec({ roles: [{ role: 'request', when }, { role: 'terminal', when: { has: 'y' } }] })).toThrow(/^profile: roles\[0\]\.when(\.any\[0\])+: expected conditions nested at most/);
  });

  it('nested failed arrays are flattened: the declared meaning stays small', () => {
    const spec = parseProfileSpec({ ...httpProfile(), failed: nest(5, [{ error: true }, { statusAtLeast: 500 }]) });
    expect(spec.failure).toEqual({ kind: 'any', rules: [{ kind: 'error-present' }, { kind: 'status-at-least', min: 500 }] });
  });

  it('a statusNot list of 3 000 statuses is refused; the failure text is bounded like a cell', () => {
    expect(() => parseProfileSpec({ ...httpProfile(), failed: { statusNot: Array(3000).fill('ok') } })).toThrow(/^profile: failed\.statusNot: expected at most 64 statuses/);
    const text = failureText({ kind: 'any', rules: Array(16).fill({ kind: 'status-not-in', statuses: Array(64).fill('x'.repeat(200)) }) });
    expect(text.length).toBeLessThanOrEqual(230);
  });
});

describe('profile-declared names are validated', () => {
  it.each([
    ['a 6 000-char channel', { channel: 'c'.repeat(6000) }, /^profile: channel: expected 1–64 letters/],
    ['a channel with a control char', { channel: 'a\u001bb' }, /^profile: channel: expected 1–64 letters/],
    ['a numeric channel', { channel: 5 }, /^profile: channel: expected 1–64 letters.*got 5$/],
    ['an empty channel', { channel: '' }, /^profile: channel: expected 1–64 letters/],
    ['a bidi name', { name: 'x\u202ey' }, /^profile: name: expected 1–64 letters/],
    ['a 5 000-char signature field', { signature: ['k'.repeat(5000)] }, /^profile: signature\[0\]: expected a path of at most 64 printable characters/],
    ['a signature field with a C1 control', { signature: [['a\u009bb']] }, /^profile: signature\[0\]: expected a path of at most 64 printable/],
    ['a duplicate signature field', { signature: ['route', 'route'] }, /^profile: signature: expected distinct paths/],
    ['a long rowLabel', { rowLabel: 'r'.repeat(500) }, /^profile: rowLabel: expected 1–40/],
    ['a control char in groupLabels', { groupLabels: ['a\u0007'] }, /^profile: groupLabels\[0\]: expected 1–40/],
  ])('%s is refused', (_name, patch, re) => {
    expect(() => parseProfileSpec({ ...httpProfile(), ...patch })).toThrow(re);
  });

  it('a channel left out is "calls"', () => {
    const { channel: _c, ...rest } = httpProfile();
    expect(parseProfileSpec(rest).channel).toBe('calls');
  });
});
