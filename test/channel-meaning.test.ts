/**
 * Channel meaning is data: every format labels and counts a channel from its declaration
 * (row label, group labels, failure rule, terminal order), never from its name; every format
 * carries the same per-channel failed count.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnalyzeOptions } from '../src/analyze.js';
import { analyze } from '../src/analyze.js';
import { compareWithReport } from '../src/compare/compare.js';
import { pairs } from '../src/compare/pairs.js';
import { FORMATTERS, PAIRS_FORMATTERS, renderCompare, type FormatName } from '../src/formatters/index.js';
import { analyzeLines, fixture, ROOT, runCli, tmpDir, writeCapture, withoutGateLine } from './helpers.js';

const A = 'fixtures/assay';

function proxyProfile(dir: string): string {
  const file = path.join(dir, 'llm-proxy.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'proxy',
      channel: 'llm-proxy',
      role: { path: 'kind', request: ['req'], terminal: ['resp'] },
      scope: 'conn',
      id: 'rid',
      time: 'at',
      caller: 'client',
      status: 'status',
      group: ['upstream'],
      groupLabels: ['upstream'],
      attribution: 'group',
      rowLabel: 'upstream',
      failed: { statusAtLeast: 500 },
    }),
  );
  return file;
}

function proxyCapture(dir: string): string {
  const t = (ms: number) => new Date(Date.UTC(2026, 8, 1) + ms).toISOString();
  const lines: object[] = [];
  const statuses = [200, 502, '503', 404];
  statuses.forEach((s, i) => {
    lines.push({ kind: 'req', conn: 'c1', rid: `r${i}`, at: t(i * 10), client: 'web', upstream: i % 2 ? 'eu' : 'us' });
    lines.push({ kind: 'resp', conn: 'c1', rid: `r${i}`, at: t(i * 10 + 5), status: s, upstream: i % 2 ? 'eu' : 'us' });
  });
  // One request never answered: an ORPHAN_REQUEST finding on the channel.
  lines.push({ kind: 'req', conn: 'c1', rid: 'lost', at: t(100), client: 'web', upstream: 'us' });
  return writeCapture(lines, 'proxy.jsonl', dir);
}

describe('a custom channel named llm-proxy, failed = status >= 500', () => {
  const dir = tmpDir();
  const profile = proxyProfile(dir);
  const capture = proxyCapture(dir);
  const run = async (format: string, cmd = 'analyze', extra: string[] = []) => {
    const r = await runCli([cmd, '--profile', profile, '--format', format, ...extra, capture]);
    expect(withoutGateLine(r.stderr)).toBe('');
    return r.stdout;
  };

  it('json carries the declaration and the failed count', async () => {
    const r = JSON.parse(await run('json'));
    expect(r.channels).toHaveLength(1);
    expect(r.channels[0]).toMatchObject({
      channel: 'llm-proxy',
      failed: 2,
      meaning: { rowLabel: 'upstream', attribution: 'provider', groupLabels: ['upstream'], failure: { kind: 'status-at-least', min: 500 }, idKind: 'correlation' },
    });
  });

  it('table, markdown and html label and count it from the declaration', async () => {
    const table = await run('table');
    expect(table).toContain('Channel llm-proxy');
    expect(table).toMatch(/│ failed\s+│ 2\s+│ when status ≥ 500/);
    expect(table).toMatch(/│ upstream +│ n +│/);
    expect(table).not.toMatch(/│ provider|│ tool /);
    const md = await run('markdown');
    expect(md).toContain('| llm-proxy | 5 | 4 | 2 |');
    const html = await run('html');
    expect(html).toContain('data-k="0.failed">2<');
    expect(html).toContain('per upstream</span>');
  });

  it('sarif, github and ndjson name the channel in its findings; junit lists its offender', async () => {
    const gate = ['--max-orphan-requests', '0', '--no-fail'];
    for (const f of ['sarif', 'ndjson']) expect(await run(f, 'analyze', gate), f).toContain('llm-proxy');
    // GitHub annotations and JUnit name checks and offenders, not channels.
    expect(await run('github', 'analyze', gate)).toMatch(/::warning file=[^\n]*title=callpair ORPHAN_REQUEST::/);
    expect(await run('junit', 'analyze', gate)).toMatch(/<failure [^>]*type="max-orphan-requests">[^<]*ORPHAN_REQUEST/);
    const nd = (await run('ndjson')).trim().split('\n').map((l) => JSON.parse(l));
    expect(nd.find((l) => l.type === 'finding' && l.code === 'ORPHAN_REQUEST')).toMatchObject({ channel: 'llm-proxy' });
  });

  it('compare counts the same failed calls, per declared row', async () => {
    const c = JSON.parse(await run('json', 'compare'));
    const ch = c.channels[0];
    expect(ch).toMatchObject({ channel: 'llm-proxy', failed: 2, meaning: { rowLabel: 'upstream' } });
    const idRows = ch.attribution.filter((r: { strategy: string }) => r.strategy === 'id');
    expect(idRows.map((r: { caller: string }) => r.caller).sort()).toEqual(['eu', 'us']);
    expect(idRows.reduce((n: number, r: { errors: number }) => n + r.errors, 0)).toBe(2);
    const text = await run('table', 'compare');
    expect(text).toContain('Per upstream under each strategy');
    expect(text).toContain('2 failed');
  });
});

describe('fixtures/assay: one failed count in every format', () => {
  const args = ['--caller', `${A}/run-ids.caller.jsonl`, `${A}/run-ids.decisions.ndjson`, '--upstream', `${A}/run-ids.upstream.jsonl`];
  it('HTML, compare, Markdown and JSON agree (the deny decisions)', async () => {
    const json = JSON.parse((await runCli(['analyze', '-f', 'json', ...args])).stdout);
    const decision = json.channels.find((c: { channel: string }) => c.channel === 'decision');
    const failed = json.channels.map((c: { failed: number }) => c.failed);
    expect(decision.failed).toBe(3);

    const cmp = JSON.parse((await runCli(['compare', '-f', 'json', ...args])).stdout);
    expect(cmp.channels.map((c: { failed: number }) => c.failed)).toEqual(failed);
    for (const ch of cmp.channels) {
      const ids = ch.attribution.filter((r: { strategy: string }) => r.strategy === 'id');
      expect(ids.reduce((n: number, r: { errors: number }) => n + r.errors, 0)).toBe(ch.failed);
    }

    const md = (await runCli(['analyze', '-f', 'markdown', ...args])).stdout;
    json.channels.forEach((c: { channel: string; requests: number; terminals: number; failed: number }) =>
      expect(md).toContain(`| ${c.channel} | ${c.requests} | ${c.terminals} | ${c.failed} |`),
    );

    const html = (await runCli(['analyze', '-f', 'html', ...args])).stdout;
    json.channels.forEach((c: { failed: number }, i: number) => expect(html).toContain(`data-k="${i}.failed">${c.failed}<`));
    // The timeline marks exactly the failed pairs of the decision channel (no second definition).
    const marks = (html.match(/class="[^"]*\berr\b/g) ?? []).length;
    expect(marks).toBe(failed.reduce((a: number, b: number) => a + b, 0));
  });
});

describe('the event constructor clips every profile alike', () => {
  it('a 5 000-character scope is clipped by a custom profile exactly as by amplifier', async () => {
    const long = 's'.repeat(4990) + '\u00e9'.repeat(10);
    const amp = await analyzeLines([
      { event: 'llm:request', session_id: long, request_id: 'r1', data: { provider: 'p', model: 'm' } },
      { event: 'llm:response', session_id: long, request_id: 'r1', data: { provider: 'p', model: 'm', status: 'ok' } },
    ]);
    const dir = tmpDir();
    const file = path.join(dir, 'p.json');
    writeFileSync(file, JSON.stringify({ channel: 'calls', role: { path: 'kind', request: ['req'], terminal: ['resp'] }, scope: 'sid', id: 'rid' }));
    const custom = await analyzeLines(
      [
        { kind: 'req', sid: long, rid: 'r1' },
        { kind: 'resp', sid: long, rid: 'r1' },
      ],
      { profile: file },
    );
    const a = amp.channels[0]!.scopes[0]!.scope;
    const c = custom.channels[0]!.scopes[0]!.scope;
    expect(a.length).toBeLessThan(1100);
    expect(a).toMatch(/…\[\+3976 chars, sha256 [0-9a-f]{12}\]$/);
    expect(c).toBe(a);
  });
});

describe('channel names are unique across profiles', () => {
  it('rejects two channels of the same name with one line on stderr, exit 2', async () => {
    const r = await runCli(['analyze', '--profile', 'auto,amplifier', 'fixtures/seed-trace.jsonl']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('both declare channel "llm"');

    const dir = tmpDir();
    const file = path.join(dir, 'dup.json');
    writeFileSync(file, JSON.stringify({ name: 'mine', channel: 'decision', role: { path: 'kind', request: ['req'], terminal: ['resp'] } }));
    const d = await runCli(['analyze', '--profile', `auto,${file}`, 'fixtures/seed-trace.jsonl']);
    expect(d.code).toBe(2);
    expect(d.stderr.trim().split('\n')).toEqual([expect.stringContaining('profiles "assay" and "mine" both declare channel "decision"')]);
  });

  it('accepts distinct channels from several profiles (auto plus a custom file)', async () => {
    const r = await runCli(['analyze', '--profile', 'auto,fixtures/custom/http-profile.json', '-f', 'json', 'fixtures/seed-trace.jsonl', 'fixtures/custom/http-log.jsonl']);
    expect(withoutGateLine(r.stderr)).toBe('');
    const j = JSON.parse(r.stdout);
    expect(j.channels.map((c: { channel: string }) => c.channel).sort()).toEqual(['http', 'llm']);
    expect(j.channels.find((c: { channel: string }) => c.channel === 'http')).toMatchObject({ failed: 1, meaning: { rowLabel: 'route', groupLabels: ['route'] } });
  });
});

/** A report in every format callpair writes, made in-process (the formats, not the CLI, are what these pin). */
async function formatsOf(opts: AnalyzeOptions) {
  const ctx = { cwd: ROOT };
  const report = await analyze({ ...opts, timeline: true });
  const text = (f: FormatName) => FORMATTERS[f].render(report, ctx);
  const pairLines: string[] = [];
  await pairs({ ...opts, onLine: (l) => pairLines.push(PAIRS_FORMATTERS.ndjson.line(l)) });
  const { compare } = await compareWithReport(opts);
  return { text, pairs: pairLines.join(''), compare: renderCompare(compare, 'table', {}) };
}

