/**
 * Capture strings reach the page only as text: sanitised (safeText: no ANSI/OSC, controls, bidi),
 * then HTML-escaped for a text node or a quoted attribute value. Nothing from the capture is ever
 * written as markup, a tag name, an attribute name, a URL, CSS or script.
 */
import { safeText } from '../safe.js';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes already-safe text for a text node or a double-quoted attribute. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]!);
}

/** A capture string as escaped text, cut to `max` characters. */
export function text(s: string | null | undefined, max?: number): string {
  if (s === null || s === undefined) return '—';
  return esc(safeText(s, max));
}

/** A capture string for an SVG `<title>` (a text node; newlines are ours, never the capture's). */
export function titleLines(lines: ReadonlyArray<string>): string {
  return lines.map((l) => esc(l)).join('\n');
}

/** A number for an SVG attribute: finite, at most two decimals. */
export function n2(x: number): string {
  if (!Number.isFinite(x)) return '0';
  return String(Math.round(x * 100) / 100);
}

export function msText(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (n >= 60_000) return `${(n / 60_000).toFixed(1)} min`;
  if (n >= 1000) return `${(n / 1000).toFixed(2)} s`;
  return `${n.toFixed(n < 10 ? 2 : 0)} ms`;
}

export function pct(r: number | null): string {
  return r === null ? '—' : `${(r * 100).toFixed(1)}%`;
}
