import { describe, expect, it } from 'vitest';
import { eachLocated, parsePath } from '../profiles/lang/path.js';
import { recordLines } from './documents.js';

const lines = (text: string, p: string) => recordLines(Buffer.from(text), parsePath(p, 'records'));

describe('recordLines: where each record at a records path starts', () => {
  it('gives the line of each element, in the order the parsed value yields them', () => {
    const text = '{\n  "log": {\n    "entries": [\n      {"a": "x\\"]}\\n"},\n\n      {\n        "b": [1, {"c": 2}]\n      }\n    ]\n  }\n}';
    expect(lines(text, 'log.entries[]')).toEqual([3, 5]);
    expect(lines(text, 'log.entries[1]')).toEqual([5]);
    expect(lines(text, 'log.entries[].b[]')).toEqual([6, 6]);
    expect([...eachLocated(JSON.parse(text), parsePath('log.entries[]', 'records'))].map((x) => x.pointer)).toEqual(['/log/entries/0', '/log/entries/1']);
  });

  it('reads a repeated key as JSON.parse does (the last one) and finds nothing where the path leads nowhere', () => {
    const text = '{"calls": [{"id": 1}],\n "calls": [\n {"id": 2},\n {"id": 3}]}';
    expect(lines(text, 'calls[]')).toEqual([2, 3]);
    expect([...eachLocated(JSON.parse(text), parsePath('calls[]', 'records'))].map((x) => x.value)).toEqual([{ id: 2 }, { id: 3 }]);
    expect(lines('{"calls": {"id": 1}}', 'calls[]')).toEqual([]);
    expect(lines('{"other": [1]}', 'calls[]')).toEqual([]);
  });

  it('escapes ~ and / in pointers (RFC 6901)', () => {
    expect([...eachLocated({ 'a/b': { '~c': [0] } }, parsePath(['a/b', '~c', []], 'records'))].map((x) => x.pointer)).toEqual(['/a~1b/~0c/0']);
  });
});
