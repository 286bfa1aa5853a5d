/**
 * SARIF 2.1.0 for code scanning (docs/ci.md#sarif): one rule per finding code (`callpair/<CODE>`,
 * with level, description and help), one result per listed finding pointing at the capture file and
 * physical line (URIs relative to the working directory, base `%SRCROOT%`), `partialFingerprints`
 * that hash the finding's identity — the one `--baseline` matches by (src/report/identity.ts), never
 * its line. At most 25 000 results, GitHub's limit for a run; the rest are counted in a notification.
 * The gate goes into the invocation: its checks as properties, each failed check as an error
 * notification.
 */
import type { FindingCode, Severity } from '../report/findings.js';
import { ALL_CODES, FINDING_CODES } from '../report/findings.js';
import { CODE_DESCRIPTIONS } from '../report/code-descriptions.js';
import type { Report } from '../report/report.js';
import type { FormatContext, Formatter } from './types.js';
import { safeJson } from './json.js';
import { safeText } from './safe.js';
import { captureUri } from './paths.js';
import { checkFailure } from './gate-text.js';
import { channelTotals } from './totals.js';
import { findingIdentities, identityHash } from '../report/identity.js';
import { PROJECT_URL } from '../version.js';

export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
/** v2: the finding's identity (src/report/identity.ts); v1 hashed its line too. */
export const FINGERPRINT_KEY = 'callpairFinding/v2';
/** GitHub code scanning takes at most this many results per run (docs/ci.md#sarif). */
export const SARIF_MAX_RESULTS = 25_000;
/** Where a rule's finding codes are explained. */
const HELP_URI = `${PROJECT_URL}#findings`;

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', note: 'note' };

export const ruleId = (code: FindingCode) => `callpair/${code}`;

function ruleName(code: FindingCode): string {
  return code
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

function physical(l: { path: string; line: number }, cwd: string) {
  const u = captureUri(l.path, cwd);
  if (!u) return null;
  return {
    physicalLocation: {
      artifactLocation: u.relative ? { uri: u.uri, uriBaseId: '%SRCROOT%' } : { uri: u.uri },
      region: { startLine: Math.max(1, l.line) },
    },
  };
}

export function buildSarif(report: Report, cwd: string, maxResults = SARIF_MAX_RESULTS) {
  const rules = ALL_CODES.map((code) => ({
    id: ruleId(code),
    name: ruleName(code),
    shortDescription: { text: CODE_DESCRIPTIONS[code].title },
    fullDescription: { text: CODE_DESCRIPTIONS[code].description },
    help: {
      text: `${CODE_DESCRIPTIONS[code].description} What to do: ${CODE_DESCRIPTIONS[code].action}`,
      markdown: `**${code}** (${FINDING_CODES[code]}): ${CODE_DESCRIPTIONS[code].description}\n\n**What to do:** ${CODE_DESCRIPTIONS[code].action}\n\n[The finding codes](${HELP_URI})`,
    },
    helpUri: HELP_URI,
    defaultConfiguration: { level: LEVEL[FINDING_CODES[code]] },
    properties: { 'problem.severity': FINDING_CODES[code] === 'note' ? 'recommendation' : FINDING_CODES[code], tags: ['callpair'] },
  }));
  // Code scanning needs a location on every result: a finding with none (stdin, a directory
  // walk error) becomes a tool notification instead of a result.
  const results: Record<string, unknown>[] = [];
  const unlocated: Record<string, unknown>[] = [];
  const identities = findingIdentities(report.findings);
  let capped = 0;
  for (const [index, f] of report.findings.entries()) {
    const locs = f.locations.map((l) => physical(l, cwd)).filter((x): x is NonNullable<typeof x> => x !== null);
    const text = safeText(f.message, 1000);
    if (locs.length === 0) {
      const at = f.locations[0] ? ` (${safeText(f.locations[0].path, 200)}:${f.locations[0].line})` : '';
      unlocated.push({ descriptor: { id: ruleId(f.code) }, level: LEVEL[f.severity], message: { text: `${f.code}: ${text}${at}` } });
      continue;
    }
    if (results.length >= maxResults) {
      capped++;
      continue;
    }
    const result: Record<string, unknown> = {
      ruleId: ruleId(f.code),
      ruleIndex: ALL_CODES.indexOf(f.code),
      level: LEVEL[f.severity],
      message: { text },
      locations: [locs[0]],
    };
    if (locs.length > 1) result.relatedLocations = locs.slice(1).map((l, i) => ({ id: i + 1, ...l }));
    // analyze --baseline: SARIF's own new/unchanged marking (docs/scale-out.md).
    if (report.baseline) result.baselineState = report.baseline.states[index] ?? 'new';
    result.partialFingerprints = { [FINGERPRINT_KEY]: identityHash(identities[index]!) };
    const props: Record<string, unknown> = {};
    if (f.channel !== null) props.channel = safeText(f.channel, 200);
    if (f.scope !== null) props.scope = safeText(f.scope, 200);
    if (Object.keys(props).length) result.properties = props;
    results.push(result);
  }
  const failed = report.gate.checks.filter((c) => !c.passed);
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'callpair',
            informationUri: PROJECT_URL,
            version: report.tool.version,
            semanticVersion: report.tool.version,
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: [
              ...failed.map((c) => ({
                descriptor: { id: `gate/${c.name}` },
                level: 'error',
                message: { text: `gate check failed: ${checkFailure(c)}` },
              })),
              ...unlocated,
              ...(capped > 0
                ? [{ descriptor: { id: 'sarif/results-capped' }, level: 'warning', message: { text: `${capped} more results left out: code scanning takes at most ${maxResults} per run; the JSON report lists every finding` } }]
                : []),
            ],
            properties: {
              gate: { passed: report.gate.passed, enforced: report.gate.enforced, checks: report.gate.checks.map(({ name, limit, actual, passed, op, unknown }) => ({ name, limit, actual, passed, op, ...(unknown !== undefined ? { unknown } : {}) })) },
            },
          },
        ],
        results,
        properties: {
          findingCounts: report.findingCounts,
          findingsOmitted: report.findingsOmitted,
          resultsOmitted: capped,
          channels: channelTotals(report),
        },
      },
    ],
  };
}

export const sarif: Formatter = {
  name: 'sarif',
  description: 'SARIF 2.1.0 for code scanning (GitHub, Azure DevOps)',
  extension: 'sarif',
  render: (report, ctx: FormatContext) => `${safeJson(buildSarif(report, ctx.cwd), 2)}\n`,
};
