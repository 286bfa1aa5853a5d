import { describe, expect, it } from 'vitest';
import { deriveNeedles, lineHasNeedle, stringTokenSpellings } from './needles.js';

describe('derived needles', () => {
  it('match whatever spacing the writer used around the colon', () => {
    const needles = deriveNeedles(['request', 'response']);
    expect(needles).toEqual(['"request"', '"response"']);
    expect(lineHasNeedle('{"type": "request", "count": 1}', needles)).toBe(true); // Python json.dumps
    expect(lineHasNeedle('{"type":"response","count":1}', needles)).toBe(true); // JSON.stringify
    expect(lineHasNeedle('{ "type" :\t"request" }', needles)).toBe(true);
    expect(lineHasNeedle('{"type": "session_start"}', needles)).toBe(false);
    // A hand-written byte needle would miss one of the two writers:
    expect(lineHasNeedle('{"type": "request"}', ['"type":"re'])).toBe(false);
  });

  it('cover \\u escapes of non-ASCII text and escaped slashes', () => {
    expect(stringTokenSpellings('café')).toEqual(['"café"', '"caf\\u00e9"', '"caf\\u00E9"']);
    expect(lineHasNeedle(JSON.stringify({ kind: 'café' }).replace('é', '\\u00e9'), deriveNeedles(['café']))).toBe(true);
    const urls = deriveNeedles(['/v1/chat/completions']);
    expect(lineHasNeedle('{"url":"\\/v1\\/chat\\/completions"}', urls)).toBe(true);
    expect(lineHasNeedle('{"url": "/v1/chat/completions"}', urls)).toBe(true);
  });

  it('escape quotes and backslashes as JSON does', () => {
    expect(stringTokenSpellings('a"b')).toEqual(['"a\\"b"']);
  });

  it('give no needle (parse every line) when a role needs no marker', () => {
    expect(deriveNeedles(null)).toEqual([]);
  });
});
