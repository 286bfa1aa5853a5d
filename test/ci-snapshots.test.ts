/**
 * Every format on the seed trace, as the CLI writes it (NO_COLOR=1, paths relative to the repo,
 * the version normalised to 0.0.0).
 */
import { describe, expect, it } from 'vitest';
import { VERSION } from '../src/version.js';
import { runCli, withoutGateLine } from './helpers.js';

async function seed(format: string, extra: string[] = []): Promise<string> {
  const r = await runCli(['analyze', '--format', format, ...extra, 'fixtures/seed-trace.jsonl']);
  expect(withoutGateLine(r.stderr)).toBe('');
  expect(r.code).toBe(0);
  return r.stdout.split(VERSION).join('0.0.0');
}

describe('formats on fixtures/seed-trace.jsonl', () => {
  it('table', async () => {
    expect(await seed('table')).toMatchInlineSnapshot(`
      "callpair 0.0.0  1 input(s), 8 lines: 8 records (2 ignored, 0 duplicates), 0 blank, 0 malformed, 0 oversized

      Channel llm  1 scope(s)
      ┌──────────────────┬───────┬────────────────────────────────────────────────┐
      │                  │ count │                                                │
      │ requests         │ 3     │ id coverage 100.0%                             │
      │ terminals        │ 3     │ id coverage 100.0%; 0 redundant, 0 duplicate   │
      │ failed           │ 1     │ when status not ok, success                    │
      │ interims         │ 0     │ 0 unattributed                                 │
      │ pairs            │ 3     │ id 3 · signature 0 · fifo 0                    │
      │ confidence       │       │ exact 3 · unambiguous 0 · ambiguous 0          │
      │ orphan requests  │ 0     │                                                │
      │ orphan responses │ 0     │                                                │
      │ crossed (FIFO)   │ 2     │ of 3 id pairs (66.7%); signature-FIFO 0 (0.0%) │
      │ max in flight    │ 3     │ FIFO is unsafe here                            │
      └──────────────────┴───────┴────────────────────────────────────────────────┘
      Latency
      ┌───────────┬─────────────────┬───┬───────┬───────┬───────┬───────┬───────┬─────────────────────────────┐
      │ provider  │ model           │ n │ min   │ p50   │ p90   │ p99   │ max   │ max at                      │
      │ anthropic │ claude-haiku-5  │ 2 │ 10 ms │ 10 ms │ 20 ms │ 20 ms │ 20 ms │ fixtures/seed-trace.jsonl:6 │
      │ anthropic │ claude-sonnet-5 │ 1 │ 30 ms │ 30 ms │ 30 ms │ 30 ms │ 30 ms │ fixtures/seed-trace.jsonl:7 │
      └───────────┴─────────────────┴───┴───────┴───────┴───────┴───────┴───────┴─────────────────────────────┘

      Worst scopes (1 of 1 with trouble; orphans and ambiguous first, then crossed)
      ┌─────────┬───────────┬───────┬─────────┬───────────┬────────────────┬──────────────────────────┐
      │ channel │ scope     │ calls │ orphans │ ambiguous │ crossed (FIFO) │ crossed (signature-FIFO) │
      │ llm     │ sess-seed │ 3     │ 0       │ 0         │ 2              │ 0                        │
      └─────────┴───────────┴───────┴─────────┴───────────┴────────────────┴──────────────────────────┘

      Crossed pairs (FIFO would pair wrongly)
      ┌─────────────────────────────┬────────────┬────────────────────────────────────────┬────────────────────────────────────────┐
      │ terminal                    │ caller     │ true request                           │ FIFO would take                        │
      │ fixtures/seed-trace.jsonl:5 │ summarizer │ fixtures/seed-trace.jsonl:4 summarizer │ fixtures/seed-trace.jsonl:2 agent      │
      │ fixtures/seed-trace.jsonl:7 │ agent      │ fixtures/seed-trace.jsonl:2 agent      │ fixtures/seed-trace.jsonl:4 summarizer │
      └─────────────────────────────┴────────────┴────────────────────────────────────────┴────────────────────────────────────────┘

      Findings
      ┌─────────────────────┬──────────┬───────┬─────────────────────────────┬─────────────────────────────────────────────────────────────────────────────────────────┐
      │ finding             │ severity │ count │ first at                    │ message                                                                                 │
      │ CROSSED_PAIR (FIFO) │ note     │ 2     │ fixtures/seed-trace.jsonl:5 │ FIFO would give the summarizer terminal to the agent request (true partner: summarizer) │
      └─────────────────────┴──────────┴───────┴─────────────────────────────┴─────────────────────────────────────────────────────────────────────────────────────────┘

      gate passed (error-findings)
      "
    `);
  });

  it('json (gate and counts)', async () => {
    const r = JSON.parse(await seed('json'));
    expect({ gate: r.gate, findingCounts: r.findingCounts, findingsOmitted: r.findingsOmitted }).toMatchInlineSnapshot(`
      {
        "findingCounts": {
          "CROSSED_PAIR": 2,
        },
        "findingsOmitted": {},
        "gate": {
          "checks": [
            {
              "actual": 0,
              "codes": [
                "INPUT_ERROR",
                "UNSUPPORTED_SCHEMA",
                "INCONSISTENT_RECORD",
                "DENIED_BUT_DELIVERED",
                "UNRECORDED_DELIVERY",
                "NO_CALL_EVENTS",
                "SIGNATURE_CONFLICT",
                "SPLIT_SCOPE",
                "DELIVERY_UNVERIFIED",
                "DUPLICATE_KEY",
                "DOCUMENT_UNVERIFIED",
              ],
              "limit": 0,
              "name": "error-findings",
              "op": "<=",
              "passed": true,
            },
          ],
          "enforced": true,
          "passed": true,
        },
      }
    `);
  });

  it('markdown', async () => {
    expect(await seed('markdown')).toMatchInlineSnapshot(`
      "## callpair: ✅ gate passed

      1 input(s), 8 lines: 8 records (2 ignored, 0 duplicates), 0 blank, 0 malformed, 0 oversized. callpair 0.0.0.

      ### Gate

      | check | what | actual | limit | result |
      | --- | --- | --- | --- | --- |
      | \`error-findings\` | no error-severity findings | 0 | ≤ 0 | ✅ pass |

      ### Channels

      | channel | requests | terminals | failed | pairs | id / sig / fifo | ambiguous | orphan req. | orphan resp. | crossed (FIFO) | max in flight | id coverage |
      | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
      | llm | 3 | 3 | 1 | 3 | 3 / 0 / 0 | 0 | 0 | 0 | 2 of 3 (66.7%) | 3 | 100.0% |

      ### Worst scopes

      1 of 1 scope(s) with trouble, orphans and ambiguous first, then crossed.

      | channel | scope | calls | orphans | ambiguous | crossed (FIFO) | crossed (signature-FIFO) |
      | --- | --- | --- | --- | --- | --- | --- |
      | llm | sess-seed | 3 | 0 | 0 | 2 | 0 |

      ### Findings

      | code | severity | count | meaning: what to do |
      | --- | --- | --- | --- |
      | \`CROSSED_PAIR\` | ⚪ note | 2 (FIFO 2, signature-FIFO 0) | Crossed pair: nothing while ids are logged; never attribute these calls by position (FIFO). |

      #### Note findings

      | code | count | scopes | first at | what to do |
      | --- | --- | --- | --- | --- |
      | \`CROSSED_PAIR\` | 2 (FIFO 2, signature-FIFO 0) | sess-seed | fixtures/seed-trace.jsonl:5 | Nothing while ids are logged; never attribute these calls by position (FIFO). |
      "
    `);
  });

  it('junit', async () => {
    expect(await seed('junit')).toMatchInlineSnapshot(`
      "<?xml version="1.0" encoding="UTF-8"?>
      <testsuites name="callpair 0.0.0" tests="1" failures="0" errors="0" time="0">
        <testsuite name="fixtures/seed-trace.jsonl" tests="1" failures="0" errors="0" skipped="0" time="0">
          <properties>
            <property name="profile" value="amplifier"/>
            <property name="lines" value="8"/>
            <property name="records" value="8"/>
            <property name="ignored" value="2"/>
            <property name="malformed" value="0"/>
            <property name="oversized" value="0"/>
            <property name="time" value="not measured: gate checks are evaluated on the report"/>
            <property name="channel.llm.pairs" value="3"/>
            <property name="channel.llm.failed" value="1"/>
          </properties>
          <testcase name="error-findings" classname="callpair.fixtures/seed-trace.jsonl.llm" time="0"/>
        </testsuite>
      </testsuites>
      "
    `);
  });

  it('sarif (rules listed by id)', async () => {
    const doc = JSON.parse(await seed('sarif'));
    doc.runs[0].tool.driver.rules = doc.runs[0].tool.driver.rules.map((r: { id: string; defaultConfiguration: { level: string } }) => `${r.id} ${r.defaultConfiguration.level}`);
    expect(doc).toMatchInlineSnapshot(`
      {
        "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
        "runs": [
          {
            "invocations": [
              {
                "executionSuccessful": true,
                "properties": {
                  "gate": {
                    "checks": [
                      {
                        "actual": 0,
                        "limit": 0,
                        "name": "error-findings",
                        "op": "<=",
                        "passed": true,
                      },
                    ],
                    "enforced": true,
                    "passed": true,
                  },
                },
                "toolExecutionNotifications": [],
              },
            ],
            "properties": {
              "channels": [
                {
                  "channel": "llm",
                  "failed": 1,
                  "pairs": 3,
                  "requests": 3,
                },
              ],
              "findingCounts": {
                "CROSSED_PAIR": 2,
              },
              "findingsOmitted": {},
              "resultsOmitted": 0,
            },
            "results": [
              {
                "level": "note",
                "locations": [
                  {
                    "physicalLocation": {
                      "artifactLocation": {
                        "uri": "fixtures/seed-trace.jsonl",
                        "uriBaseId": "%SRCROOT%",
                      },
                      "region": {
                        "startLine": 5,
                      },
                    },
                  },
                ],
                "message": {
                  "text": "FIFO would give the summarizer terminal to the agent request (true partner: summarizer)",
                },
                "partialFingerprints": {
                  "callpairFinding/v2": "372f3d45e292d76284501e6dafd7ca45",
                },
                "properties": {
                  "channel": "llm",
                  "scope": "sess-seed",
                },
                "relatedLocations": [
                  {
                    "id": 1,
                    "physicalLocation": {
                      "artifactLocation": {
                        "uri": "fixtures/seed-trace.jsonl",
                        "uriBaseId": "%SRCROOT%",
                      },
                      "region": {
                        "startLine": 4,
                      },
                    },
                  },
                  {
                    "id": 2,
                    "physicalLocation": {
                      "artifactLocation": {
                        "uri": "fixtures/seed-trace.jsonl",
                        "uriBaseId": "%SRCROOT%",
                      },
                      "region": {
                        "startLine": 2,
                      },
                    },
                  },
                ],
                "ruleId": "callpair/CROSSED_PAIR",
                "ruleIndex": 12,
              },
              {
                "level": "note",
                "locations": [
                  {
                    "physicalLocation": {
                      "artifactLocation": {
                        "uri": "fixtures/seed-trace.jsonl",
                        "uriBaseId": "%SRCROOT%",
                      },
                      "region": {
                        "startLine": 7,
                      },
                    },
                  },
                ],
                "message": {
                  "text": "FIFO would give the agent terminal to the summarizer request (true partner: agent)",
                },
                "partialFingerprints": {
                  "callpairFinding/v2": "7adc2439e84a80406bc1d63d2b42b031",
                },
                "properties": {
                  "channel": "llm",
                  "scope": "sess-seed",
                },
                "relatedLocations": [
                  {
                    "id": 1,
                    "physicalLocation": {
                      "artifactLocation": {
                        "uri": "fixtures/seed-trace.jsonl",
                        "uriBaseId": "%SRCROOT%",
                      },
                      "region": {
                        "startLine": 2,
                      },
                    },
                  },
                  {
                    "id": 2,
                    "physicalLocation": {
                      "artifactLocation": {
                        "uri": "fixtures/seed-trace.jsonl",
                        "uriBaseId": "%SRCROOT%",
                      },
                      "region": {
                        "startLine": 4,
                      },
                    },
                  },
                ],
                "ruleId": "callpair/CROSSED_PAIR",
                "ruleIndex": 12,
              },
            ],
            "tool": {
              "driver": {
                "informationUri": "https://github.com/callpair/callpair",
                "name": "callpair",
                "rules": [
                  "callpair/INPUT_ERROR error",
                  "callpair/UNSUPPORTED_SCHEMA error",
                  "callpair/INCONSISTENT_RECORD error",
                  "callpair/DENIED_BUT_DELIVERED error",
                  "callpair/UNRECORDED_DELIVERY error",
                  "callpair/ORPHAN_REQUEST warning",
                  "callpair/ORPHAN_RESPONSE warning",
                  "callpair/AMBIGUOUS_PAIR warning",
                  "callpair/DUPLICATE_ID warning",
                  "callpair/INVALID_ID warning",
                  "callpair/MALFORMED_LINE warning",
                  "callpair/OVERSIZED_LINE warning",
                  "callpair/CROSSED_PAIR note",
                  "callpair/DUPLICATE_TERMINAL note",
                  "callpair/NO_CALL_EVENTS error",
                  "callpair/UNMATCHED_INPUT warning",
                  "callpair/SIGNATURE_CONFLICT error",
                  "callpair/OUT_OF_RANGE warning",
                  "callpair/SCOPES_FOLDED note",
                  "callpair/SPLIT_SCOPE error",
                  "callpair/DELIVERY_UNVERIFIED error",
                  "callpair/UNREADABLE_TIME warning",
                  "callpair/CLOCK_SKEW note",
                  "callpair/DUPLICATE_KEY error",
                  "callpair/IDS_NEVER_MATCH warning",
                  "callpair/DOCUMENT_UNVERIFIED error",
                ],
                "semanticVersion": "0.0.0",
                "version": "0.0.0",
              },
            },
          },
        ],
        "version": "2.1.0",
      }
    `);
  });

  it('github', async () => {
    expect(await seed('github')).toMatchInlineSnapshot(`
      "::notice file=fixtures/seed-trace.jsonl,line=5,title=callpair CROSSED_PAIR::FIFO would give the summarizer terminal to the agent request (true partner: summarizer)
      ::notice file=fixtures/seed-trace.jsonl,line=7,title=callpair CROSSED_PAIR::FIFO would give the agent terminal to the summarizer request (true partner: agent)
      callpair channels: llm: 3 pairs, 1 failed
      callpair gate passed: error-findings: 0 (limit <= 0) pass
      "
    `);
  });

  it('ndjson', async () => {
    expect(await seed('ndjson')).toMatchInlineSnapshot(`
      "{"type":"finding","code":"CROSSED_PAIR","severity":"note","channel":"llm","scope":"sess-seed","message":"FIFO would give the summarizer terminal to the agent request (true partner: summarizer)","locations":[{"path":"fixtures/seed-trace.jsonl","line":5},{"path":"fixtures/seed-trace.jsonl","line":4},{"path":"fixtures/seed-trace.jsonl","line":2}],"data":{"shadow":"fifo","terminalCaller":"summarizer","trueCaller":"summarizer","shadowCaller":"agent","id":"32fc2255-2544-415b-84fd-be9576d5fc59"}}
      {"type":"finding","code":"CROSSED_PAIR","severity":"note","channel":"llm","scope":"sess-seed","message":"FIFO would give the agent terminal to the summarizer request (true partner: agent)","locations":[{"path":"fixtures/seed-trace.jsonl","line":7},{"path":"fixtures/seed-trace.jsonl","line":2},{"path":"fixtures/seed-trace.jsonl","line":4}],"data":{"shadow":"fifo","terminalCaller":"agent","trueCaller":"agent","shadowCaller":"summarizer","id":"620c068b-044d-4b18-a100-332479278b82"}}
      {"type":"check","name":"error-findings","limit":0,"actual":0,"passed":true,"op":"<=","codes":["INPUT_ERROR","UNSUPPORTED_SCHEMA","INCONSISTENT_RECORD","DENIED_BUT_DELIVERED","UNRECORDED_DELIVERY","NO_CALL_EVENTS","SIGNATURE_CONFLICT","SPLIT_SCOPE","DELIVERY_UNVERIFIED","DUPLICATE_KEY","DOCUMENT_UNVERIFIED"]}
      {"type":"summary","schema":"callpair.report.v1","tool":{"name":"callpair","version":"0.0.0"},"findingCounts":{"CROSSED_PAIR":2},"findingsOmitted":{},"channels":[{"channel":"llm","requests":3,"pairs":3,"failed":1}],"gate":{"passed":true,"enforced":true}}
      "
    `);
  });
});
