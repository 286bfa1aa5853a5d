/** Types of bench/shapes.mjs for the tests that import it (test/growth.test.ts, test/bench-peers.test.ts). */
export interface WrittenShape {
  files: string[];
  /** The CLI arguments that read it (inputs, --caller / --upstream / --profile). */
  args: string[];
  /** Call events: requests + terminals. */
  calls: number;
  lines: number;
  /** `PATH:LINE` of a terminal in the middle of the run. */
  trace: string;
  profile?: string;
}
export interface ShapeInfo {
  family: 'amplifier' | 'jsonrpc' | 'batch' | 'assay' | 'custom';
  lines: number;
  what: string;
}
export const SHAPES: Record<string, ShapeInfo>;
export const PEERS: Record<string, string>;
export function writeShape(shape: string, o: { dir: string; lines: number; seed?: number }): WrittenShape;
export function reportCounts(family: string, report: unknown): Record<string, unknown>;
export function prng(seed: number): () => number;
