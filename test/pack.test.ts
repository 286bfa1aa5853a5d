/**
 * The published package works from another project (README "Into another project"): `npm pack`,
 * install the tarball into an empty project, preferring the npm cache (`npm ci` fills it with the
 * tarballs, but not always with the registry metadata a plain install resolves against, so a fresh
 * machine may still ask the registry), and run `npx callpair analyze` there. Also: README.md stays ≤ 15 KB
 * (14 500 bytes) and links its words, and the package ships docs and a licence.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tmpDir } from './helpers.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** One `npm pack` for the tests below: the tarball, and the files it holds (its --json listing). */
let packed: { dir: string; files: string[] } | undefined;
function pack(): { dir: string; files: string[] } {
  if (!packed) {
    const dir = tmpDir();
    // dist/ is built by `npm test` (and `npm run build`); --ignore-scripts skips a second build.
    const out = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    packed = { dir, files: (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path) };
  }
  return packed;
}

describe('the packed package', () => {
  it('installs into an empty project and `npx callpair analyze` runs there', { timeout: 180_000 }, () => {
    const packDir = pack().dir;
    const tgz = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
    expect(tgz).toBeDefined();

    const project = tmpDir();
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'uses-callpair', version: '1.0.0', private: true }));
    const install = spawnSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', path.join(packDir, tgz!)], { cwd: project, encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);

    copyFileSync(path.join(ROOT, 'fixtures', 'orphan-crossed.jsonl'), path.join(project, 'capture.jsonl'));
    const env = { ...process.env, NO_COLOR: '1', npm_config_offline: 'true' };
    const run = spawnSync(npx, ['callpair', 'analyze', 'capture.jsonl', '--max-orphan-requests', '0'], { cwd: project, encoding: 'utf8', env });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain('Channel llm');
    expect(run.stderr).toContain('callpair: gate failed: max-orphan-requests: 1 (limit <= 0)');

    const json = spawnSync(npx, ['callpair', 'analyze', 'capture.jsonl', '-f', 'json'], { cwd: project, encoding: 'utf8', env });
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout).schema).toBe('callpair.report.v1');
  });
});

describe('the bin after a build', () => {
  it('dist/cli/main.js is executable (npx runs the link it made before the rebuild `npm test` does)', () => {
    expect(statSync(path.join(ROOT, 'dist', 'cli', 'main.js')).mode & 0o111).toBe(0o111);
  });
});

describe('the package contents', () => {
  it('ships no source map (src/ is not in the package, so a map would point nowhere)', () => {
    const files = pack().files;
    expect(files).toContain('dist/index.js');
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('dist/') && f.endsWith('.js') && readFileSync(path.join(ROOT, f), 'utf8').includes('sourceMappingURL'))).toEqual([]);
  });
});

describe('links in the package', () => {
  it('every relative link in a shipped Markdown file resolves inside the package; links to the repository name a file it has', () => {
    const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const files = new Set((JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path));
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } };
    const repo = `${pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/`;
    const docs = [...files].filter((f) => f.endsWith('.md'));
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'docs/ci.md', 'docs/scale-out.md']));
    const broken: string[] = [];
    let relative = 0;
    for (const f of docs) {
      // Links outside code: fenced blocks and code spans hold shown text, not links.
      const text = readFileSync(path.join(ROOT, f), 'utf8').replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (target === '') continue;
        if (target.startsWith(repo)) {
          if (!existsSync(path.join(ROOT, decodeURIComponent(target.slice(repo.length))))) broken.push(`${f}: ${m[1]} (not in the repository)`);
          continue;
        }
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
        relative++;
        const at = path.posix.normalize(path.posix.join(path.posix.dirname(f), decodeURIComponent(target)));
        if (!files.has(at) && ![...files].some((p) => p.startsWith(`${at.replace(/\/$/, '')}/`))) broken.push(`${f}: ${m[1]} (${at} is not in the package)`);
      }
    }
    expect(relative).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });
});

describe('runtime dependencies', () => {
  it('each is imported by src/ (none installed for nothing)', () => {
    const deps = Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path.join(d, e.name)] : []));
    const src = walk(path.join(ROOT, 'src')).map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(deps.length).toBeGreaterThan(0);
    for (const d of deps) expect(src, d).toMatch(new RegExp(`from '${d.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/[^']*)?'|import\\('${d}`));
  });
});

describe('install scripts', () => {
  it('every locked package with an install script is a dev dependency named in allowScripts (npm 11 warns of the others)', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean; dev?: boolean }> };
    const scripted = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript);
    expect(scripted.length).toBeGreaterThan(0);
    for (const [at, p] of scripted) {
      const name = at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length);
      expect(p.dev, name).toBe(true);
      // By name: the lockfile records no resolved URLs, and npm matches a pinned name@version only against one.
      expect(pkg.allowScripts?.[name], name).toBe(true);
    }
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(scripted.map(([at]) => at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length)).sort());
  });
});

describe('README.md', () => {
  it('stays at most 15 KB', () => {
    expect(statSync(path.join(ROOT, 'README.md')).size).toBeLessThanOrEqual(15 * 1024);
  });
});

describe('the README and the package files', () => {
  it('the README stays well under 15 000 bytes, links its words, and the package ships docs and a licence', () => {
    const root = ROOT;
    const readme = readFileSync(path.join(root, 'README.md'));
    expect(readme.length).toBeLessThanOrEqual(14_500);
    const text = readme.toString('utf8');
    expect(text).toContain('docs/pairing.md#words-in-the-report');
    expect(readFileSync(path.join(root, 'docs/pairing.md'), 'utf8')).toMatch(/^## Words in the report$/m);
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { files: string[]; license: string };
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'docs', 'examples', 'README.md', 'LICENSE']));
    expect(readFileSync(path.join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} callpair contributors/);
    expect(pkg.license).toBe('MIT');
    const ignore = readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['callpair.sarif', 'callpair.junit.xml', 'callpair.json', '*.tgz']));
  });
});
