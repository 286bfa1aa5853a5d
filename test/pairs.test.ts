import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../src/analyze.js';
import { pairs, type PairsLine } from '../src/compare/pairs.js';
import { amp, BIN, fixture, resetClock, ROOT, runCli, tmpDir, writeCapture } from './helpers.js';
import { writeGenerated } from './generate.js';

describe('callpair pairs', () => {
  it('writes one valid JSON line per call and per orphan, with the FIFO partner where ids exist', async () => {
    const res = await runCli(['pairs', 'fixtures/seed-trace.jsonl']);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as PairsLine);
    expect(lines).toHaveLength(3);
    const summ = lines.find((l) => l.caller === 'summarizer')!;
    expect(summ).toMatchObject({
      type: 'call',
      channel: 'llm',
      scope: 'sess-seed',
      method: 'id',
      confidence: 'exact',
      request: 'fixtures/seed-trace.jsonl:4',
      terminal: 'fixtures/seed-trace.jsonl:5',
      id: '32fc2255-2544-415b-84fd-be9576d5fc59',
      latencyMs: 10,
      status: 'ok',
      usage: { inputTokens: 5200, outputTokens: 310, cacheReadTokens: 0, cacheWriteTokens: null },
      interims: 0,
      fifoPartner: 'fixtures/seed-trace.jsonl:2',
      signaturePartner: 'fixtures/seed-trace.jsonl:4',
      signature: { provider: 'anthropic', model: 'claude-haiku-5', caller: 'summarizer' },
    });
  });

  it('writes orphans with their kind, never an invalid id, and escapes risky characters', async () => {
    resetClock();
    const evil = 'ev\u202eil\u2028\u001b[31mx';
    const file = writeCapture([
      amp({ event: 'llm:request', id: 'bad id; rm -rf', provider: 'p', caller: evil }),
      amp({ event: 'llm:request', id: 'ok-1', provider: 'p', caller: 'a' }),
      amp({ event: 'llm:response', id: 'nope-2', provider: 'p', status: 'ok' }),
    ]);
    const res = await runCli(['pairs', file]);
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain('bad id');
    expect(res.stdout).not.toMatch(/[\u202e\u2028\u001b]/);
    expect(res.stdout).toContain('\\u202e');
    const lines = res.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as PairsLine);
    // The response has an id no request has: the id-less request is taken as a fallback... or not:
    // a terminal with an id only takes id-less requests. The bad-id request has no (valid) id.
    const kinds = lines.map((l) => (l.type === 'call' ? `call ${l.method}` : `orphan ${l.kind}`)).sort();
    expect(kinds).toEqual(['call signature', 'orphan request']);
    const call = lines.find((l) => l.type === 'call')!;
    expect(call.id).toBe('nope-2');
    expect(call.caller).toBe(evil);
    const orphan = lines.find((l) => l.type === 'orphan')!;
    expect(orphan).toMatchObject({ kind: 'request', id: 'ok-1', caller: 'a', reason: 'end-of-input' });
  });

  it('hands the same lines to a library listener', async () => {
    const got: PairsLine[] = [];
    const report = await pairs({ inputs: [fixture('seed-trace.jsonl')], onLine: (l) => got.push(l) });
    expect(got).toHaveLength(report.channels[0]!.pairs.total);
  });

  it('streams a large capture in constant memory (64 MB heap, output larger than that, slow reader)', async () => {
    const file = path.join(tmpDir(), 'large.jsonl');
    // 64 MB, not less: on a starved 2-core machine (the full suite beside it) 48 MB ran out, though
    // a quiet run needs about 32 MB; the output (about 76 MB, from a 67 MB capture) is still larger than the heap.
    const stats = writeGenerated(file, { sessions: 6000, seed: 11 });
    const report = await analyze({ inputs: [file] });
    const ch = report.channels[0]!;
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: Buffer; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--max-old-space-size=64', BIN, 'pairs', file], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.pause();
      // A reader that stalls: the writer must wait for it, not buffer the output.
      setTimeout(() => child.stdout.on('data', (b: Buffer) => out.push(b)).resume(), 3000);
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.length).toBeGreaterThan(64 * 1024 * 1024);
    const text = stdout.toString('utf8');
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    let calls = 0;
    let orphans = 0;
    for (const l of lines) {
      const v = JSON.parse(l) as PairsLine;
      if (v.type === 'call') calls++;
      else orphans++;
    }
    expect(calls).toBe(ch.pairs.total);
    expect(orphans).toBe(ch.orphanRequests + ch.orphanResponses);
    expect(calls + ch.orphanRequests).toBe(stats.requests);
  }, 120_000);

  it('ends quietly when the reader goes away (| head -n 1)', async () => {
    const file = path.join(tmpDir(), 'pipe.jsonl');
    writeGenerated(file, { sessions: 400, seed: 3 });
    const res = await new Promise<{ out: string; err: string }>((resolve, reject) => {
      const child = spawn('bash', ['-c', `"${process.execPath}" "${BIN}" pairs "${file}" | head -n 1; echo "rc=\${PIPESTATUS[0]}" >&2`], { cwd: ROOT });
      let out = '';
      let err = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      child.on('error', reject);
      child.on('close', () => resolve({ out, err }));
    });
    expect(res.out.trimEnd().split('\n')).toHaveLength(1);
    JSON.parse(res.out);
    expect(res.err.trim()).toBe('rc=0');
  });
});

describe('the jq example of docs/report.md', () => {
  const hasJq = spawnSync('jq', ['--version']).status === 0;
  it.skipIf(!hasJq)('turns `pairs` into the per-caller table of compare’s id rows', async () => {
    const readme = readFileSync(path.join(ROOT, 'docs', 'report.md'), 'utf8');
    expect(readme).toContain('jq -nr -f examples/jq/per-caller.jq');
    const res = await runCli(['pairs', 'fixtures/seed-trace.jsonl']);
    const jq = spawnSync('jq', ['-nr', '-f', path.join(ROOT, 'examples', 'jq', 'per-caller.jq')], { input: res.stdout, encoding: 'utf8' });
    expect(jq.status).toBe(0);
    expect(jq.stdout).toBe('caller\tcalls\terrors\tinput\toutput\tmean_ms\nsummarizer\t1\t0\t5200\t310\t10\nnaming\t1\t1\t\t\t20\nagent\t1\t0\t48000\t1900\t30\n');
  });
});
