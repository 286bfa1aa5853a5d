/**
 * `trace PATH:LINE` on a line inside a multi-line JSON document record (not its first line): the
 * record whose lines hold it is traced exactly as `trace PATH:N#POINTER` traces it.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const HAR = 'fixtures/real/har/har-fulfill.har.json';
const OH = 'fixtures/real/openhands/basic.json';
const json = async (args: string[]) => JSON.parse((await runCli([...args, '-f', 'json'])).stdout);

describe('trace on a line inside a JSON document record', () => {
  it('a line inside a HAR entry traces that entry, as PATH:N#POINTER does', async () => {
    const inner = await json(['trace', `${HAR}:102`]);
    const direct = await json(['trace', `${HAR}:101#/log/entries/1`]);
    expect(inner.within).toEqual({ line: 101, pointer: '/log/entries/1', document: 1 });
    expect(inner.calls).toEqual(direct.calls);
    expect(inner.calls).toHaveLength(1);
    expect(inner.line).toBeUndefined();
    const text = (await runCli(['trace', `${HAR}:102`])).stdout;
    expect(text).toContain(`${HAR}:102 is inside the record at ${HAR}:101#/log/entries/1 (in the document record that starts at line 1): that record traced.`);
    expect(text).not.toContain('not JSON');
  });

  it('the last line of an entry is still that entry; a line of the document outside its entries says so', async () => {
    expect((await json(['trace', `${HAR}:164`])).within).toEqual({ line: 101, pointer: '/log/entries/1', document: 1 });
    const head = await json(['trace', `${HAR}:3`]);
    expect(head.calls).toEqual([]);
    expect(head.line).toMatchObject({ state: 'document', outcome: 'used', record: { line: 1 } });
  });

  it('a document read element by element (over --max-line-bytes): a line inside an entry traces that entry too', async () => {
    const small = ['--max-line-bytes', '3000'];
    const inner = await json(['trace', `${HAR}:102`, ...small]);
    const direct = await json(['trace', `${HAR}:101#/log/entries/1`, ...small]);
    expect(inner.within).toEqual({ line: 101, pointer: '/log/entries/1' });
    expect(inner.calls).toEqual(direct.calls);
    expect(inner.calls).toHaveLength(1);
    expect((await json(['trace', `${HAR}:3`, ...small])).line).toMatchObject({ state: 'document', record: null });
  });

  it('a line inside an element of a top-level array (OpenHands) traces the element at its first line', async () => {
    const inner = await json(['trace', `${OH}:16`]);
    const direct = await json(['trace', `${OH}:15`]);
    expect(inner.within).toEqual({ line: 15, document: 15 });
    expect(inner.calls).toEqual(direct.calls);
    expect(inner.calls.length).toBeGreaterThan(0);
  });

  it('a line of an ignored element, and the array brackets, are no unparsed lines (the report counts none)', async () => {
    const report = await json(['analyze', OH]);
    expect(report.inputs[0].unparsed).toBe(0);
    expect((await json(['trace', `${OH}:3`])).line).toEqual({ state: 'document', kind: expect.stringContaining('an object with id'), profile: 'transcript', outcome: 'ignored', record: { line: 2, end: 14 } });
    expect((await json(['trace', `${OH}:2`])).line).toMatchObject({ state: 'document', outcome: 'ignored', record: { line: 2, end: 14 } });
    expect((await json(['trace', `${OH}:1`])).line).toEqual({ state: 'document', kind: null, profile: 'transcript', record: null });
  });
});
