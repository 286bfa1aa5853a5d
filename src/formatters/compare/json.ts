/** `compare --format json`: the `callpair.compare.v1` object. */
import { safeJson } from '../json.js';
import type { CompareFormatter } from '../types.js';

export const compareJson: CompareFormatter = {
  name: 'json',
  description: 'the callpair.compare.v1 object',
  render: (c) => `${safeJson(c, 2)}\n`,
};
