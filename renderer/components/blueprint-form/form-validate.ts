/**
 * A blueprint's own rules, checked before anything is sent so the person sees them at the field:
 * `validate.required`, `validate.type` (int, number, bool, email, url), `min`/`max` (a number's
 * range, a text's length, a list's count, as Grav reads them), `pattern` (the whole value), and the
 * blueprint's `message` in place of ours (unless it is an untranslated key). The site checks again; its 422 lands on the same fields.
 * A rule this code cannot read (a malformed pattern) is left to the site rather than guessed.
 */
import type { BlueprintField } from '../../../electron/contract/index';
import { fieldsOf, type FormNode } from './form-tree';
import { valueAt, type FormValues } from './form-values';
import { readable } from './labels';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const labelOf = (f: BlueprintField) => readable(f.label) || f.name.split('.').pop() || f.name;

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** The first rule `value` breaks, in words; null when it keeps them all. */
export function checkField(field: BlueprintField, value: unknown): string | null {
  const rules = field.validate ?? {};
  const label = labelOf(field);
  // a message that is a translation key the site has not resolved says nothing: ours then
  const say = (ours: string) => (typeof rules.message === 'string' && readable(rules.message) ? readable(rules.message) : ours);
  if (isEmpty(value)) return rules.required === true || rules.required === 'true' ? say(`${label} is required.`) : null;
  const type = typeof rules.type === 'string' ? rules.type : field.type === 'int' ? 'int' : field.type === 'email' ? 'email' : undefined;
  const min = typeof rules.min === 'number' ? rules.min : undefined;
  const max = typeof rules.max === 'number' ? rules.max : undefined;
  const numeric = type === 'int' || type === 'number' || field.type === 'number' || field.type === 'int' || field.type === 'range';
  if (numeric) {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    if (!Number.isFinite(n)) return say(`${label} must be a number.`);
    if (type === 'int' && !Number.isInteger(n)) return say(`${label} must be a whole number.`);
    if (min !== undefined && n < min) return say(`${label} must be at least ${min}.`);
    if (max !== undefined && n > max) return say(`${label} must be at most ${max}.`);
    return null;
  }
  if (type === 'email' && (typeof value !== 'string' || !EMAIL.test(value.trim()))) return say(`${label} must be an e-mail address.`);
  if (type === 'url' && !isWebUrl(value)) return say(`${label} must be a web address (http or https).`);
  if (Array.isArray(value)) {
    if (min !== undefined && value.length < min) return say(`${label} needs at least ${min} ${min === 1 ? 'entry' : 'entries'}.`);
    if (max !== undefined && value.length > max) return say(`${label} takes at most ${max} ${max === 1 ? 'entry' : 'entries'}.`);
    return null;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (min !== undefined && length < min) return say(`${label} needs at least ${min} characters.`);
    if (max !== undefined && length > max) return say(`${label} takes at most ${max} characters.`);
    if (typeof rules.pattern === 'string' && !matchesWhole(rules.pattern, value)) return say(`${label} is not in the expected form.`);
  }
  return null;
}

function isWebUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v.trim());
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Grav's patterns are HTML `pattern`s: the whole value must match. One that does not compile is not ours to judge. */
function matchesWhole(pattern: string, value: string): boolean {
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return true;
  }
  return re.test(value);
}

/** Every broken rule of the form, by the field's full name (where a 422 from the site would land too). */
export function checkForm(nodes: readonly FormNode[], values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { field, path } of fieldsOf(nodes)) {
    const value = valueAt(values, path);
    const problem = checkField(field, value === undefined ? field.default : value); // an unset field takes its default
    if (problem) errors[field.name] = problem;
  }
  return errors;
}
