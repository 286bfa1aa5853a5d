/** Bounded counting and remembering (capture-supplied keys never grow memory without bound). */

export function bump<K>(m: Map<K, number>, k: K): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** A Map used as an insertion-ordered window of at most `size` keys. */
export function remember<V>(m: Map<string, V>, k: string, v: V, size: number): void {
  m.delete(k);
  m.set(k, v);
  if (m.size > size) {
    const oldest = m.keys().next();
    if (!oldest.done) m.delete(oldest.value);
  }
}

