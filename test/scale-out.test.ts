/**
 * The map step on engines people already have (docs/scale-out.md): GNU parallel and Dask
 * distributed shard a per-session capture tree, run `callpair analyze -f json` per shard, and
 * `callpair merge` gives the bytes of one run. scripts/ensure-scale-out.sh (pretest) installs
 * Debian's `parallel` and `python3-distributed` when missing; the GNU parallel test never skips,
 * the Dask test skips only where Dask cannot be imported. The Kubernetes and GitHub Actions
 * manifests the page links (examples/k8s, examples/github) are parsed and checked.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli, tmpDir } from './helpers.js';
import { writeShardedCapture } from './shards.js';

/** A tree of capture files, one scope set per file, and the single run's JSON report. */
async function tree(seed: number): Promise<{ dir: string; single: string }> {
  const dir = tmpDir();
  writeShardedCapture(path.join(dir, 'captures'), seed, 16, seed % 2 === 0);
  const single = path.join(dir, 'single.json');
  const r = await runCli(['analyze', 'captures', '-f', 'json', '-o', single], { cwd: dir });
  expect([0, 1]).toContain(r.code);
  return { dir, single };
}

const hasDask = spawnSync('/usr/bin/python3', ['-c', 'import distributed'], { encoding: 'utf8' }).status === 0;

describe('scale-out recipes', () => {
  it('GNU parallel: examples/parallel/shards.sh analyses shards in parallel, merged = one run', async () => {
    const { dir, single } = await tree(5);
    const callpair = `${process.execPath} ${BIN}`; // word-split by the script, as `npx callpair` is
    // The recipe docs/scale-out.md links: exit 1 (a shard's gate failed) still wrote the report.
    const env = { ...process.env, CALLPAIR: callpair, J: '2', N: '3', GITHUB_STEP_SUMMARY: path.join(dir, 'summary.md') };
    const r = spawnSync('sh', [path.join(ROOT, 'examples', 'parallel', 'shards.sh')], { cwd: dir, encoding: 'utf8', env });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'merged.json'), 'utf8')).toBe(readFileSync(single, 'utf8'));
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toContain('## callpair');
  }, 120_000);

  it.skipIf(!hasDask)('Dask distributed: examples/dask maps analyze over shards on 2 worker processes, merged = one run', async () => {
    const { dir, single } = await tree(8);
    const r = spawnSync(
      '/usr/bin/python3',
      [path.join(ROOT, 'examples', 'dask', 'run.py'), 'captures', '--shards', '4', '--out', 'merged.json', '--workdir', path.join(dir, 'shards'), '--callpair', `${process.execPath} ${BIN}`],
      { cwd: dir, encoding: 'utf8', timeout: 150_000 },
    );
    expect([0, 1], r.stderr).toContain(r.status);
    expect(existsSync(path.join(dir, 'merged.json')), r.stderr).toBe(true);
    expect(readFileSync(path.join(dir, 'merged.json'), 'utf8')).toBe(readFileSync(single, 'utf8'));
  }, 180_000);

  it.skipIf(!hasDask)('the Dask recipe run by a python3 first on PATH that has no Dask finds the one that has it', () => {
    const dir = tmpDir();
    // A python3 that cannot import Dask (no site-packages), first on PATH: a venv's, pyenv's, conda's.
    writeFileSync(path.join(dir, 'python3'), '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n', { mode: 0o755 });
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dir}${path.delimiter}${process.env.PATH}` };
    delete env.CALLPAIR_DASK_REEXEC;
    expect(spawnSync('python3', ['-c', 'import distributed'], { env }).status).not.toBe(0);
    const r = spawnSync('python3', [path.join(ROOT, 'examples', 'dask', 'run.py'), '--help'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('usage: run.py');
    expect(r.stderr).toMatch(/has no Dask; running with \/usr\/bin\/python3/);
    // With none that has it, one message says what to install and use.
    const none = spawnSync(path.join(dir, 'python3'), [path.join(ROOT, 'examples', 'dask', 'run.py'), '--help'], { env: { ...env, CALLPAIR_DASK_REEXEC: '1' }, encoding: 'utf8' });
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('Dask distributed cannot be imported');
    expect(none.stderr).toContain('python3-distributed');
  });

  it('the Kubernetes Indexed Job and the GitHub Actions matrix of docs/scale-out.md parse and hold the key fields', () => {
    const blocks = ['examples/k8s/jobs.yaml', 'examples/github/scale-out.yml'].map((f) => readFileSync(path.join(ROOT, f), 'utf8'));
    const docs = blocks.flatMap((b) => parseAllDocuments(b).map((d) => {
      expect(d.errors, String(d.errors[0])).toEqual([]);
      return d.toJS() as Record<string, any>;
    }));
    const job = docs.find((d) => d.kind === 'Job')!;
    expect(job, 'an Indexed Job').toBeTruthy();
    expect(job.apiVersion).toBe('batch/v1');
    expect(job.spec.completionMode).toBe('Indexed');
    expect(job.spec.completions).toBeGreaterThan(1);
    expect(job.spec.parallelism).toBeGreaterThan(0);
    const c = job.spec.template.spec.containers[0];
    const cmd = [...(c.command ?? []), ...(c.args ?? [])].join(' ');
    expect(cmd).toContain('callpair analyze');
    expect(cmd).toContain('JOB_COMPLETION_INDEX');
    expect(cmd).toContain('-f json');
    expect(job.spec.template.spec.restartPolicy).toMatch(/Never|OnFailure/);
    const merge = docs.find((d) => d.kind === 'Job' && d !== job && JSON.stringify(d).includes('callpair merge'));
    expect(merge, 'a merge Job').toBeTruthy();

    const wf = docs.find((d) => d.jobs && d.on)!;
    expect(wf, 'a GitHub Actions workflow').toBeTruthy();
    const shardJob = Object.values(wf.jobs).find((j: any) => j.strategy?.matrix) as any;
    expect(shardJob.strategy.matrix.shard.length).toBeGreaterThan(1);
    expect(JSON.stringify(shardJob.steps)).toContain('callpair analyze');
    expect(JSON.stringify(shardJob.steps)).toContain('actions/upload-artifact');
    const mergeJob = Object.entries(wf.jobs).find(([, j]: [string, any]) => JSON.stringify(j.steps).includes('callpair merge')) as [string, any];
    expect(mergeJob).toBeTruthy();
    const shardName = Object.entries(wf.jobs).find(([, j]) => j === shardJob)![0];
    expect([].concat(mergeJob[1].needs)).toContain(shardName);
    expect(JSON.stringify(mergeJob[1].steps)).toContain('actions/download-artifact');
    expect(JSON.stringify(mergeJob[1].steps)).toContain('callpair render');
  });
});
