/** `parseTarget`: a location's line counts from 1 and is a safe integer; anything else after `PATH:` is refused, echoed escaped (docs/trace.md). */
import { describe, expect, it } from 'vitest';
import { InputUsageError } from '../input/sources.js';
import { parseTarget } from './trace.js';

const FILE = 'caps/a.jsonl';
const exists = (p: string) => p === FILE;
const RULE = 'give PATH:LINE or PATH:LINE#/json/pointer, LINE a whole number from 1 to 9007199254740991';

function refusal(text: string): string {
  try {
    parseTarget(text, [], exists);
  } catch (e) {
    expect(e).toBeInstanceOf(InputUsageError);
    return (e as Error).message;
  }
  throw new Error(`${text} was accepted`);
}

describe('parseTarget: the line of a location', () => {
  it('reads lines from 1 to 2^53 - 1 exactly, with or without a pointer', () => {
    expect(parseTarget(`${FILE}:1`, [], exists)).toEqual({ kind: 'location', path: FILE, line: 1 });
    expect(parseTarget(`${FILE}:007#/a:1`, [], exists)).toEqual({ kind: 'location', path: FILE, line: 7, pointer: '/a:1' });
    expect(parseTarget(`${FILE}:9007199254740991`, [], exists)).toEqual({ kind: 'location', path: FILE, line: Number.MAX_SAFE_INTEGER });
    // One of the inputs, not (yet) a file: a location too.
    expect(parseTarget('-:3', ['-'], () => false)).toEqual({ kind: 'location', path: '-', line: 3 });
  });

  it('line 0 is a usage error: lines count from 1', () => {
    expect(refusal(`${FILE}:0`)).toBe(`trace: ${FILE}:0: line 0: lines count from 1; ${RULE}`);
    expect(refusal(`${FILE}:000#/log/entries/0`)).toBe(`trace: ${FILE}:000#/log/entries/0: line 0: lines count from 1; ${RULE}`);
  });

  it('a line past 2^53 - 1 is refused as given, never rounded', () => {
    expect(refusal(`${FILE}:99999999999999999999`)).toBe(`trace: ${FILE}:99999999999999999999: line 99999999999999999999 is too large; ${RULE}`);
    expect(refusal(`${FILE}:9007199254740992#/x`)).toBe(`trace: ${FILE}:9007199254740992#/x: line 9007199254740992 is too large; ${RULE}`);
  });

  it('a path and anything but a line number after it is refused, not taken as an id', () => {
    for (const rest of ['-1', '1.5', '1e3', '', ' 5', 'x', '5#x', '0x10']) {
      expect(refusal(`${FILE}:${rest}`), rest).toBe(`trace: ${FILE}:${rest}: "${rest}" is not a line number; ${RULE}`);
    }
  });

  it('echoes the target escaped: no control character reaches the terminal raw', () => {
    const m = refusal(`${FILE}:\u001b[31m\u0007\n`);
    expect(m).toBe(`trace: ${FILE}:\\x1b[31m\\x07\\x0a: "\\x1b[31m\\x07\\x0a" is not a line number; ${RULE}`);
    expect(refusal(`${FILE}:0#/\u009b2J`)).toBe(`trace: ${FILE}:0#/\\x9b2J: line 0: lines count from 1; ${RULE}`);
    expect(refusal(`${FILE}:0#/\u009b2J`)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('no path before the colon: an id, as before', () => {
    expect(parseTarget('"call:0"', [], exists)).toEqual({ kind: 'id', id: '"call:0"' });
    expect(() => parseTarget('no such:0', [], exists)).toThrow(/look the call up by PATH:LINE/);
  });
});
