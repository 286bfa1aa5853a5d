/**
 * A validator for the official SARIF 2.1.0 JSON schema (draft-04), vendored in
 * fixtures/sarif/ from an npm package (see fixtures/sarif/README.md).
 */
import { readFileSync } from 'node:fs';
import AjvDraft04 from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { fixture } from './helpers.js';

// CJS packages under NodeNext: the class / function is the default export's default.
type AjvLike = { compile(schema: unknown): ((doc: unknown) => boolean) & { errors?: unknown } };
const Ajv = ((AjvDraft04 as unknown as { default?: unknown }).default ?? AjvDraft04) as unknown as new (opts: Record<string, unknown>) => AjvLike;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: AjvLike) => void;

export function sarifValidator() {
  const schema = JSON.parse(readFileSync(fixture('sarif/sarif-2.1.0-rtm.5.json'), 'utf8'));
  // The rtm.5 schema holds a language-tag pattern that compiles only without the `u` flag.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

