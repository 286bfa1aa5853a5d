/**
 * Field-wise signature predicates (docs/design.md §5), shared by the cascade and the signature pool.
 */

/** Some field is known on both sides with different values (an unknown field conflicts with nothing). */
export function sigConflict(a: readonly (string | null)[] | null, b: readonly (string | null)[] | null): boolean {
  if (!a || !b) return false;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x != null && y != null && x !== y) return true;
  }
  return false;
}

/** The first signature field known on both sides with different values, or -1. */
export function conflictField(a: readonly (string | null)[] | null, b: readonly (string | null)[] | null): number {
  if (!a || !b) return -1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x != null && y != null && x !== y) return i;
  }
  return -1;
}

/**
 * Field-wise signature match: every field known on both sides is equal, and at least one field
 * is known on both. A missing field on either side is a wildcard.
 */
export function sigMatch(a: readonly (string | null)[] | null, b: readonly (string | null)[] | null): boolean {
  if (!a || !b) return false;
  let shared = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x == null || y == null) continue;
    if (x !== y) return false;
    shared++;
  }
  return shared > 0;
}

