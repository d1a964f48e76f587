/**
 * valibot issues as the `{field: message}` map an `invalid_input` error carries, one copy for both
 * sides: the Host's boundary answers a bad input with it, and a form that checks its input before
 * sending shows the same messages under the same fields.
 */
import type * as v from 'valibot';

/** valibot issues → `{field: message}` with dotted paths (`_` for the input as a whole); the first message per field wins. */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path?.map((p) => String(p.key)).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}
