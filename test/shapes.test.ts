/**
 * The bench's capture shapes (bench/generate.mjs --shape: mix, line-heavy, raw-heavy), each large
 * enough for --jobs to use workers: the JSON report is byte-identical for --jobs 1, 2 and 3, and
 * the classifier's fast path gives the report --validate-all gives (every line parsed), but for
 * the count of lines it skipped unparsed.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tmpDir, withoutGateLine } from './helpers.js';

describe('generated capture shapes', () => {
  for (const shape of ['mix', 'line-heavy', 'raw-heavy']) {
    it(`${shape}: same report for --jobs 1, 2, 3 and with --validate-all`, { timeout: 120_000 }, async () => {
      const file = path.join(tmpDir(), `${shape}.jsonl`);
      execFileSync(process.execPath, [path.join(ROOT, 'bench', 'generate.mjs'), '--size', '6', '--seed', '11', '--shape', shape, '--out', file], { stdio: 'ignore' });
      const args = ['analyze', '--format', 'json', '--max-findings', '100000', file];
      const one = await runCli([...args, '--jobs', '1']);
      expect(withoutGateLine(one.stderr)).toBe('');
      const report = JSON.parse(one.stdout);
      expect(report.totals.records).toBeGreaterThan(100);
      expect(report.channels[0].pairs.total).toBeGreaterThan(10);
      for (const j of ['2', '3']) {
        const r = await runCli([...args, '--jobs', j]);
        expect(r.stdout).toBe(one.stdout);
        expect(r.code).toBe(one.code);
      }
      const all = await runCli([...args, '--validate-all']);
      // Byte for byte, but for `run.validateAll`, which echoes the option (what `merge` requires equal),
      // and `unparsed`, the lines the fast path skipped without JSON.parse (none under --validate-all).
      expect(JSON.parse(all.stdout).totals.unparsed).toBe(0);
      const parsedAll = (text: string) => text.replace(/"unparsed": \d+/g, '"unparsed": 0');
      expect(all.stdout.replace('"validateAll": true', '"validateAll": false')).toBe(parsedAll(one.stdout));
    });
  }
});
