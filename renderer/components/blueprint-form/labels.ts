/**
 * Text a blueprint gives for people to read. Grav's blueprints often name a translation
 * (`ADMIN_NEXT.USERS.STATUS`, `PLUGIN_ADMIN.EMAIL`) that its admin looks up; until the site's
 * translations are read, such a key is shown as words made from its last part rather than as a
 * code. A key ending in `_HELP`/`_DESCRIPTION`/`_MESSAGE` says nothing as words: no text then.
 */
const KEY = /^[A-Z][A-Z0-9_]*(\.[A-Z0-9_]+)+$/;
const NOT_WORDS = /_(HELP|DESCRIPTION|DESC|MESSAGE|PLACEHOLDER)$/;

export function readable(text: string | undefined | null): string {
  const t = (text ?? '').trim();
  if (!KEY.test(t)) return t;
  const last = t.slice(t.lastIndexOf('.') + 1);
  if (NOT_WORDS.test(last)) return '';
  const words = last.toLowerCase().replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
