/**
 * Docs that follow the code: the format lists in docs/ are the formatter registry, the profile
 * shown in docs/inputs.md is the fixture file, docs/profiles.md names every meaning key, the
 * docs/extending.md example passes the registry-wide checks, the ledger rule is stated per
 * input kind, and every finding code has a row with its severity in the README and docs/report.md. (The runnable blocks themselves are run by test/docs.test.ts.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from './helpers.js';

describe('docs that follow the code', () => {
  const root = path.resolve(fixture('.'), '..');
  const doc = (f: string) => readFileSync(path.join(root, f), 'utf8');

  it('every finding code has a row, with its severity, in the README findings table and in docs/report.md', async () => {
    const { FINDING_CODES } = await import('../src/report/findings.js');
    for (const [file, heading] of [
      ['README.md', '## Findings'],
      ['docs/report.md', '### Finding codes'],
    ] as const) {
      const md = doc(file);
      const at = md.indexOf(`\n${heading}\n`);
      expect(at, `${file}: ${heading}`).toBeGreaterThan(-1);
      const section = md.slice(at + heading.length + 2, md.indexOf('\n#', at + heading.length + 2) >>> 0);
      // A row names one or more codes (`A`, `B` / `C`) and one severity, or one per code (`error / warning`).
      const seen = new Map<string, string>();
      for (const row of section.split('\n').filter((l) => l.startsWith('| `'))) {
        const [codes, severities] = row.split('|').slice(1, 3).map((c) => c.trim());
        const names = [...codes!.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!);
        const sev = severities!.split(' / ');
        names.forEach((n, i) => seen.set(n, sev.length === 1 ? sev[0]! : sev[Math.min(i, sev.length - 1)]!));
      }
      for (const [code, severity] of Object.entries(FINDING_CODES)) expect(seen.get(code), `${file}: ${code}`).toBe(severity);
      expect([...seen.keys()].filter((c) => !(c in FINDING_CODES)), `${file}: rows for no code`).toEqual([]);
    }
  });

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
