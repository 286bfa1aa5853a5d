import { describe, expect, it } from 'vitest';
import { jobsCapNote } from './options.js';

describe('--jobs over the threads used', () => {
  it('is noted with the cap and why: the cores, or at most 4', () => {
    expect(jobsCapNote(1, 1)).toBeNull();
    expect(jobsCapNote(2, 1)).toBe('--jobs 2 capped at 1 (1 core available)');
    expect(jobsCapNote(2, 2)).toBeNull();
    expect(jobsCapNote(5, 2)).toBe('--jobs 5 capped at 2 (2 cores available)');
    expect(jobsCapNote(4, 4)).toBeNull();
    expect(jobsCapNote(5, 4)).toBe('--jobs 5 capped at 4 (4 cores available)');
    expect(jobsCapNote(4, 16)).toBeNull();
    expect(jobsCapNote(8, 16)).toBe('--jobs 8 capped at 4 (at most 4 are used)');
  });
});
