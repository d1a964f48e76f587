/**
 * Readers of the CMS fields that the documents and the real service (Grav + API plugin) send in
 * different shapes. Each accepts both and gives the app one form, so the screens behave the same
 * whichever server answered; a value neither sends is still an issue naming the field.
 */
import * as v from 'valibot';
import type { BlueprintOption } from '../../contract';

/**
 * A page's folder number: the spec sends an integer (or null); the real service sends Grav's
 * `order()`, the folder prefix as a string (`"01."`), or `false` for a folder without one.
 */
export const Order = v.pipe(
  v.optional(v.nullable(v.union([v.number(), v.string(), v.literal(false)])), null),
  v.check((x) => typeof x !== 'string' || /^\s*\d+\.?\s*$/.test(x) || x.trim() === '', 'Expected a folder number such as 2 or "02."'),
  v.check((x) => typeof x !== 'number' || (Number.isInteger(x) && x >= 0), 'Expected a folder number of 0 or more'),
  v.transform((x): number | null => (x === null || x === false ? null : typeof x === 'number' ? x : x.trim() === '' ? null : parseInt(x, 10))),
);

const codes = (list: readonly unknown[]) => list.filter((c): c is string => typeof c === 'string' && c !== '');
const Code = v.union([v.string(), v.null()]);

/**
 * Languages a page exists in: the spec's list of codes, or the real service's map of language to
 * route (`{"en": "/about", "de": "/about"}`; `[]` on a site with one language). The map's keys are
 * the codes; an empty-string key (Grav's "no language") is not one.
 */
export const LangKeys = v.pipe(
  v.union([v.array(Code), v.record(v.string(), v.unknown())]),
  v.transform((x): string[] => (Array.isArray(x) ? codes(x) : Object.keys(x).filter((k) => k !== ''))),
);

/**
 * Languages a page lacks: a list of codes; the real service's `array_diff()` may keep gaps in its
 * keys and so arrive as an object (`{"1": "fr"}`) whose values are the codes.
 */
export const LangValues = v.pipe(
  v.union([v.array(Code), v.record(v.string(), Code)]),
  v.transform((x): string[] => codes(Array.isArray(x) ? x : Object.values(x))),
);

/** A scalar shown as text (`2024` → "2024", `true` → "true"); the real service sends numeric terms as numbers. */
export const Text = v.pipe(
  v.union([v.string(), v.number(), v.boolean()]),
  v.transform((x) => String(x)),
);

/**
 * A select field's choices, in the blueprint's order: the real service sends `[{value, label}]`
 * (values and labels stringified), the spec a `{value: label}` map. A list of bare scalars is
 * Grav's YAML list, whose values are the indexes. A label that is not text falls back to the value.
 */
export const Options = v.pipe(
  v.union([
    v.array(v.union([v.looseObject({ value: v.union([v.string(), v.number(), v.boolean()]), label: v.optional(v.unknown()) }), v.string(), v.number()])),
    v.record(v.string(), v.unknown()),
  ]),
  v.transform((x): BlueprintOption[] => {
    const label = (l: unknown, value: string) => (typeof l === 'string' ? l : typeof l === 'number' ? String(l) : value);
    if (!Array.isArray(x)) return Object.entries(x).map(([value, l]) => ({ value, label: label(l, value) }));
    return x.map((o, i) => {
      if (typeof o === 'object') {
        const value = String(o.value);
        return { value, label: label(o.label, value) };
      }
      return { value: String(i), label: String(o) };
    });
  }),
);

/** `label` of a blueprint field: text, or nothing when the blueprint says `false` (or anything else). */
export const Label = v.pipe(
  v.optional(v.unknown()),
  v.transform((x): string | undefined => (typeof x === 'string' && x !== '' ? x : typeof x === 'number' ? String(x) : undefined)),
);
