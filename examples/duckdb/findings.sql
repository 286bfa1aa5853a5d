-- The report's findings, one row each (`data` stays JSON).
SELECT f.code, f.severity, f.channel, f.scope, f.locations[1].path AS path, f.locations[1].line AS line, f.message
FROM (SELECT unnest(findings) AS f FROM read_json('callpair.json', columns = {findings:
  'STRUCT(code VARCHAR, severity VARCHAR, channel VARCHAR, scope VARCHAR, message VARCHAR, locations STRUCT(path VARCHAR, line BIGINT)[], data JSON)[]'}));
