/**
 * The Python loops of bench/peers/ do callpair's job: on small files of every call-dense shape
 * (bench/shapes.mjs), each family's loop counts the same requests, terminals, pairs, orphans,
 * duplicates and crossed pairs as callpair's JSON report, so the bench's speed ratios compare
 * the same work. Skipped where python3 is not installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PEERS, SHAPES, writeShape } from '../bench/shapes.mjs';
import { checkShape } from '../bench/check-peers.mjs';
import { BIN } from './helpers.js';

const python = spawnSync('python3', ['--version']).status === 0;
const dir = mkdtempSync(path.join(tmpdir(), 'callpair-peers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(python)('each Python peer counts what callpair counts', () => {
  for (const [shape, s] of Object.entries(SHAPES))
    if (PEERS[s.family])
      it(`${PEERS[s.family]} on ${shape}`, () => {
        const r = checkShape(shape, writeShape(shape, { dir: path.join(dir, shape), lines: 1500, seed: 3 }), BIN)!;
        expect(r.python).toEqual(r.callpair);
      });
});