describe('every format carries the per-channel failed count, and they agree', () => {
  const A = fixture('assay');
  const cases: Array<[string, AnalyzeOptions]> = [
    ['fixtures/assay', { inputs: [path.join(A, 'run-ids.decisions.ndjson')], caller: [path.join(A, 'run-ids.caller.jsonl')], upstream: [path.join(A, 'run-ids.upstream.jsonl')] }],
    ['custom http', { inputs: [fixture('custom/http-log.jsonl')], profile: fixture('custom/http-profile.json') }],
  ];
  it.each(cases)('%s: json, ndjson, sarif, junit, github and pairs lines agree', async (_name, opts) => {
    const out = await formatsOf(opts);
    const [json, ndjson, sarif, junit, github] = (['json', 'ndjson', 'sarif', 'junit', 'github'] as const).map((f) => ({ stdout: out.text(f) }));
    const pairs = { stdout: out.pairs };
    const truth = Object.fromEntries((JSON.parse(json!.stdout) as { channels: Array<{ channel: string; failed: number }> }).channels.map((c) => [c.channel, c.failed]));
    expect(Object.values(truth).some((n) => n > 0)).toBe(true);
    const summary = ndjson!.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; channels?: Array<{ channel: string; failed: number }> }).find((l) => l.type === 'summary')!;
    expect(Object.fromEntries(summary.channels!.map((c) => [c.channel, c.failed]))).toEqual(truth);
    const sr = JSON.parse(sarif!.stdout) as { runs: Array<{ properties: { channels: Array<{ channel: string; failed: number }> } }> };
    expect(Object.fromEntries(sr.runs[0]!.properties.channels.map((c) => [c.channel, c.failed]))).toEqual(truth);
    const ju = Object.fromEntries([...junit!.stdout.matchAll(/<property name="channel\.([^"]+)\.failed" value="(\d+)"\/>/g)].map((m) => [m[1], Number(m[2])]));
    expect(ju).toEqual(truth);
    const gh = /^callpair channels: (.*)$/m.exec(github!.stdout)![1]!;
    expect(Object.fromEntries(gh.split('; ').map((p) => [p.split(':')[0], Number(/(\d+) failed/.exec(p)![1])]))).toEqual(truth);
    const fromPairs: Record<string, number> = Object.fromEntries(Object.keys(truth).map((k) => [k, 0]));
    for (const l of pairs.stdout.trim().split('\n')) {
      const o = JSON.parse(l) as { type: string; channel: string; failed?: boolean };
      if (o.type === 'call' && o.failed) fromPairs[o.channel]!++;
    }
    expect(fromPairs).toEqual(truth);
  });
});

