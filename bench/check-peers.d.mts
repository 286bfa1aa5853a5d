import type { WrittenShape } from './shapes.mjs';
export function checkShape(shape: string, written: WrittenShape, bin?: string): { shape: string; callpair: unknown; python: unknown; same: boolean } | null;
export function peerCounts(shape: string, written: WrittenShape): unknown;
