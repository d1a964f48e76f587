/**
 * Page blueprints: the templates a site offers and the form fields of each (document 1,
 * "Blueprints"). Select options come as the real service's `[{value, label}]` list or the spec's
 * `{value: label}` map and are kept as one ordered list; a field label that is not text (`false`)
 * is left out rather than failing the blueprint. The real service names tabs and sections by
 * `title`, not `label`: that name is their label here, so the form keeps Grav's groups.
 */
import * as v from 'valibot';
import { DATA_CALLABLE, type BlueprintField, type BlueprintOption, type PageBlueprint } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { callName, request } from './envelope';
import { Label, Options } from './fields';
import { routePath } from '../url-path';

/** Fields as a list, or as a map keyed by name (the name then comes from the key). */
const listOf = (fields: BlueprintField[] | Record<string, BlueprintField>): BlueprintField[] =>
  Array.isArray(fields) ? fields : Object.entries(fields).map(([key, f]) => (f.name ? f : { ...f, name: key }));

/** A `Class::method` the site resolves options with (a string, or Grav's `[callable, …args]` list: its first item). */
function dataOptionsOf(x: unknown): string | undefined {
  const c = Array.isArray(x) ? x[0] : x;
  return typeof c === 'string' && DATA_CALLABLE.test(c) ? c : undefined;
}

const Field: v.GenericSchema<unknown, BlueprintField> = v.pipe(
  v.looseObject({
    name: v.optional(v.nullable(v.string()), ''),
    type: v.optional(v.nullable(v.string()), 'text'),
    label: Label,
    /** A tab's or section's name on the real service. */
    title: Label,
    default: v.optional(v.unknown()),
    help: Label,
    placeholder: Label,
    data_options: v.optional(v.unknown()),
    'data-options@': v.optional(v.unknown()),
    options: v.optional(v.nullable(Options)),
    validate: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
    fields: v.optional(v.nullable(v.union([v.array(v.lazy(() => Field)), v.record(v.string(), v.lazy(() => Field))]))),
  }),
  v.transform((f): BlueprintField => {
    const children = f.fields == null ? undefined : listOf(f.fields);
    return {
      name: f.name ?? '',
      type: f.type ?? 'text',
      ...(f.label || f.title ? { label: (f.label || f.title)! } : {}),
      ...(f.default !== undefined ? { default: f.default } : {}),
      ...(f.options ? { options: f.options } : {}),
      ...(f.help ? { help: f.help } : {}),
      ...(f.placeholder ? { placeholder: f.placeholder } : {}),
      ...(dataOptionsOf(f.data_options ?? f['data-options@']) ? { dataOptions: dataOptionsOf(f.data_options ?? f['data-options@'])! } : {}),
      ...(f.validate ? { validate: f.validate } : {}),
      ...(children ? { fields: children } : {}),
    };
  }),
);

const FieldList = v.optional(v.nullable(v.union([v.array(Field), v.record(v.string(), Field)])), []);

/** A blueprint's `fields` as the app reads them (pages, accounts, configuration, plugins and themes share the shape). */
export function blueprintFields(raw: unknown, t: Transport, what: string, call: string): BlueprintField[] {
  return listOf(parseAnswer(FieldList, raw, t, what, call) ?? []);
}

export const cmsBlueprints = {
  /** The options a site resolves for a field (`GET /data/resolve?callable=…`), as `[{value, label}]` or a `{value: label}` map. */
  async resolve(t: Transport, callable: string): Promise<BlueprintOption[]> {
    const call: CallOptions = { path: '/data/resolve', query: { callable } };
    const r = await request(t, call);
    return parseAnswer(Options, r.data, t, 'the options of a field', callName(call)) ?? [];
  },

  async templates(t: Transport): Promise<{ type: string; label: string }[]> {
    const call: CallOptions = { path: '/blueprints/pages' };
    const r = await request(t, call);
    return parseAnswer(v.array(v.object({ type: v.string(), label: v.optional(v.nullable(v.string())) })), r.data, t, 'the page templates', callName(call)).map((x) => ({
      type: x.type,
      label: x.label ?? x.type,
    }));
  },

  /**
   * A template with a `/` (`modular/hero`) goes with a literal slash, each part encoded: the route
   * takes the rest of the path (`{template:.+}`), while `%2F` is refused with 404 by servers that do
   * not allow encoded slashes (Apache's default).
   */
  async page(t: Transport, template: string): Promise<PageBlueprint> {
    return formOf(t, { path: `/blueprints/pages/${routePath(template)}` }, template);
  },

  /**
   * A plugin's admin page form (`/blueprints/plugins/{plugin}/pages/{pageId}`): the plugin's
   * `admin/blueprints/{pageId}`, or its own form when the page is named after the plugin. The real
   * route's placeholder takes no slash, so each name is one path segment.
   */
  pluginPage(t: Transport, plugin: string, pageId: string): Promise<PageBlueprint> {
    return formOf(t, { path: `/blueprints/plugins/${encodeURIComponent(plugin)}/pages/${encodeURIComponent(pageId)}` }, pageId);
  },
};

/** A form answered as `{name, title, fields}` (fields a list, or the document's map by name). */
async function formOf(t: Transport, call: CallOptions, fallbackName: string): Promise<PageBlueprint> {
  const r = await request(t, call);
  const d = parseAnswer(
    v.looseObject({ name: v.optional(v.nullable(v.string())), title: v.optional(v.nullable(v.string())), fields: v.optional(v.nullable(v.union([v.array(Field), v.record(v.string(), Field)])), []) }),
    r.data,
    t,
    'a blueprint',
    callName(call),
  );
  return { name: d.name ?? fallbackName, title: d.title ?? fallbackName, fields: listOf(d.fields ?? []) };
}
