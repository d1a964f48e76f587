/**
 * valibot issues as the `{field: message}` map an `invalid_input` error carries, one copy for both
 * sides: the Host's boundary answers a bad input with it, and a form that checks its input before
 * sending shows the same messages under the same fields.
 */
import type * as v from 'valibot';

/** How much of a refused value a message quotes: valibot's own messages quote it whole, which could be megabytes. */
const QUOTED_MAX = 60;

/** The issue's message with the value it quotes cut to QUOTED_MAX characters. */
function boundedMessage(issue: v.BaseIssue<unknown>): string {
  const quoted = issue.received;
  if (quoted.length <= QUOTED_MAX || !issue.message.includes(quoted)) return issue.message;
  return issue.message.replace(quoted, `${quoted.slice(0, QUOTED_MAX)}…`);
}

/**
 * valibot issues → `{field: message}` with dotted paths (`_` for the input as a whole); the first
 * message per field wins. A field may be called `constructor` or `__proto__` (an unknown key sent
 * on purpose): it is set as the map's own key, so it is named and never touches a prototype.
 */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path?.map((p) => String(p.key)).join('.') || '_';
    if (!Object.hasOwn(fields, key)) Object.defineProperty(fields, key, { value: boundedMessage(issue), enumerable: true, writable: true, configurable: true });
  }
  return fields;
}
