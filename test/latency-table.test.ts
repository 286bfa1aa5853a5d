/** The terminal latency table has one column per group label the profile names: no empty, unnamed column. */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const headOf = (out: string) => {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Latency'));
  return lines[at + 2]!.split('│').slice(1, -1).map((c) => c.trim());
};

describe('latency table columns', () => {
  it('a profile with one group path (route): route, n, min … max at, and no empty column', async () => {
    const r = await runCli(['analyze', 'fixtures/custom/http-log.jsonl', '--profile', 'fixtures/custom/http-profile.json']);
    expect(headOf(r.stdout)).toEqual(['route', 'n', 'min', 'p50', 'p90', 'p99', 'max', 'max at']);
  });

  it('provider and model keep both columns', async () => {
    const r = await runCli(['analyze', 'fixtures/orphan-crossed.jsonl', '--wide']);
    expect(headOf(r.stdout).slice(0, 3)).toEqual(['provider', 'model', 'n']);
  });
});
