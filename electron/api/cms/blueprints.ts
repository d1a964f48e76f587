/** Page blueprints: the templates a site offers and the form fields of each (document 1, "Blueprints"). */
import * as v from 'valibot';
import type { BlueprintField, PageBlueprint } from '../../contract';
import type { Transport } from '../transport';
import { parseAnswer } from '../parse';

const Field: v.GenericSchema<unknown, BlueprintField> = v.pipe(
  v.looseObject({
    name: v.optional(v.string(), ''),
    type: v.optional(v.string(), 'text'),
    label: v.optional(v.nullable(v.string())),
    default: v.optional(v.unknown()),
    options: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
    validate: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
    fields: v.optional(v.union([v.array(v.lazy(() => Field)), v.record(v.string(), v.lazy(() => Field))])),
  }),
  v.transform((f): BlueprintField => {
    const children = f.fields === undefined ? undefined : Array.isArray(f.fields) ? f.fields : Object.values(f.fields);
    return {
      name: f.name,
      type: f.type,
      ...(f.label ? { label: f.label } : {}),
      ...(f.default !== undefined ? { default: f.default } : {}),
      ...(f.options ? { options: Object.fromEntries(Object.entries(f.options).map(([k, x]) => [k, String(x)])) } : {}),
      ...(f.validate ? { validate: f.validate } : {}),
      ...(children ? { fields: children } : {}),
    };
  }),
);

export const cmsBlueprints = {
  async templates(t: Transport): Promise<{ type: string; label: string }[]> {
    const r = await t.call({ path: '/blueprints/pages' });
    return parseAnswer(v.array(v.object({ type: v.string(), label: v.optional(v.string()) })), r.data, t, 'the page templates').map((x) => ({
      type: x.type,
      label: x.label ?? x.type,
    }));
  },

  async page(t: Transport, template: string): Promise<PageBlueprint> {
    const r = await t.call({ path: `/blueprints/pages/${encodeURIComponent(template)}` });
    const d = parseAnswer(
      v.looseObject({ name: v.optional(v.string()), title: v.optional(v.nullable(v.string())), fields: v.optional(v.union([v.array(Field), v.record(v.string(), Field)]), []) }),
      r.data,
      t,
      'a blueprint',
    );
    return { name: d.name ?? template, title: d.title ?? template, fields: Array.isArray(d.fields) ? d.fields : Object.values(d.fields) };
  },
};
