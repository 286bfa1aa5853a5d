-- DuckDB over the `pairs` lines of every shard (docs/scale-out.md): the column list, per-row totals, Parquet.
CREATE VIEW pairs AS SELECT * FROM read_json('pairs/*.ndjson', format = 'newline_delimited', columns = {
  type: 'VARCHAR', kind: 'VARCHAR', channel: 'VARCHAR', scope: 'VARCHAR', caller: 'VARCHAR', rowKey: 'VARCHAR',
  tool: 'VARCHAR', provider: 'VARCHAR', model: 'VARCHAR', labels: 'MAP(VARCHAR, VARCHAR)',
  method: 'VARCHAR', confidence: 'VARCHAR',
  request: 'VARCHAR', requestPath: 'VARCHAR', requestLine: 'BIGINT',
  terminal: 'VARCHAR', terminalPath: 'VARCHAR', terminalLine: 'BIGINT',
  location: 'VARCHAR', path: 'VARCHAR', line: 'BIGINT',
  requestTime: 'TIMESTAMPTZ', terminalTime: 'TIMESTAMPTZ', eventTime: 'TIMESTAMPTZ',
  id: 'VARCHAR', signature: 'MAP(VARCHAR, VARCHAR)', latencyMs: 'DOUBLE', ageMs: 'DOUBLE',
  status: 'VARCHAR', failed: 'BOOLEAN', reason: 'VARCHAR',
  usage: 'STRUCT(inputTokens BIGINT, outputTokens BIGINT, cacheReadTokens BIGINT, cacheWriteTokens BIGINT)',
  interims: 'BIGINT', inFlight: 'BIGINT', fifoPartner: 'VARCHAR', signaturePartner: 'VARCHAR'});

-- Per row as `compare` counts them (rowKey: the channel's row, the caller on the llm channel).
SELECT rowKey, count(*) AS calls, sum(usage.inputTokens) AS input_tokens,
       quantile_cont(latencyMs, 0.9) AS p90_ms
FROM pairs WHERE type = 'call' GROUP BY rowKey ORDER BY rowKey;

COPY (SELECT * FROM pairs) TO 'pairs.parquet' (FORMAT parquet);
