-- Spark SQL over the `pairs` lines of every shard (docs/scale-out.md).
CREATE TEMPORARY VIEW pairs USING json OPTIONS (path 'pairs/*.ndjson');
SELECT rowKey, count(*) AS calls, sum(usage.inputTokens) AS input_tokens,
       percentile_approx(latencyMs, 0.9) AS p90_ms
FROM pairs
WHERE type = 'call'
GROUP BY rowKey ORDER BY rowKey;
