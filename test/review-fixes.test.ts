/**
 * Fixes from the outside reviews (issue 11): each test names the item it pins.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProfileSpec } from '../src/profiles/lang/spec.js';
import { failureText } from '../src/formatters/failure.js';
import { analyze } from '../src/analyze.js';
import { finding } from '../src/report/findings.js';
import { fixture, runCli, tmpDir } from './helpers.js';

const httpProfile = () => JSON.parse(readFileSync(fixture('custom/http-profile.json'), 'utf8')) as Record<string, unknown>;

function writeProfile(spec: unknown): string {
  const p = path.join(tmpDir(), 'profile.json');
  writeFileSync(p, JSON.stringify(spec));
  return p;
}

function nest(depth: number, leaf: unknown): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe('review item 1: recursive profile constructs are bounded', () => {
  it('a failed rule nested 4 000 arrays deep is one line naming the field, exit 2', async () => {
    const p = writeProfile({ ...httpProfile(), failed: nest(4000, { error: true }) });
    const r = await runCli(['analyze', fixture('custom/http-log.jsonl'), '--profile', p]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^callpair: profile: failed(\[0\])+: expected rules nested at most \d+ arrays deep/);
  });

  it('role conditions nested deep are one line naming the field', () => {
    let when: unknown = { has: 'x' };
    for (let i = 0; i < 4000; i++) when = { any: [when] };
    expect(() => parseProfileSpec({ roles: [{ role: 'request', when }, { role: 'terminal', when: { has: 'y' } }] })).toThrow(/^profile: roles\[0\]\.when(\.any\[0\])+: expected conditions nested at most/);
  });

  it('nested failed arrays are flattened: the declared meaning stays small', () => {
    const spec = parseProfileSpec({ ...httpProfile(), failed: nest(5, [{ error: true }, { statusAtLeast: 500 }]) });
    expect(spec.failure).toEqual({ kind: 'any', rules: [{ kind: 'error-present' }, { kind: 'status-at-least', min: 500 }] });
  });

  it('a statusNot list of 3 000 statuses is refused; the failure text is bounded like a cell', () => {
    expect(() => parseProfileSpec({ ...httpProfile(), failed: { statusNot: Array(3000).fill('ok') } })).toThrow(/^profile: failed\.statusNot: expected at most 64 statuses/);
    const text = failureText({ kind: 'any', rules: Array(16).fill({ kind: 'status-not-in', statuses: Array(64).fill('x'.repeat(200)) }) });
    expect(text.length).toBeLessThanOrEqual(230);
  });
});

describe('review item 3: every stderr line goes through the one safe-text rule', () => {
  const nasty = 'x\u009b31m\u202eevil\u001b]8;;e\u0007';
  const clean = (s: string) => expect(s).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);

  it('the duplicate-channel error, a missing input and a missing profile path print no controls or bidi', async () => {
    const dir = tmpDir();
    const a = path.join(dir, `a${nasty}.json`);
    const b = path.join(dir, 'b.json');
    writeFileSync(a, JSON.stringify({ ...httpProfile(), name: 'a' }));
    writeFileSync(b, JSON.stringify({ ...httpProfile(), name: 'b' }));
    // A profile name is validated (review item 2); the refusal echoes it made safe.
    writeFileSync(path.join(dir, 'c.json'), JSON.stringify({ ...httpProfile(), name: `c${nasty}` }));
    const badName = await runCli(['analyze', fixture('custom/http-log.jsonl'), '--profile', path.join(dir, 'c.json')]);
    const dup = await runCli(['analyze', fixture('custom/http-log.jsonl'), '--profile', `${a},${b}`]);
    const missingInput = await runCli(['analyze', path.join(dir, `in${nasty}.jsonl`)]);
    const missingProfile = await runCli(['analyze', fixture('custom/http-log.jsonl'), '--profile', path.join(dir, `p${nasty}.json`)]);
    for (const r of [dup, missingInput, missingProfile, badName]) {
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      clean(r.stderr);
    }
    expect(dup.stderr).toMatch(/both declare channel "http"/);
  });

  it('stderr has one choke point: only diag() writes messages (progress sanitises its path); the CLI catches the rest', async () => {
    const { readdirSync } = await import('node:fs');
    const root = path.resolve(fixture('.'), '..');
    const files = (readdirSync(path.join(root, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const writers = files.flatMap((f) =>
      readFileSync(path.join(root, 'src', f), 'utf8')
        .split('\n')
        .filter((l) => /process\.stderr|console\.(error|warn|log)/.test(l))
        .map((l) => `${f}: ${l.trim()}`),
    );
    // Progress (sanitised in progress.ts) is handed the stream; every message goes through diagText.
    expect(writers.filter((w) => !w.includes('makeProgress(process.stderr'))).toEqual(['cli/io.ts: process.stderr.write(`${diagText(msg)}\\n`);']);
    expect(readFileSync(path.join(root, 'src/cli/main.ts'), 'utf8')).toMatch(/catch \(e\) \{[\s\S]*diag\(`internal error/);
  });

  it('diagText strips controls from each line and bounds it', async () => {
    const { diagText } = await import('../src/cli/io.js');
    const t = diagText(`bad ${nasty}\nsecond ${'y'.repeat(5000)}`);
    clean(t.replace(/\n/g, ''));
    expect(t.split('\n')).toHaveLength(2);
    expect(t.length).toBeLessThan(1200);
  });
});

describe('review item 6: the finding constructor clips every string of its data', () => {
  it('a 6 000-char deny reason reaches DENIED_BUT_DELIVERED clipped, in data and message', async () => {
    const A = fixture('assay');
    const dec = readFileSync(path.join(A, 'run-ids.decisions.ndjson'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        const o = JSON.parse(l) as Record<string, unknown>;
        if (o.decision === 'deny') o.reason = 'R'.repeat(6000);
        return JSON.stringify(o);
      });
    const file = path.join(tmpDir(), 'dec.ndjson');
    writeFileSync(file, dec.join('\n') + '\n');
    const r = await analyze({ inputs: [file], caller: [path.join(A, 'run-ids.caller.jsonl')], upstream: [path.join(A, 'run-ids.upstream.jsonl')] });
    const denied = r.findings.filter((f) => f.code === 'DENIED_BUT_DELIVERED');
    expect(denied.length).toBeGreaterThan(0);
    for (const f of denied) {
      const reason = (f.data as { reason?: string }).reason!;
      expect(reason).toMatch(/^R{1024}…\[\+4976 chars, sha256 [0-9a-f]{12}\]$/);
      expect(f.message.length).toBeLessThan(1300);
    }
  });

  it('strings nested in arrays and objects are clipped too, and the scope', () => {
    const f = finding('INCONSISTENT_RECORD', { scope: 's'.repeat(5000), locations: [] }, { problems: ['p'.repeat(5000)] });
    expect(f.data.problems[0]!.length).toBeLessThan(1100);
    expect(f.scope!.length).toBeLessThan(1100);
  });
});

describe('review item 2: profile-declared names are validated', () => {
  it.each([
    ['a 6 000-char channel', { channel: 'c'.repeat(6000) }, /^profile: channel: expected 1–64 letters/],
    ['a channel with a control char', { channel: 'a\u001bb' }, /^profile: channel: expected 1–64 letters/],
    ['a numeric channel', { channel: 5 }, /^profile: channel: expected 1–64 letters.*got 5$/],
    ['an empty channel', { channel: '' }, /^profile: channel: expected 1–64 letters/],
    ['a bidi name', { name: 'x\u202ey' }, /^profile: name: expected 1–64 letters/],
    ['a 5 000-char signature field', { signature: ['k'.repeat(5000)] }, /^profile: signature\[0\]: expected a path of at most 64 printable characters/],
    ['a signature field with a C1 control', { signature: [['a\u009bb']] }, /^profile: signature\[0\]: expected a path of at most 64 printable/],
    ['a duplicate signature field', { signature: ['route', 'route'] }, /^profile: signature: expected distinct paths/],
    ['a long rowLabel', { rowLabel: 'r'.repeat(500) }, /^profile: rowLabel: expected 1–40/],
    ['a control char in groupLabels', { groupLabels: ['a\u0007'] }, /^profile: groupLabels\[0\]: expected 1–40/],
  ])('%s is refused', (_name, patch, re) => {
    expect(() => parseProfileSpec({ ...httpProfile(), ...patch })).toThrow(re);
  });

  it('the refusal is one line on stderr, exit 2', async () => {
    const r = await runCli(['analyze', fixture('custom/http-log.jsonl'), '--profile', writeProfile({ ...httpProfile(), channel: 5 })]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('callpair: profile: channel: expected 1–64 letters, digits, _ . or -, starting with a letter or digit, got 5\n');
  });

  it('a channel left out is "calls"', () => {
    const { channel: _c, ...rest } = httpProfile();
    expect(parseProfileSpec(rest).channel).toBe('calls');
  });
});

describe('review item 4: protocol ids that are numbers must be safe integers', () => {
  it('9007199254740993 and 9007199254740992 (equal after JSON.parse) never pair as an id pair', async () => {
    const file = path.join(tmpDir(), 'big.jsonl');
    writeFileSync(
      file,
      [
        '{"jsonrpc":"2.0","id":9007199254740993,"method":"a"}',
        '{"jsonrpc":"2.0","id":9007199254740992,"result":{}}',
        '{"jsonrpc":"2.0","id":1.5,"method":"b"}',
        '{"jsonrpc":"2.0","id":-0,"method":"c"}',
        '{"jsonrpc":"2.0","id":9007199254740991,"method":"d"}',
        '{"jsonrpc":"2.0","id":9007199254740991,"result":{}}',
      ].join('\n') + '\n',
    );
    const pairs: Array<{ method: string }> = [];
    const r = await analyze({ inputs: [file], profile: 'jsonrpc', onPair: (p) => pairs.push(p) });
    const invalid = r.findings.filter((f) => f.code === 'INVALID_ID');
    expect(invalid.map((f) => (f.data as { reason: string }).reason)).toEqual(['not-a-safe-integer', 'not-a-safe-integer', 'not-a-safe-integer', 'not-a-safe-integer']);
    expect(invalid[0]!.message).toMatch(/not a safe integer/);
    expect(pairs.filter((p) => p.method === 'id')).toHaveLength(1);
  });
});

describe('review item 5: protocol ids are shown by their label everywhere', () => {
  it('pairs lines and findings show 9 and "other", never null or internal keys', async () => {
    const file = path.join(tmpDir(), 'ids.jsonl');
    writeFileSync(
      file,
      [
        '{"jsonrpc":"2.0","id":9,"method":"a"}',
        '{"jsonrpc":"2.0","id":9,"result":{}}',
        '{"jsonrpc":"2.0","id":"other","method":"b"}',
        '{"jsonrpc":"2.0","id":"other","method":"b"}',
        '{"jsonrpc":"2.0","id":"nobody","result":{}}',
        '{"jsonrpc":"2.0","id":"","method":"c"}',
      ].join('\n') + '\n',
    );
    const r = await runCli(['pairs', file, '--profile', 'jsonrpc']);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; id: string | null; method?: string });
    expect(lines.find((l) => l.type === 'call' && l.method === 'id')!.id).toBe('9');
    const ids = lines.map((l) => l.id);
    expect(ids).toContain('"other"');
    const rep = await analyze({ inputs: [file], profile: 'jsonrpc' });
    const shown = rep.findings.map((f) => (f.data as { id?: unknown }).id).filter((x) => x !== undefined);
    expect(shown).toContain('"other"');
    expect(shown).toContain('"nobody"');
    for (const id of [...ids, ...shown]) expect(String(id)).not.toMatch(/^[nsh]:/);
    expect(rep.findings.filter((f) => f.code === 'INVALID_ID').map((f) => (f.data as { reason: string }).reason)).toEqual(['empty']);
  });

  it('"" is no id under both id kinds', async () => {
    const { checkId } = await import('../src/profiles/event.js');
    expect(checkId('protocol', 'id', '').kind).toBe('none');
    expect(checkId('correlation', 'id', '').kind).toBe('none');
  });
});

describe('review item 7: --profile naming no profile is a usage error', () => {
  it.each([',', ',,', ''])('--profile %j exits 2 with one line', async (p) => {
    const r = await runCli(['analyze', fixture('seed-trace.jsonl'), '--profile', p]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^callpair: --profile ".*" names no profile/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('review item 8: numeric statuses are defined exactly', () => {
  it('status-at-least reads JSON numbers and digit strings, nothing else', async () => {
    const { isFailed, numericStatus } = await import('../src/model.js');
    const m = { failure: { kind: 'status-at-least' as const, min: 500 } };
    const fails = (status: string) => isFailed(m, { status });
    expect(fails(String(1e21))).toBe(true); // a JSON number 1e21
    expect(fails('9'.repeat(400))).toBe(true);
    expect(fails(' 503 ')).toBe(true);
    expect(fails('500')).toBe(true);
    expect(fails('499')).toBe(false);
    expect(fails('499.9999999999999999999')).toBe(false);
    for (const s of ['5e2', '0x1f4', '+500', '500.0', '', ' ', '5 00']) expect(numericStatus(s)).toBeNull();
    expect(numericStatus(String(499.5))).toBe(499.5);
  });

  it('the custom http fixture status path: a number 1e21 and a 400-digit string fail statusAtLeast 500', async () => {
    const file = path.join(tmpDir(), 'http.jsonl');
    const lines = [
      { kind: 'req', conn: 'c', meta: { rid: 'a' }, at: '2025-01-01T00:00:00Z', client: 'x', method: 'GET', route: '/' },
      `{"kind":"resp","conn":"c","meta":{"rid":"a"},"at":"2025-01-01T00:00:01Z","status":1e21}`,
      { kind: 'req', conn: 'c', meta: { rid: 'b' }, at: '2025-01-01T00:00:00Z', client: 'x', method: 'GET', route: '/' },
      { kind: 'resp', conn: 'c', meta: { rid: 'b' }, at: '2025-01-01T00:00:01Z', status: '9'.repeat(400) },
      { kind: 'req', conn: 'c', meta: { rid: 'c' }, at: '2025-01-01T00:00:00Z', client: 'x', method: 'GET', route: '/' },
      { kind: 'resp', conn: 'c', meta: { rid: 'c' }, at: '2025-01-01T00:00:01Z', status: '499.9999999999999999999' },
    ];
    writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
    const r = await analyze({ inputs: [file], profile: fixture('custom/http-profile.json') });
    expect(r.channels[0]!.failed).toBe(2);
  });
});

describe('review item 12: README and package', () => {
  it('the README stays well under 15 000 bytes, links its words, and the package ships docs and a licence', () => {
    const root = path.resolve(fixture('.'), '..');
    const readme = readFileSync(path.join(root, 'README.md'));
    expect(readme.length).toBeLessThanOrEqual(14_500);
    const text = readme.toString('utf8');
    expect(text).toContain('docs/pairing.md#words-in-the-report');
    expect(readFileSync(path.join(root, 'docs/pairing.md'), 'utf8')).toMatch(/^## Words in the report$/m);
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { files: string[]; license: string };
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'docs', 'README.md', 'LICENSE']));
    expect(readFileSync(path.join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} callpair contributors/);
    expect(pkg.license).toBe('MIT');
    const ignore = readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['callpair.sarif', 'callpair.junit.xml', 'callpair.json', '*.tgz']));
  });
});

describe('review item 11: docs that follow the code', () => {
  const root = path.resolve(fixture('.'), '..');
  const doc = (f: string) => readFileSync(path.join(root, f), 'utf8');

  it('the format lists in docs/inputs.md and docs/ci.md are the registry', async () => {
    const { FORMAT_NAMES } = await import('../src/formatters/index.js');
    const row = doc('docs/inputs.md').split('\n').find((l) => l.startsWith('| `-f, --format`'))!;
    const listed = [...row.split('|')[3]!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    expect(listed).toEqual(FORMAT_NAMES);
    const ci = doc('docs/ci.md');
    const table = ci.slice(ci.indexOf('| format | for |'), ci.indexOf('\n\n', ci.indexOf('| format | for |')));
    const names = table.split('\n').slice(2).map((l) => /^\| `([a-z-]+)` \|/.exec(l)?.[1]);
    expect(names).toEqual(FORMAT_NAMES);
  });

  it('docs/inputs.md shows fixtures/custom/http-profile.json exactly', () => {
    const md = doc('docs/inputs.md');
    const at = md.indexOf('`fixtures/custom/http-profile.json`:');
    const start = md.indexOf('```json\n', at) + '```json\n'.length;
    const shown = md.slice(start, md.indexOf('```', start));
    expect(shown).toBe(readFileSync(fixture('custom/http-profile.json'), 'utf8'));
  });

  it('docs/profiles.md documents every meaning key of a custom profile', () => {
    const fields = doc('docs/profiles.md').split('\n').filter((l) => l.startsWith('| `'));
    for (const k of ['failed', 'attribution', 'rowLabel', 'groupLabels', 'idKind', 'error']) expect(fields.some((l) => l.includes(`\`${k}\``)), k).toBe(true);
  });

  it('docs/extending.md: the example format passes the registry-wide checks (no TAB, names the gate checks)', () => {
    const md = doc('docs/extending.md');
    const sec = md.slice(md.indexOf('## Add an output format'), md.indexOf('## Add a profile'));
    const code = sec.slice(sec.indexOf('```ts'), sec.indexOf('```', sec.indexOf('```ts') + 5));
    expect(code).not.toContain('\\t');
    expect(code).toContain('checkText(c)');
    expect(sec).toContain('test/ci-gates.test.ts');
    expect(sec).toMatch(/an import .* and\s+an entry in `FORMATTERS`/);
  });

  it('the ledger rule is stated per input kind', () => {
    for (const f of ['docs/inputs.md', 'docs/design.md']) expect(doc(f)).toMatch(/JSON documents.*`lines` is (only )?the physical line count/s);
  });
});

describe('review item 9: every format carries the per-channel failed count, and they agree', () => {
  const A = fixture('assay');
  const cases: Array<[string, string[]]> = [
    ['fixtures/assay', [path.join(A, 'run-ids.decisions.ndjson'), '--caller', path.join(A, 'run-ids.caller.jsonl'), '--upstream', path.join(A, 'run-ids.upstream.jsonl')]],
    ['custom http', [fixture('custom/http-log.jsonl'), '--profile', fixture('custom/http-profile.json')]],
  ];
  it.each(cases)('%s: json, ndjson, sarif, junit, github and pairs lines agree', async (_name, args) => {
    const run = (f: string) => runCli(['analyze', ...args, '--format', f, '--no-fail']);
    const [json, ndjson, sarif, junit, github, pairs] = await Promise.all([run('json'), run('ndjson'), run('sarif'), run('junit'), run('github'), runCli(['pairs', ...args])]);
    const truth = Object.fromEntries((JSON.parse(json.stdout) as { channels: Array<{ channel: string; failed: number }> }).channels.map((c) => [c.channel, c.failed]));
    expect(Object.values(truth).some((n) => n > 0)).toBe(true);
    const summary = ndjson.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; channels?: Array<{ channel: string; failed: number }> }).find((l) => l.type === 'summary')!;
    expect(Object.fromEntries(summary.channels!.map((c) => [c.channel, c.failed]))).toEqual(truth);
    const sr = JSON.parse(sarif.stdout) as { runs: Array<{ properties: { channels: Array<{ channel: string; failed: number }> } }> };
    expect(Object.fromEntries(sr.runs[0]!.properties.channels.map((c) => [c.channel, c.failed]))).toEqual(truth);
    const ju = Object.fromEntries([...junit.stdout.matchAll(/<property name="channel\.([^"]+)\.failed" value="(\d+)"\/>/g)].map((m) => [m[1], Number(m[2])]));
    expect(ju).toEqual(truth);
    const gh = /^callpair channels: (.*)$/m.exec(github.stdout)![1]!;
    expect(Object.fromEntries(gh.split('; ').map((p) => [p.split(':')[0], Number(/(\d+) failed/.exec(p)![1])]))).toEqual(truth);
    const fromPairs: Record<string, number> = Object.fromEntries(Object.keys(truth).map((k) => [k, 0]));
    for (const l of pairs.stdout.trim().split('\n')) {
      const o = JSON.parse(l) as { type: string; channel: string; failed?: boolean };
      if (o.type === 'call' && o.failed) fromPairs[o.channel]!++;
    }
    expect(fromPairs).toEqual(truth);
  });
});

describe('review item 10: "terminal order is arbitrary" is channel meaning every format reads', () => {
  const batch = [fixture('real/openai-batch'), '--profile', 'openai-batch'];

  it('the report carries it; table and markdown claim no crossed-pair evidence; compare says FIFO is meaningless', async () => {
    const json = JSON.parse((await runCli(['analyze', ...batch, '-f', 'json'])).stdout) as { channels: Array<{ meaning: { terminalOrder?: string } }> };
    expect(json.channels[0]!.meaning.terminalOrder).toBe('arbitrary');
    const table = (await runCli(['analyze', ...batch])).stdout;
    expect(table).not.toContain('FIFO is unsafe here');
    expect(table).not.toMatch(/of 0 id pairs/);
    expect(table).toMatch(/crossed \(FIFO\) +│ — +│ terminal order is arbitrary/);
    const md = (await runCli(['analyze', ...batch, '-f', 'markdown'])).stdout;
    expect(md).toContain('— (terminal order is arbitrary)');
    const html = (await runCli(['analyze', ...batch, '-f', 'html'])).stdout;
    expect(html).toContain('— (terminal order is arbitrary)');
    const cmp = (await runCli(['compare', ...batch])).stdout;
    expect(cmp).toContain('FIFO and signature-FIFO are meaningless here');
    expect(cmp).not.toMatch(/│ fifo +│ \d+ +│ \d+ +│ \d+ +│ \d+ /);
    expect(cmp).not.toContain('Crossed by FIFO');
  });

  it('compare lists no more crossed examples than it counts (fixtures/real/jsonrpc-spec)', async () => {
    const cmp = (await runCli(['compare', fixture('real/jsonrpc-spec/examples.jsonl')])).stdout;
    const m = /Crossed by FIFO \(first (\d+) of (\d+)\)/.exec(cmp)!;
    expect(Number(m[1])).toBeLessThanOrEqual(Number(m[2]));
    const crossed = /│ fifo +│ \d+ +│ \d+ +│ \d+ +│ (\d+) /.exec(cmp)![1];
    expect(m[2]).toBe(crossed);
  });
});
