/**
 * A saved report is input, possibly hostile (docs/report.md, "Reading a saved report"): render (every
 * format), diff, merge and `analyze --baseline` validate it (src/report/validate.ts) and refuse one
 * whose fixed-vocabulary fields are off — one line on stderr naming the file and the first problem,
 * exit 2, no escape sequence, C1 control or bidi character on stderr, nothing written to -o.
 * Also: merge refuses one file given twice, and notes a channel past the held-scope cap.
 */
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { FORMAT_NAMES } from '../src/formatters/index.js';
import { MERGE_NOTE_PREFIX, ReportMerger } from '../src/merge/merge.js';
import type { Report } from '../src/report/report.js';
import { reportProblem } from '../src/report/validate.js';
import { fixture, runCli, tmpDir } from './helpers.js';

const dir = tmpDir();
const UNSAFE = /[\u001b\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function saved(name: string, args: string[]): Promise<string> {
  const file = path.join(dir, name);
  const r = await runCli(['analyze', fixture('orphan-crossed.jsonl'), '-f', 'json', '-o', file, ...args]);
  expect(r.code).toBe(0);
  return file;
}

/**
 * Field classes, each broken one way: [name, mutation, the problem's path]. Every case is checked
 * in-process; the first of each class (CLI_CASES) through every command too.
 */
const CASES: Array<[string, (r: Json) => void, string]> = [
  [
    'the tester\'s report (check name, code, severity)',
    (r) => {
      r.gate.checks[0].name = 'error-findings\n::notice::x';
      r.findings[0].code = 'C\u001b[31m\u202e';
      r.findings[0].severity = 'bogus';
    },
    'findings[0].code: not a known finding code',
  ],
  ['severity not the code\'s', (r) => (r.findings[0].severity = 'note'), 'findings[0].severity'],
  ['unknown severity', (r) => (r.findings[1].severity = 'bogus\u001b[2J'), 'findings[1].severity'],
  ['gate check name', (r) => (r.gate.checks[0].name = 'error-findings\n::notice::x'), 'gate.checks[0].name: not a known gate check'],
  ['gate check op', (r) => (r.gate.checks[0].op = '=<\u202e'), 'gate.checks[0].op'],
  ['gate check number', (r) => (r.gate.checks[0].actual = '__INF__'), 'gate.checks[0].actual: must be a finite number'],
  ['gate check codes', (r) => (r.gate.checks[0].codes = ['NOPE']), 'gate.checks[0].codes[0]: not a known finding code'],
  ['tool.version', (r) => (r.tool.version = '0.1.0\u001b]8;;http://x\u0007'), 'tool.version: not a version'],
  ['tool.name', (r) => (r.tool.name = 'other'), 'tool.name'],
  ['findingCounts key', (r) => (r.findingCounts['BOGUS\u202e'] = 1), 'findingCounts'],
  ['findingCounts value', (r) => (r.findingCounts.ORPHAN_REQUEST = -1), 'findingCounts.ORPHAN_REQUEST: must be a whole number ≥ 0'],
  ['findingsOmitted key', (r) => (r.findingsOmitted.NOPE = 2), 'findingsOmitted.NOPE: not a known finding code'],
  ['listed beyond counted', (r) => (r.findingCounts.ORPHAN_RESPONSE = 0), 'findings[1]: more ORPHAN_RESPONSE findings listed than findingCounts.ORPHAN_RESPONSE counts'],
  ['channel name', (r) => (r.channels[0].channel = 'llm\u202etxt'), 'channels[0].channel: not a valid name'],
  ['finding channel', (r) => (r.findings[0].channel = 'a b'), 'findings[0].channel: not a valid name'],
  ['inputs[].profile', (r) => (r.inputs[0].profile = 'amplifier\u001b[31m'), 'inputs[0].profile: not a valid name'],
  ['inputs[].profile, an empty part', (r) => (r.inputs[0].profile = 'amplifier++jsonrpc'), 'inputs[0].profile: not a valid name'],
  ['inputs[].profile, a part off the name rule', (r) => (r.inputs[0].profile = 'amplifier+<b>'), 'inputs[0].profile: not a valid name'],
  ['merge data channel', (r) => (r.mergeData.channels[0].channel = '<b>'), 'mergeData.channels[0].channel: not a valid name'],
  ['a count', (r) => (r.channels[0].requests = '<img src=x>'), 'channels[0].requests: must be a whole number ≥ 0'],
  ['a rate', (r) => (r.channels[0].crossed.fifoRate = 7), 'channels[0].crossed.fifoRate: must be a number from 0 to 1'],
  ['a location line', (r) => (r.findings[0].locations[0].line = '6<script>'), 'findings[0].locations[0].line'],
  ['finding data enum', (r) => (r.findings[2].data.shadow = 'lifo'), 'findings[2].data.shadow'],
  ['failure rule', (r) => (r.channels[0].meaning.failure = { kind: 'never' }), 'channels[0].meaning.failure.kind'],
  ['group label', (r) => (r.channels[0].meaning.groupLabels = ['prov\u001b[1m']), 'channels[0].meaning.groupLabels[0]'],
  ['run gate fail-on', (r) => (r.run.gate.failOn = ['everything']), 'run.gate.failOn[0]'],
  ['timeline enum', (r) => (r.timeline.scopes[0].calls[0].kind = 'x" onload="y'), 'timeline.scopes[0].calls[0].kind'],
  ['timeline time', (r) => (r.timeline.scopes[0].start = 1e300), 'timeline.scopes[0].start'],
  ['baseline state', (r) => (r.baseline.states[0] = 'fixed\u202e'), 'baseline.states[0]'],
  ['baseline finding', (r) => (r.baseline.fixed = [{ ...r.findings[0], code: 'X' }]), 'baseline.fixed[0].code'],
];

/** One case per field class run through a command (the rest in-process, for time). */
const CLI_CASES = new Set([
  'the tester\'s report (check name, code, severity)',
  'unknown severity',
  'gate check name',
  'gate check op',
  'gate check number',
  'tool.version',
  'findingCounts key',
  'listed beyond counted',
  'channel name',
  'inputs[].profile',
  'a count',
  'finding data enum',
  'failure rule',
  'timeline enum',
  'baseline state',
]);

function write(base: Json, name: string, mutate: (r: Json) => void): string {
  const r = structuredClone(base);
  mutate(r);
  const file = path.join(dir, `${name.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(r).replace('"__INF__"', '1e999'));
  return file;
}

function expectRefused(res: { code: number | null; stdout: string; stderr: string }, file: string, problem: string, what: string): void {
  expect(res.code, `${what}: ${res.stderr}`).toBe(2);
  const lines = res.stderr.split('\n').filter((l) => l !== '');
  expect(lines, what).toHaveLength(1);
  expect(res.stderr, what).not.toMatch(UNSAFE);
  expect(lines[0], what).toContain(`callpair: ${file}: `);
  expect(lines[0], what).toContain(problem);
  expect(res.stdout, what).toBe('');
}

/** Nothing written: the -o file does not exist and no temporary file is left beside it. */
function expectNothingWritten(out: string, what: string): void {
  expect(existsSync(out), what).toBe(false);
  if (!existsSync(path.dirname(out))) return;
  expect(readdirSync(path.dirname(out)).filter((f) => f.startsWith('.callpair-')), what).toEqual([]);
}

describe('a saved report is validated before any command uses it', () => {
  it('reports analyze makes pass, with a timeline and a baseline too', async () => {
    const plain = await saved('plain.json', []);
    const tl = await saved('timeline.json', ['--timeline']);
    const withBase = await saved('with-baseline.json', ['--timeline', '--baseline', plain]);
    for (const f of [plain, tl, withBase]) expect(reportProblem(JSON.parse(readFileSync(f, 'utf8')))).toBeNull();
    for (const f of ['seed-trace.jsonl', 'orphan-crossed.jsonl']) expect(reportProblem(JSON.parse(JSON.stringify(await analyze({ inputs: [fixture(f)], timeline: true }))))).toBeNull();
  });

  it('an input read by two profiles (inputs[].profile amplifier+jsonrpc): render and merge take the report analyze writes', async () => {
    const capture = path.join(dir, 'amplifier-jsonrpc.jsonl');
    const jsonrpc = fixture('real/jsonrpc-spec/examples.jsonl');
    writeFileSync(capture, Buffer.concat([readFileSync(fixture('seed-trace.jsonl')), readFileSync(jsonrpc)]));
    const file = path.join(dir, 'two-profiles.json');
    const a = await runCli(['analyze', capture, jsonrpc, '-f', 'json', '-o', file]);
    expect(a.code, a.stderr).toBe(0);
    const report = JSON.parse(readFileSync(file, 'utf8')) as Json;
    expect(report.inputs.map((i: Json) => i.profile)).toEqual(['amplifier+jsonrpc', 'jsonrpc']);
    expect(reportProblem(report)).toBeNull();
    const merged = path.join(dir, 'two-profiles-merged.json');
    const [render, merge] = await Promise.all([runCli(['render', file, '-f', 'markdown']), runCli(['merge', file, '-o', merged])]);
    expect(render.code, render.stderr).toBe(0);
    expect(render.stdout).toContain('| amplifier+jsonrpc |');
    expect(merge.code, merge.stderr).toBe(0);
    const again = await runCli(['render', merged, '--wide']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(' amplifier+jsonrpc ');
  });

  it('every case: the first problem, by its path', async () => {
    const full = JSON.parse(readFileSync(await saved('full-unit.json', ['--timeline', '--baseline', await saved('good-unit.json', [])]), 'utf8')) as Json;
    for (const [name, mutate, problem] of CASES) {
      const r = structuredClone(full);
      mutate(r);
      if (r.gate.checks[0].actual === '__INF__') r.gate.checks[0].actual = Infinity;
      expect(reportProblem(r), name).toContain(problem);
    }
  });

  it('every field class: render (formats in turn), diff, merge or --baseline refuses it, nothing written', async () => {
    // Every command reads a report through one reader (src/cli/report-file.ts): each field class
    // goes through one command in turn (each command refuses three classes), and the hostile report
    // below through every command and every format.
    const good = await saved('good.json', []);
    const full = JSON.parse(readFileSync(await saved('full.json', ['--timeline', '--baseline', good]), 'utf8')) as Json;
    const commands: Array<[string, (bad: string, out: string, format: string) => string[]]> = [
      ['render', (bad, out, format) => ['render', bad, '-f', format, '-o', out]],
      ['diff (head)', (bad, out) => ['diff', good, bad, '-f', 'markdown', '-o', out]],
      ['diff (base)', (bad, out) => ['diff', bad, good, '-o', out]],
      ['merge', (bad, out) => ['merge', good, bad, '-o', out]],
      ['analyze --baseline', (bad, out) => ['analyze', fixture('orphan-crossed.jsonl'), '--baseline', bad, '-f', 'sarif', '-o', out]],
    ];
    const cases = CASES.filter(([n]) => CLI_CASES.has(n));
    const runs = await Promise.all(
      cases.map(async ([name, mutate, problem], i) => {
        const bad = write(full, name, mutate);
        const out = path.join(dir, 'out', `${i}`, 'o.txt');
        const [what, args] = commands[i % commands.length]!;
        const format = FORMAT_NAMES[Math.floor(i / commands.length) % FORMAT_NAMES.length]!;
        return { bad, out, problem, what: `${name}: ${what}`, res: await runCli(args(bad, out, format)) };
      }),
    );
    for (const { bad, out, problem, what, res } of runs) {
      expectRefused(res, bad, problem, what);
      expectNothingWritten(out, what);
    }
  }, 180_000);

  it("the tester's hostile report: every render format, --report files, diff, merge, --baseline", async () => {
    const full = JSON.parse(readFileSync(await saved('hostile-base.json', []), 'utf8')) as Json;
    const [name, mutate, problem] = CASES[0]!;
    const bad = write(full, name, mutate);
    const out = path.join(dir, 'hostile-out', 'o.txt');
    const side = path.join(dir, 'hostile-out', 'side.md');
    const runs = await Promise.all([
      ...FORMAT_NAMES.map((f) => runCli(['render', bad, '-f', f, '-o', out, '--report', `markdown=${side}`])),
      ...FORMAT_NAMES.map((f) => runCli(['render', bad, '-f', f])),
      runCli(['diff', bad, bad, '-f', 'markdown']),
      runCli(['merge', bad]),
      runCli(['analyze', fixture('orphan-crossed.jsonl'), '--baseline', bad, '-f', 'github']),
    ]);
    runs.forEach((res, k) => expectRefused(res, bad, problem, `run ${k}`));
    expectNothingWritten(out, 'hostile');
    expect(existsSync(side)).toBe(false);
  }, 120_000);
});

describe('merge: a report given twice, and the held-scope cap', () => {
  it('refuses one file named twice, or under two names (a link), before reading anything', async () => {
    const a = await saved('twice.json', []);
    const link = path.join(dir, 'twice-link.json');
    symlinkSync(a, link);
    const out = path.join(dir, 'twice-out', 'm.json');
    for (const args of [[a, a], [a, link]]) {
      const r = await runCli(['merge', ...args, '-o', out]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/is the same file as .*counted twice/);
      expectNothingWritten(out, args.join(' '));
    }
  });

  it('past 50 000 scopes in a channel over all shards, the merged report says it is not exact', async () => {
    const r = (await analyze({ inputs: [fixture('orphan-crossed.jsonl')] })) as Report;
    const big = structuredClone(r);
    big.channels[0]!.scopeCount = 50_000;
    const other = structuredClone(r);
    other.channels[0]!.scopes = [{ ...other.channels[0]!.scopes[0]!, scope: 'another' }];
    const m = new ReportMerger();
    m.add(big, 'a');
    m.add(other, 'b');
    const merged = m.finish();
    expect(merged.channels[0]!.scopeCount).toBe(50_001);
    const notes = merged.notes.filter((n) => n.startsWith(MERGE_NOTE_PREFIX));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('llm has 50001 scopes');
    expect(notes[0]).toContain('SCOPES_FOLDED');
    // Under the cap: no note; a merge of merges recomputes it (one note, the final count).
    const small = new ReportMerger();
    small.add(r, 'a');
    expect(small.finish().notes.some((n) => n.startsWith(MERGE_NOTE_PREFIX))).toBe(false);
    const again = new ReportMerger();
    again.add(merged, 'm');
    const third = structuredClone(r);
    third.channels[0]!.scopes = [{ ...third.channels[0]!.scopes[0]!, scope: 'third' }];
    again.add(third, 'c');
    const twice = again.finish().notes.filter((n) => n.startsWith(MERGE_NOTE_PREFIX));
    expect(twice).toHaveLength(1);
    expect(twice[0]).toContain('llm has 50002 scopes');
  });
});

describe('latency sketches in a saved report', () => {
  it('a bucket repeated or out of order is refused (a histogram writes each once, ascending)', async () => {
    const r = (await analyze({ inputs: [fixture('orphan-crossed.jsonl')] })) as unknown as Json;
    expect(reportProblem(r)).toBeNull();
    const latency = { count: 40, min: 1, max: 9, minAt: null, maxAt: null, buckets: [[300, 20, 1], [400, 20, 9]] };
    r.mergeData.channels[0].latency = latency;
    expect(reportProblem(r)).toBeNull();
    latency.buckets = [[300, 20, 1], [300, 20, 1]];
    expect(reportProblem(r)).toMatch(/buckets.*ascending, each once/);
    latency.buckets = [[400, 20, 9], [300, 20, 1]];
    expect(reportProblem(r)).toMatch(/ascending, each once/);
  });
});
