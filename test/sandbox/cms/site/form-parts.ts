/**
 * The building blocks of the site's forms (account, configuration, plugins, themes, plugin
 * pages): fields written the way the real Grav API plugin serialises them (recordings 32–36 of
 * ../shared/reference/real-grav-replies), so the app reads every form of the site with one engine.
 * Field names are already dotted paths into the data the form edits (`pages.order.by`).
 */
import type { Def } from '../content/blueprint-real';

export type { Def };

export type OptionList = { value: string; label: string }[];

export const yesNo: OptionList = [
  { value: '1', label: 'Yes' },
  { value: '0', label: 'No' },
];
export const onOff: OptionList = [
  { value: '1', label: 'Enabled' },
  { value: '0', label: 'Disabled' },
];

/** `[{value, label}]` from pairs, in the given order (an object would move numeric keys first). */
export const opts = (...pairs: [string, string][]): OptionList => pairs.map(([value, label]) => ({ value, label }));

export const tabs = (name: string, fields: Def[], extra: Partial<Def> = {}): Def => ({ name, type: 'tabs', ...extra, fields });
export const tab = (name: string, title: string, fields: Def[]): Def => ({ name, type: 'tab', title, fields });
export const section = (name: string, title: string, fields?: Def[]): Def => ({ name, type: 'section', title, underline: true, ...(fields ? { fields } : {}) });

export const text = (name: string, label: string, extra: Partial<Def> = {}): Def => ({ name, type: 'text', label, ...extra });

export const toggle = (name: string, label: string, help?: string, extra: Partial<Def> = {}, options: OptionList = yesNo): Def => ({
  name,
  type: 'toggle',
  label,
  ...(help ? { help } : {}),
  highlight: 1,
  ...extra,
  options,
  validate: { type: 'bool' },
});

export const select = (name: string, label: string, options: OptionList, extra: Partial<Def> = {}): Def => ({ name, type: 'select', label, ...extra, options });

/** Every field of a form with a data name, by that name (containers are walked, not listed). */
export function fieldIndex(fields: Def[], into = new Map<string, Def>()): Map<string, Def> {
  for (const f of fields) {
    if (CONTAINERS.has(f.type)) fieldIndex(f.fields ?? [], into);
    else if (!DISPLAY_ONLY.has(f.type)) into.set(f.name, f);
  }
  return into;
}

/** Layout types: they group fields and hold no value of their own. */
export const CONTAINERS = new Set(['tabs', 'tab', 'section', 'fieldset', 'columns', 'column', 'conditional']);

/** Types that show something and hold no value. */
const DISPLAY_ONLY = new Set(['display', 'spacer', 'userinfo', 'xss']);
