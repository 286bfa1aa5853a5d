import { describe, expect, it } from 'vitest';
import { usedJobs } from './options.js';

describe('usedJobs (the library caps jobs as the CLI does)', () => {
  it('a whole number from 1 to the cores, at most 4', () => {
    expect(usedJobs(undefined, 8)).toBe(1);
    expect(usedJobs(1000, 2)).toBe(2);
    expect(usedJobs(1000, 16)).toBe(4);
    expect(usedJobs(3, 16)).toBe(3);
    expect(usedJobs(2.7, 16)).toBe(2);
    expect(usedJobs(0, 16)).toBe(1);
    expect(usedJobs(-5, 16)).toBe(1);
    expect(usedJobs(Number.NaN, 16)).toBe(1);
    expect(usedJobs(Infinity, 16)).toBe(1);
  });
});
