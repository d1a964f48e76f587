/**
 * A plugin's label in words: a translation key (`PLUGIN_TEAM_NOTES.MENU_LABEL`) through the site's
 * translations in the app's language, else the readable words the blueprint forms make of a key;
 * words stay as they are.
 */
import { readable } from '../../components/blueprint-form/labels';

/** The app's language, asked of the site's translations (the app is in English). */
export const APP_LANGUAGE = 'en';

const KEY = /^[A-Z][A-Z0-9_]*(\.[A-Z0-9_]+)+$/;

export function addonLabel(strings: Readonly<Record<string, string>>, raw: string): string {
  const t = raw.trim();
  if (!KEY.test(t)) return t;
  const found = Object.hasOwn(strings, t) ? strings[t] : undefined;
  return found?.trim() || readable(t) || t;
}
