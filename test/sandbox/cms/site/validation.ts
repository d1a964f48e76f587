/**
 * Checking submitted settings against a form, as the real service does before it saves a
 * configuration (getgrav/grav-plugin-api:AbstractApiController validateChangedFields(), with Grav
 * core's Data\Validation rules): only the values that differ from what is stored are checked, each
 * against its field; a failure is `{field, message}` with Grav's message (`Invalid input in
 * "Label"`, or the field's own `validate.message`). After validation the values are filtered to
 * their field's type (a toggle's "1" becomes true, an `int` field's "25" 25, a commalist a list).
 * Pure functions: no I/O.
 */
import { isObject } from '../content/common';
import type { Def } from './form-parts';

export interface FieldError {
  field: string;
  message: string;
}

/** The messages Grav's language files give the validation keys the sandbox's forms use. */
const MESSAGES: Record<string, string> = {
  'PLUGIN_ADMIN.EMAIL_VALIDATION_MESSAGE': 'Email has to be a valid email address',
  'PLUGIN_ADMIN.PASSWORD_VALIDATION_MESSAGE': 'Password must contain at least one number and one uppercase and lowercase letter, and at least 8 or more characters',
};

/**
 * The data's leaves keyed by field name (Grav's flattenData): a path that names a field is one
 * value, whatever it holds (a list field's map, an array field's pairs); other maps are walked.
 */
export function flattenByForm(data: Record<string, unknown>, fields: Map<string, Def>, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, value] of Object.entries(data)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (fields.has(path) || !isObject(value)) out[path] = value;
    else flattenByForm(value, fields, path, out);
  }
  return out;
}

/** Loose equality as PHP's `==` sees stored and submitted values (1 == "1" == true). */
function looselyEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null) || a === '' || b === '';
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return toBool(a) === toBool(b);
  return String(a) === String(b);
}

const TRUE = ['1', 'true', 'on', 'yes'];
const FALSE = ['0', 'false', 'off', 'no', ''];
const toBool = (v: unknown) => (typeof v === 'boolean' ? v : TRUE.includes(String(v).toLowerCase()));
const isBoolish = (v: unknown) => typeof v === 'boolean' || v === 0 || v === 1 || (typeof v === 'string' && [...TRUE, ...FALSE].includes(v.toLowerCase()));
const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || v === false || v === 0 || v === '0' || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Grav's checks of one value against one field: the list of messages (empty when it passes). */
export function checkField(value: unknown, field: Def): string[] {
  const validate = (field.validate ?? {}) as Record<string, unknown>;
  const required = validate.required === true && validate.type !== 'ignore';
  if (!required && isEmpty(value)) return [];
  const label = typeof field.label === 'string' && field.label !== '' ? field.label : field.name;
  const message = typeof validate.message === 'string' ? (MESSAGES[validate.message] ?? validate.message) : `Invalid input in "${label.charAt(0).toUpperCase()}${label.slice(1)}"`;
  const failures: string[] = [];
  if (required && isEmpty(value) && !(value === false || value === 0 || value === '0')) failures.push(message);
  else if (!typeOk(value, (validate.type as string | undefined) ?? field.type, validate, field)) failures.push(message);
  if (typeof validate.pattern === 'string' && typeof value === 'string' && value !== '' && !new RegExp(`^(?:${validate.pattern})$`, 'u').test(value)) failures.push(message);
  return failures;
}

function numberOk(v: unknown, validate: Record<string, unknown>, integer: boolean): boolean {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) return false;
  if (typeof validate.min === 'number' && n < validate.min) return false;
  if (typeof validate.max === 'number' && n > validate.max) return false;
  return true;
}

function optionValues(field: Def): string[] | null {
  // options filled from a provider, or a select that takes new entries, are not a closed set
  if (!Array.isArray(field.options) || field.data_options || field.selectize) return null;
  return field.options.map((o) => o.value);
}

function typeOk(value: unknown, type: string, validate: Record<string, unknown>, field: Def): boolean {
  switch (type) {
    case 'bool':
      return isBoolish(value);
    case 'int':
      return numberOk(value, validate, true);
    case 'number':
      return numberOk(value, validate, false);
    case 'email':
      return typeof value === 'string' && EMAIL.test(value);
    case 'commalist':
      return typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    case 'array':
    case 'list':
      return isObject(value) || Array.isArray(value);
    case 'text':
    case 'string':
    case 'textarea':
    case 'password':
    case 'colorpicker': {
      if (typeof value !== 'string' && typeof value !== 'number') return false;
      const len = String(value).length;
      return !(typeof validate.min === 'number' && len < validate.min) && !(typeof validate.max === 'number' && len > validate.max);
    }
    case 'select':
    case 'toggle': {
      const allowed = optionValues(field);
      if (!allowed) return true;
      const values = field.multiple && Array.isArray(value) ? value : [value];
      return values.every((v) => (typeof v === 'boolean' ? allowed.includes(v ? '1' : '0') : allowed.includes(String(v))));
    }
    default:
      return true;
  }
}

/** The errors of the values in `changes` that differ from `existing` (both nested data). */
export function validateChanged(changes: Record<string, unknown>, existing: Record<string, unknown>, fields: Map<string, Def>): FieldError[] {
  const stored = flattenByForm(existing, fields);
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(flattenByForm(changes, fields))) {
    if (name in stored && looselyEqual(value, stored[name])) continue;
    const field = fields.get(name);
    if (!field) continue; // not a form field: nothing to check
    for (const message of checkField(value, field)) errors.push({ field: name, message });
  }
  return errors;
}

/** A value coerced to its field's type (Data::filter): bools, numbers, comma lists. */
export function filterValue(value: unknown, field: Def): unknown {
  const type = ((field.validate as Record<string, unknown> | undefined)?.type as string | undefined) ?? field.type;
  if (value === null || value === undefined) return value;
  switch (type) {
    case 'bool':
      return toBool(value);
    case 'int':
      return typeof value === 'string' && value.trim() !== '' ? Math.trunc(Number(value)) : value;
    case 'number':
      return typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    case 'commalist':
      return typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;
    default:
      return value;
  }
}
