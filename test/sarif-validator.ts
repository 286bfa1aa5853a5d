/**
 * A validator for the official SARIF 2.1.0 JSON schema (draft-04), vendored in
 * fixtures/sarif/ from an npm package (see fixtures/sarif/README.md).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { fixture, tmpDir } from './helpers.js';

// CJS packages under NodeNext: the class / function is the default export's default.
type AjvLike = { compile(schema: unknown): ((doc: unknown) => boolean) & { errors?: unknown } };
const Ajv = ((AjvDraft04 as unknown as { default?: unknown }).default ?? AjvDraft04) as unknown as new (opts: Record<string, unknown>) => AjvLike;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: AjvLike) => void;

export function sarifValidator() {
  const schema = JSON.parse(readFileSync(fixture('sarif/sarif-2.1.0-rtm.5.json'), 'utf8'));
  // The rtm.5 schema holds a language-tag pattern that compiles only without the `u` flag.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}


/**
 * Microsoft's SARIF validator (the SARIF Multitool, a self-contained .NET binary shipped in the
 * npm package @microsoft/sarif-multitool-linux) with its SARIF and GitHub rule sets
 * (`--rule-kind "Sarif;Gh"`, the GH1xxx/GH2xxx rules of GitHub code scanning): the errors and
 * warnings it reports for each of `docs` (one run of the binary), as `RULE: message` lines. Null
 * where the binary cannot run (not Linux x64); the tests say so.
 */
export function multitoolFindings(...docs: unknown[]): string[][] | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null;
  let bin: string;
  try {
    bin = createRequire(import.meta.url)('@microsoft/sarif-multitool-linux') as string;
  } catch {
    return null;
  }
  // npm ci --ignore-scripts skips the package's postinstall (chmod u+x).
  if ((statSync(bin).mode & 0o100) === 0) chmodSync(bin, statSync(bin).mode | 0o100);
  const dir = tmpDir();
  const files = docs.map((doc, i) => {
    const file = path.join(dir, `log${i}.sarif`);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  });
  const r = spawnSync(bin, ['validate', '--rule-kind', 'Sarif;Gh', '--threads', '1', ...files, '-o', path.join(dir, 'validation.sarif'), '--log', 'ForceOverwrite'], {
    encoding: 'utf8',
    env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1' },
    timeout: 60_000,
  });
  if (r.status !== 0 || !/Analysis completed successfully/.test(r.stdout)) throw new Error(`the SARIF Multitool failed (exit ${r.status}): ${r.stdout}${r.stderr}`);
  const lines = [...r.stdout.matchAll(/^(.*?)\(\d+,\d+\): (?:error|warning) ((?:SARIF|GH)\d+): (.*)$/gm)];
  return files.map((f) => lines.filter((m) => m[1] === f).map((m) => `${m[2]}: ${m[3]}`));
}
