/**
 * Which control a blueprint field gets, from its type and the value it holds now. One decision for
 * every form a site describes (page headers, accounts, configuration, plugin and theme settings).
 * A value the control could not show faithfully (a map where a list is expected, a nested object in
 * a text field) is edited as YAML instead, so no value is ever dropped because it was not shown.
 */
import type { BlueprintField } from '../../../electron/contract/index';

export type FieldKind =
  | 'toggle'
  | 'checkboxes'
  | 'select'
  | 'textarea'
  | 'number'
  | 'date'
  | 'datetime'
  | 'list'
  | 'map'
  | 'taxonomy'
  | 'file'
  | 'email'
  | 'url'
  | 'password'
  | 'color'
  | 'text'
  | 'yaml';

export const isScalar = (v: unknown): boolean => v === undefined || v === null || ['string', 'number', 'boolean'].includes(typeof v);
export const isStringList = (v: unknown): v is (string | number)[] => Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number');
export const isFlatMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x));

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Grav-style dates ("2024-01-03 09:00") ↔ the value of a datetime-local input ("2024-01-03T09:00"); null: not a date this control can show. */
export function toDateTimeInput(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return '';
  if (typeof v !== 'string') return null;
  const m = DATE_TIME.exec(v.trim());
  if (m) return `${m[1]}T${m[2]}`;
  if (DATE_ONLY.test(v.trim())) return `${v.trim()}T00:00`;
  return null;
}

export const fromDateTimeInput = (v: string): string | undefined => (v ? v.replace('T', ' ') : undefined);

export function toDateInput(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return '';
  if (typeof v !== 'string') return null;
  const s = v.trim().slice(0, 10);
  return DATE_ONLY.test(s) ? s : null;
}

const BOOLEAN_ISH = new Set(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no']);

/** Types whose value is one line of text with a browser input of its own. */
const TYPED_TEXT: Record<string, FieldKind> = { email: 'email', url: 'url', password: 'password', colorpicker: 'color' };

/** Types whose value is a list or a map: for them null is "not set" (Grav writes `redirects: null`), not a value to show as YAML. */
const CONTAINER_TYPES = new Set(['array', 'list', 'selectize', 'tags', 'commalist', 'taxonomy', 'checkboxes']);

export function fieldKind(field: Pick<BlueprintField, 'type' | 'options' | 'fields'>, given: unknown, fallback?: unknown): FieldKind {
  const t = field.type;
  const value = given === null && CONTAINER_TYPES.has(t) ? undefined : given;
  const effective = value === undefined ? fallback : value;
  // Grav's toggles are also two-way choices of other values (order direction asc/desc, summary
  // format short/long): a checkbox would write true over them, so those are a select of their options
  if ((t === 'toggle' || t === 'checkbox') && field.options?.length && !field.options.every((o) => BOOLEAN_ISH.has(String(o.value)))) return isScalar(value) ? 'select' : 'yaml';
  if (t === 'toggle' || t === 'checkbox') return isScalar(effective) ? 'toggle' : 'yaml';
  // a select whose options are resolved by the site (`data_options`) is text until they arrive
  if ((t === 'select' || t === 'themeselect' || t === 'dateformat') && field.options?.length) return isScalar(value) ? 'select' : 'yaml';
  // Grav's checkboxes: a map of option → on/off (`use: keys`, e.g. process) or a list of the values on
  if (t === 'checkboxes' && field.options?.length) return effective === undefined || isStringList(effective) || isFlatMap(effective) ? 'checkboxes' : 'yaml';
  if (t === 'textarea' || t === 'editor' || t === 'markdown') return isScalar(value) ? 'textarea' : 'yaml';
  if (t === 'number' || t === 'range' || t === 'int') return value === undefined || value === null || typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) ? 'number' : 'yaml';
  if (t === 'date') return toDateInput(value) === null ? (isScalar(value) ? 'text' : 'yaml') : 'date';
  if (t === 'datetime') return toDateTimeInput(value) === null ? (isScalar(value) ? 'text' : 'yaml') : 'datetime';
  if (t === 'taxonomy') return value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value)) ? 'taxonomy' : 'yaml';
  if (t === 'array' && (value === undefined || isFlatMap(value)) && !isStringList(fallback)) return 'map';
  // Grav's `list` with fields of its own is a list of records: YAML, never tags that would write strings
  if (t === 'list' && field.fields?.length) return 'yaml';
  if (t === 'selectize' || t === 'tags' || t === 'array' || t === 'list' || t === 'commalist') return value === undefined || isStringList(value) ? 'list' : 'yaml';
  if ((t === 'filepicker' || t === 'pagemediaselect' || t === 'mediapicker') && isScalar(value)) return 'file';
  const typed = TYPED_TEXT[t];
  if (typed) return isScalar(value) && typeof value !== 'boolean' ? typed : 'yaml';
  return isScalar(value) ? 'text' : 'yaml';
}
