import { describe, expect, it } from 'vitest';
import type { CallSide, PairRecord } from '../model.js';
import { attributionKey, isError } from './compare.js';
import { callLine, orphanResponseLine, pairsLineText } from './pairs.js';

const side = (over: Partial<CallSide> = {}): CallSide => ({ loc: { path: 'c.jsonl', line: 1 }, time: null, id: null, caller: 'main', attrs: {}, ...over });

describe('attribution key and errors', () => {
  it('keys llm calls on the caller and other channels on the tool name, else the caller', () => {
    expect(attributionKey('llm', side({ caller: 'agent', attrs: { tool: 'x' } }))).toBe('agent');
    expect(attributionKey('decision', side({ caller: 'main', attrs: { tool: 'read_file' } }))).toBe('read_file');
    expect(attributionKey('delivery', side({ caller: 'caller-x' }))).toBe('caller-x');
  });

  it('counts a terminal as an error when its status is stated and not an outcome', () => {
    expect(isError(side({ attrs: { status: 'ok' } }))).toBe(false);
    expect(isError(side({ attrs: {} }))).toBe(false);
    expect(isError(side({ attrs: { status: null } }))).toBe(false);
    expect(isError(side({ attrs: { status: 'error' } }))).toBe(true);
    expect(isError(side({ attrs: { status: 'cancelled' } }))).toBe(true);
  });

  it('a policy decision (allow or deny) is an outcome, not an error', () => {
    expect(isError(side({ attrs: { status: 'allow', tool: 't' } }))).toBe(false);
    expect(isError(side({ attrs: { status: 'deny', tool: 't' } }))).toBe(false);
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
    const l = callLine(pair());
    expect(l.id).toBeNull();
    expect(l.caller).toBe('read_file');
    expect(l.request).toBe('d.ndjson:3');
    expect('fifoPartner' in l).toBe(false);
    const withPartner = callLine(pair({ fifoPartner: { path: 'd.ndjson', line: 2 }, signaturePartner: null, terminal: side({ id: 'abc-1' }) }));
    expect(withPartner).toMatchObject({ id: 'abc-1', fifoPartner: 'd.ndjson:2', signaturePartner: null });
  });

  it('escapes what terminals and browsers act on, one line per record', () => {
    const text = pairsLineText(orphanResponseLine({ channel: 'llm', scope: 's\u2028\u202e', terminal: side({ caller: 'a\u0085b' }), reason: 'no-open-request' }));
    expect(text.endsWith('\n')).toBe(true);
    expect(text.slice(0, -1)).not.toMatch(/[\n\u2028\u202e\u0085]/);
    expect(JSON.parse(text)).toMatchObject({ type: 'orphan', kind: 'response', scope: 's\u2028\u202e', caller: 'a\u0085b' });
  });
});
