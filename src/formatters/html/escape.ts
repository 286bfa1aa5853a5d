/**
 * Capture strings reach the page only as text: sanitised (safeText: no ANSI/OSC, controls, bidi),
 * then HTML-escaped for a text node or a quoted attribute value. Nothing from the capture is ever
 * written as markup, a tag name, an attribute name, a URL, CSS or script.
 */
import { safeText } from '../safe.js';
import { msText as presentMs } from '../present.js';

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

/** A duration, from a minute up in minutes (the shared helper, present.ts). */
export function msText(n: number | null | undefined): string {
  return presentMs(n, { minutes: true });
}

export { pct } from '../present.js';
