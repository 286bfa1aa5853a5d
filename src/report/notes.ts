/**
 * Notes: what the report cannot tell from this input. Profiles hand out typed codes; the report
 * writes each code's text (stable, capture-free sentences) into `notes`.
 */

export const NOTE_TEXT = {
  'assay-nothing-paired': 'assay: decision records only, nothing paired (give --caller FILE and --upstream FILE to audit decisions and delivery)',
  'assay-bypass-needs-ids':
    'assay: bypass detection needs ids or the caller log: decision records without a correlation id pair with upstream arrivals by tool name in order, and a denied call that reached the upstream shows only as UNRECORDED_DELIVERY',
  'assay-delivery-not-audited': 'assay: delivery not audited (give --upstream FILE, the upstream’s received tools/call log)',
} as const satisfies Record<string, string>;

export type NoteCode = keyof typeof NOTE_TEXT;

export function noteText(code: NoteCode): string {
  return NOTE_TEXT[code];
}
