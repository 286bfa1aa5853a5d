import { describe, expect, it } from 'vitest';
import type { CallSide, PairRecord } from '../model.js';
import { attributionKey, isError } from './compare.js';
import { callLine, orphanResponseLine, pairsLineText } from './pairs.js';

const side = (over: Partial<CallSide> = {}): CallSide => ({ loc: { path: 'c.jsonl', line: 1 }, time: null, id: null, caller: 'main', attrs: {}, ...over });

// Test channels (the names are the test's own; meaning comes from the declaration only).
const BY_CALLER = { attribution: 'caller', failure: { kind: 'status-not-in', statuses: ['ok', 'success'] } } as const;
const BY_TOOL = { attribution: 'tool', failure: { kind: 'status-not-in', statuses: ['allow'] } } as const;
const HTTP = { attribution: 'caller', failure: { kind: 'status-at-least', min: 500 } } as const;

describe('attribution key and errors', () => {
  it('keys a call on the declared attribution field, else the caller', () => {
    expect(attributionKey(BY_CALLER, side({ caller: 'agent', attrs: { tool: 'x' } }))).toBe('agent');
    expect(attributionKey(BY_TOOL, side({ caller: 'main', attrs: { tool: 'read_file' } }))).toBe('read_file');
    expect(attributionKey(BY_TOOL, side({ caller: 'caller-x' }))).toBe('caller-x');
  });

  it('counts a terminal as an error when its outcome fails the declared rule', () => {
    expect(isError(BY_CALLER, side({ attrs: { status: 'ok' } }))).toBe(false);
    expect(isError(BY_CALLER, side({ attrs: {} }))).toBe(false);
    expect(isError(BY_CALLER, side({ attrs: { status: null } }))).toBe(false);
    expect(isError(BY_CALLER, side({ attrs: { status: 'error' } }))).toBe(true);
    expect(isError(BY_CALLER, side({ attrs: { status: 'cancelled' } }))).toBe(true);
    expect(isError(HTTP, side({ attrs: { status: '503' } }))).toBe(true);
    expect(isError(HTTP, side({ attrs: { status: '404' } }))).toBe(false);
    expect(isError(HTTP, side({ attrs: { status: 'oops' } }))).toBe(false);
  });

  it('a deny decision fails where the channel declares it (the tool channels), allow does not', () => {
    expect(isError(BY_TOOL, side({ attrs: { status: 'allow', tool: 't' } }))).toBe(false);
    expect(isError(BY_TOOL, side({ attrs: { status: 'deny', tool: 't' } }))).toBe(true);
  });
});

describe('pairs lines', () => {
  const pair = (over: Partial<PairRecord> = {}): PairRecord => ({
    channel: 'delivery',
    scope: 'run-1',
    method: 'id',
    confidence: 'exact',
    request: side({ loc: { path: 'd.ndjson', line: 3 }, id: 'n:9', attrs: { tool: 'read_file' } }),
    terminal: side({ loc: { path: 'u.ndjson', line: 7 }, id: 'n:9', attrs: { tool: 'read_file', status: 'ok' } }),
    latencyMs: null,
    interims: 0,
    candidates: 1,
    signature: { tool: 'read_file' },
    ...over,
  });

  it('writes only ids that pass the safe-shape rule, and partners only where ids exist', () => {
    const l = callLine(pair(), BY_TOOL);
    expect(l.id).toBeNull();
    expect(l.caller).toBe('main');
    expect(l.rowKey).toBe('read_file');
    expect(l.request).toBe('d.ndjson:3');
    expect('fifoPartner' in l).toBe(false);
    const withPartner = callLine(pair({ fifoPartner: { path: 'd.ndjson', line: 2 }, signaturePartner: null, terminal: side({ id: 'abc-1' }) }), BY_TOOL);
    expect(withPartner).toMatchObject({ id: 'abc-1', fifoPartner: 'd.ndjson:2', signaturePartner: null });
  });

  it('escapes what terminals and browsers act on, one line per record', () => {
    const text = pairsLineText(orphanResponseLine({ channel: 'test', scope: 's\u2028\u202e', terminal: side({ caller: 'a\u0085b' }), reason: 'no-open-request' }, BY_CALLER));
    expect(text.endsWith('\n')).toBe(true);
    expect(text.slice(0, -1)).not.toMatch(/[\n\u2028\u202e\u0085]/);
    expect(JSON.parse(text)).toMatchObject({ type: 'orphan', kind: 'response', scope: 's\u2028\u202e', caller: 'a\u0085b' });
  });
});