describe('"terminal order is arbitrary" is channel meaning every format reads', () => {
  const batch: AnalyzeOptions = { inputs: [fixture('real/openai-batch')], profile: 'openai-batch' };

  it('the report carries it; table and markdown claim no crossed-pair evidence; compare says FIFO is meaningless', async () => {
    const out = await formatsOf(batch);
    const json = JSON.parse(out.text('json')) as { channels: Array<{ meaning: { terminalOrder?: string } }> };
    expect(json.channels[0]!.meaning.terminalOrder).toBe('arbitrary');
    const table = out.text('table');
    expect(table).not.toContain('FIFO is unsafe here');
    expect(table).not.toMatch(/of 0 id pairs/);
    expect(table).toMatch(/crossed \(FIFO\) +│ — +│ terminal order is arbitrary/);
    const md = out.text('markdown');
    expect(md).toContain('— (terminal order is arbitrary)');
    const html = out.text('html');
    expect(html).toContain('— (terminal order is arbitrary)');
    const cmp = out.compare;
    expect(cmp).toContain('FIFO and signature-FIFO are meaningless here');
    expect(cmp).not.toMatch(/│ fifo +│ \d+ +│ \d+ +│ \d+ +│ \d+ /);
    expect(cmp).not.toContain('Crossed by FIFO');
  });

  it('compare lists no more crossed examples than it counts (fixtures/real/jsonrpc-spec)', async () => {
    const cmp = renderCompare((await compareWithReport({ inputs: [fixture('real/jsonrpc-spec/examples.jsonl')] })).compare, 'table', {});
    const m = /Crossed by FIFO \(first (\d+) of (\d+)\)/.exec(cmp)!;
    expect(Number(m[1])).toBeLessThanOrEqual(Number(m[2]));
    const crossed = /│ fifo +│ \d+ +│ \d+ +│ \d+ +│ (\d+) /.exec(cmp)![1];
    expect(m[2]).toBe(crossed);
  });
});
