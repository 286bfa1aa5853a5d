/**
 * Pairs for analytical engines (docs/scale-out.md, docs/pairs.schema.json): the `pairs` lines of
 * several shards load into DuckDB with one glob, and per-caller totals equal `compare`'s; every line
 * validates against the published schema; no field is an SQL reserved word; COPY … TO parquet works.
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tmpDir } from './helpers.js';
import { writeShardedCapture } from './shards.js';

const schema = JSON.parse(readFileSync(path.join(ROOT, 'docs', 'pairs.schema.json'), 'utf8'));

/** The query docs/scale-out.md shows (DuckDB; the Spark SQL form there is the same SELECT). */
const PAIRS_COLUMNS = `columns = {type: 'VARCHAR', channel: 'VARCHAR', scope: 'VARCHAR', caller: 'VARCHAR', method: 'VARCHAR',
  requestTime: 'TIMESTAMP', terminalTime: 'TIMESTAMP', latencyMs: 'DOUBLE', status: 'VARCHAR',
  usage: 'STRUCT(inputTokens BIGINT, outputTokens BIGINT, cacheReadTokens BIGINT, cacheWriteTokens BIGINT)'}`;

describe('pairs in DuckDB', () => {
  it('per-caller totals over the pairs of several shards equal compare', async () => {
    const dir = tmpDir();
    const files = writeShardedCapture(path.join(dir, 'captures'), 31, 12, true).map((f) => path.relative(dir, f));
    const out = path.join(dir, 'pairs');
    mkdirSync(out);
    const shards = [files.filter((_, i) => i % 3 === 0), files.filter((_, i) => i % 3 === 1), files.filter((_, i) => i % 3 === 2)].filter((s) => s.length > 0);
    expect(shards.length).toBeGreaterThan(1);
    for (const [k, s] of shards.entries()) {
      const r = await runCli(['pairs', ...s, '-o', path.join(out, `shard-${k}.ndjson`)], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
    }
    // Every line matches the published schema.
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    let lines = 0;
    for (const f of readdirSync(out)) {
      for (const line of readFileSync(path.join(out, f), 'utf8').split('\n').filter(Boolean)) {
        lines++;
        const v = JSON.parse(line);
        expect(validate(v), JSON.stringify(validate.errors)).toBe(true);
      }
    }
    expect(lines).toBeGreaterThan(50);

    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const q = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson();
    const glob = path.join(out, '*.ndjson');
    const rows = await q(`SELECT caller, count(*) AS calls, sum(usage.inputTokens) AS inputTokens, sum(usage.outputTokens) AS outputTokens,
        min(requestTime) AS first
      FROM read_ndjson('${glob}', ${PAIRS_COLUMNS}) WHERE type = 'call' GROUP BY caller ORDER BY caller`);

    const cmp = await runCli(['compare', 'captures', '-f', 'json'], { cwd: dir });
    expect(cmp.code, cmp.stderr).toBe(0);
    const ch = JSON.parse(cmp.stdout).channels[0] as { attribution: Array<{ caller: string; strategy: string; calls: number; inputTokens: number | null; outputTokens: number | null }> };
    const expected = ch.attribution
      .filter((a) => a.strategy === 'id')
      .map((a) => ({ caller: a.caller, calls: a.calls, inputTokens: a.inputTokens, outputTokens: a.outputTokens }))
      .sort((a, b) => (a.caller < b.caller ? -1 : 1));
    const got = rows.map((r) => ({ caller: r.caller, calls: Number(r.calls), inputTokens: r.inputTokens === null ? null : Number(r.inputTokens), outputTokens: r.outputTokens === null ? null : Number(r.outputTokens) }));
    expect(got).toEqual(expected);
    expect(String(rows[0]!.first)).toMatch(/^2026-10-01/);

    // No field is a keyword DuckDB restricts (reserved, type/function or column-name keywords; `at`
    // was one): every property of the schema is a plain identifier.
    const reserved = new Set((await q(`SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category <> 'unreserved'`)).map((r) => String(r.keyword_name).toLowerCase()));
    const fields = new Set([...Object.keys(schema.definitions.call.properties), ...Object.keys(schema.definitions.orphan.properties), ...Object.keys(schema.definitions.usage.properties)]);
    expect([...fields].filter((f) => reserved.has(f.toLowerCase()))).toEqual([]);
    expect(reserved.has('at') && reserved.has('time') && reserved.has('select')).toBe(true);

    // The one-line Parquet export of the docs.
    const parquet = path.join(dir, 'pairs.parquet');
    await conn.run(`COPY (SELECT * FROM read_ndjson('${glob}', ${PAIRS_COLUMNS})) TO '${parquet}' (FORMAT parquet)`);
    const back = await q(`SELECT count(*) AS n FROM '${parquet}'`);
    expect(Number(back[0]!.n)).toBe(lines);
    conn.closeSync();
  }, 60_000);
});
