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

/** The one column list docs/scale-out.md documents (the `CREATE VIEW pairs` statement of the file it links). */
const PAIRS_SQL = readFileSync(path.join(ROOT, 'examples', 'duckdb', 'pairs.sql'), 'utf8');
const PAIRS_COLUMNS = /format = 'newline_delimited', columns = \{[^}]*\}/.exec(PAIRS_SQL)![0];
/** The report's findings statement the same page links (its `read_json('callpair.json', …)` query). */
const FINDINGS_SQL = /SELECT f\.code[\s\S]*?\}\)\);/.exec(readFileSync(path.join(ROOT, 'examples', 'duckdb', 'findings.sql'), 'utf8'))![0];

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
    const rows = await q(`SELECT rowKey AS caller, count(*) AS calls, sum(usage.inputTokens) AS inputTokens, sum(usage.outputTokens) AS outputTokens,
        min(requestTime) AS first
      FROM read_json('${glob}', ${PAIRS_COLUMNS}) WHERE type = 'call' GROUP BY rowKey ORDER BY rowKey`);

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
    await conn.run(`COPY (SELECT * FROM read_json('${glob}', ${PAIRS_COLUMNS})) TO '${parquet}' (FORMAT parquet)`);
    const back = await q(`SELECT count(*) AS n FROM '${parquet}'`);
    expect(Number(back[0]!.n)).toBe(lines);
    conn.closeSync();
  }, 60_000);

  it('the documented column list gives every file the same types: per-shard Parquet of different captures reads back together', async () => {
    const dir = tmpDir();
    // Ids that all look like UUIDs (seed-trace) against protocol ids (a JSON-RPC transcript) and
    // a custom profile's labels (a HAR): read_json_auto types id UUID in one and VARCHAR in another.
    const shards = [['fixtures/seed-trace.jsonl'], ['fixtures/real/jsonrpc-directions/transcript.jsonl'], ['fixtures/real/har/har-fulfill.har.json', '--profile', 'fixtures/real/profiles/har-entries.json']];
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const q = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson();
    const types = async (from: string) => (await q(`DESCRIBE SELECT * FROM ${from}`)).map((r) => `${r.column_name} ${r.column_type}`);
    let lines = 0;
    const guessed = new Set<string>();
    const describe: string[][] = [];
    for (const [k, args] of shards.entries()) {
      const nd = path.join(dir, `shard-${k}.ndjson`);
      const r = await runCli(['pairs', ...args, '-o', nd]);
      expect(r.code, r.stderr).toBe(0);
      lines += readFileSync(nd, 'utf8').split('\n').filter(Boolean).length;
      guessed.add((await types(`read_json_auto('${nd}')`)).find((t) => t.startsWith('id '))!);
      await conn.run(`COPY (SELECT * FROM read_json('${nd}', ${PAIRS_COLUMNS})) TO '${path.join(dir, `shard-${k}.parquet`)}' (FORMAT parquet)`);
      describe.push(await types(`'${path.join(dir, `shard-${k}.parquet`)}'`));
    }
    expect(guessed.size).toBeGreaterThan(1); // what the column list is for
    for (const d of describe) expect(d).toEqual(describe[0]);
    expect(describe[0]).toEqual(expect.arrayContaining(['requestTime TIMESTAMP WITH TIME ZONE', 'requestLine BIGINT', 'path VARCHAR', 'line BIGINT', 'id VARCHAR', 'labels MAP(VARCHAR, VARCHAR)']));
    // One glob over the shards' Parquet, no union_by_name: the same schema.
    const all = await q(`SELECT channel, count(*) AS n, count(requestPath) AS located, min(requestTime) AS first FROM '${path.join(dir, 'shard-*.parquet')}' GROUP BY channel ORDER BY channel`);
    expect(all.map((r) => r.channel)).toEqual(['http', 'jsonrpc', 'llm']);
    expect(all.reduce((n, r) => n + Number(r.n), 0)).toBe(lines);
    expect(String(all.find((r) => r.channel === 'llm')!.first)).toBe('2026-09-03 10:00:01+00');
    const labels = await q(`SELECT labels['method'] AS m FROM '${path.join(dir, 'shard-*.parquet')}' WHERE channel = 'jsonrpc' AND type = 'call' LIMIT 1`);
    expect(labels[0]!.m).toEqual(expect.any(String));

    // The report's findings through the documented statement, in two captures of different shapes.
    for (const [k, args] of [['fixtures/orphan-crossed.jsonl'], ['fixtures/assay/run-ids.decisions.ndjson', '--caller', 'fixtures/assay/run-ids.caller.jsonl', '--upstream', 'fixtures/assay/run-ids.upstream.jsonl']].entries()) {
      const json = path.join(dir, `report-${k}.json`);
      await runCli(['analyze', ...args, '--report', `json=${json}`]);
      const report = JSON.parse(readFileSync(json, 'utf8')) as { findings: Array<{ code: string; locations: Array<{ path: string; line: number }> }> };
      const rows = await q(FINDINGS_SQL.replace("'callpair.json'", `'${json}'`));
      expect(rows.map((r) => [r.code, r.path, Number(r.line)])).toEqual(report.findings.map((f) => [f.code, f.locations[0]?.path ?? null, f.locations[0] ? f.locations[0].line : 0]));
    }
    conn.closeSync();
  }, 60_000);
});
