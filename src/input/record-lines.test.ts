import { describe, expect, it } from 'vitest';
import { eachLocated, parsePath } from '../profiles/lang/path.js';
import { pointerLines, recordLines } from './documents.js';

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

describe('pointerLines: the lines a JSON pointer spans inside a document record', () => {
  const text = '{\n  "log": {\n    "entries": [\n      {"a": 1},\n      {\n        "b": [1, {"c": 2}]\n      }\n    ],\n    "a/b": 3\n  }\n}';
  const v = JSON.parse(text) as unknown;
  it('gives the first and last line of the value, the pointer read as JSON.parse reads the record', () => {
    expect(pointerLines(v, Buffer.from(text), '/log/entries/0')).toEqual({ start: 3, end: 3 });
    expect(pointerLines(v, Buffer.from(text), '/log/entries/1')).toEqual({ start: 4, end: 6 });
    expect(pointerLines(v, Buffer.from(text), '/log/a~1b')).toEqual({ start: 8, end: 8 });
    expect(pointerLines(v, Buffer.from(text), '')).toEqual({ start: 0, end: 10 });
  });
  it('null where the pointer leads nowhere', () => {
    expect(pointerLines(v, Buffer.from(text), '/log/entries/2')).toBeNull();
    expect(pointerLines(v, Buffer.from(text), '/nope')).toBeNull();
    expect(pointerLines(v, Buffer.from(text), 'log')).toBeNull();
  });
});
