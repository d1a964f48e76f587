/**
 * The import wizard's mapping, pure: which column of the file each field is read from
 * (docs/mailer-audience.md, "Mapping": one column per field, one field per column). Held as field
 * → the column's place, since a file's headings may repeat or be empty; sent to the site by
 * heading where the heading names one column, else by place. The site's first preview fills it
 * (a preset it detected, or headings that plainly name a field); every change the person makes
 * after that is theirs, kept when they go back a step.
 */
import { IMPORT_FIELDS, IMPORT_FIELD_WORDS, type ImportField, type ImportMapping, type ImportPreview } from '../../../../electron/contract/index';

export type FieldMap = Partial<Record<ImportField, number>>;

export interface Column {
  index: number;
  header: string;
}

/** The mapping the site's preview used: each column's field. */
export function mappingFromPreview(preview: Pick<ImportPreview, 'columns'>): FieldMap {
  const out: FieldMap = {};
  for (const c of preview.columns) if (c.field && out[c.field] === undefined) out[c.field] = c.index;
  return out;
}

/** The field a column is read as, or null (not imported). */
export function fieldOf(map: FieldMap, column: number): ImportField | null {
  return IMPORT_FIELDS.find((f) => map[f] === column) ?? null;
}

/**
 * A column read as `field` (null: not imported). A field has one column, so a field taken by
 * another column moves here and that column is no longer imported; the column's own field before
 * is let go.
 */
export function assign(map: FieldMap, column: number, field: ImportField | null): FieldMap {
  const out: FieldMap = {};
  for (const f of IMPORT_FIELDS) {
    const at = map[f];
    if (at === undefined || at === column || f === field) continue;
    out[f] = at;
  }
  if (field) out[field] = column;
  return out;
}

/** Which column was moved off its field by `assign` (to say so), or null. */
export function displaced(map: FieldMap, column: number, field: ImportField | null): number | null {
  if (!field) return null;
  const at = map[field];
  return at !== undefined && at !== column ? at : null;
}

/** The mapping as the channels take it: a heading that names one column, else the column's place. */
export function toInput(map: FieldMap, columns: readonly Column[]): ImportMapping {
  const out: ImportMapping = {};
  for (const f of IMPORT_FIELDS) {
    const at = map[f];
    if (at === undefined) continue;
    const header = columns.find((c) => c.index === at)?.header.trim() ?? '';
    const unique = header !== '' && columns.filter((c) => c.header.trim() === header).length === 1 && !/^\d+$/.test(header);
    out[f] = unique ? header : at;
  }
  return out;
}

export const sameMapping = (a: FieldMap, b: FieldMap): boolean => IMPORT_FIELDS.every((f) => a[f] === b[f]);

/** What keeps the mapping from being run, by field: the address is the one field an import needs. */
export function mappingProblems(map: FieldMap): Partial<Record<ImportField, string>> {
  return map.email === undefined ? { email: 'Choose the column that holds the email addresses: an import needs it.' } : {};
}

/** Notes on how the site will read a mapping (none when it needs none). */
export function mappingNotes(map: FieldMap): string[] {
  const notes: string[] = [];
  const names = map.first_name !== undefined || map.last_name !== undefined;
  if (map.name !== undefined && names) notes.push('The Name column is used; first and last names are joined only where a row has no name.');
  else if (names) notes.push('First and last names are joined into the name.');
  if (map.status !== undefined) notes.push('Rows whose status says they left at the other tool are suppressed here, not added; rows never confirmed there are skipped.');
  if (map.tags !== undefined) notes.push('Tags are read as codes separated by commas or semicolons; new ones are made.');
  return notes;
}

/** Where the first mapping came from, in words. */
export function detectedWords(preview: Pick<ImportPreview, 'preset' | 'mappingSource'>): string {
  if (preview.preset) return `Detected: ${preview.preset.label}. Its columns are matched for you, and its status words are read as that tool writes them.`;
  if (preview.mappingSource === 'headings') return 'No other tool’s export was recognised: the columns were matched by their headings.';
  return 'The columns are matched as you chose.';
}

/** The choices for a column's field, in the site's words. */
export const FIELD_CHOICES: { value: ImportField; label: string }[] = IMPORT_FIELDS.map((f) => ({ value: f, label: IMPORT_FIELD_WORDS[f] }));
