import { describe, expect, it } from 'vitest';
import { NOTE_TEXT, noteText } from './notes.js';
import { failOnItem, GATE_CHECKS, isFailOnCheck, parseFailOn } from './gate.js';

describe('typed codes', () => {
  it('every note code has one capture-free sentence, prefixed by its profile', () => {
    for (const [code, text] of Object.entries(NOTE_TEXT)) {
      expect(text.startsWith(`${code.split('-')[0]}: `)).toBe(true);
      expect(noteText(code as keyof typeof NOTE_TEXT)).toBe(text);
    }
  });

  it('gate check names: fixed checks, and fail-on checks that carry their item', () => {
    expect(GATE_CHECKS).toContain('max-crossed-rate');
    const [code, sev] = parseFailOn(['orphan_request, warning']);
    expect([code, sev]).toEqual(['ORPHAN_REQUEST', 'warning']);
    const name = `fail-on:${code!}` as const;
    expect(isFailOnCheck(name) && failOnItem(name)).toBe('ORPHAN_REQUEST');
    expect(isFailOnCheck('max-ambiguous')).toBe(false);
  });
});
