/**
 * A form's values are one nested object (a page header, a configuration scope, an account); a
 * field's dotted name is a path into it (`content.order.by` → ['content', 'order', 'by']). Keys are
 * the site's own: read and written as own fields only, so `constructor` or `__proto__` is a field
 * like any other and never an object's prototype.
 */
import { fieldAt, isPlainObject, ownField, setField } from '../../../electron/contract/index';

export type FormValues = Record<string, unknown>;

/** A field's path under the form's root (`header.` for a page header, nothing for configuration). */
export const fieldPath = (name: string, root = ''): string[] => (root && name.startsWith(root) ? name.slice(root.length) : name).split('.');

/** The value at `path` (own fields only). */
export const valueAt = (values: FormValues, path: string[]): unknown => fieldAt(values, path);

/** A copy of `values` with `value` at `path`; `undefined` removes the key (and parents left empty). */
export function withValue(values: FormValues, path: string[], value: unknown): FormValues {
  const [key, ...rest] = path;
  if (key === undefined) return values;
  const out: FormValues = { ...values };
  if (rest.length === 0) {
    if (value === undefined) delete out[key];
    else setField(out, key, value);
    return out;
  }
  const child = ownField(out, key);
  const next = withValue(isPlainObject(child) ? child : {}, rest, value);
  if (Object.keys(next).length === 0) delete out[key];
  else setField(out, key, next);
  return out;
}
