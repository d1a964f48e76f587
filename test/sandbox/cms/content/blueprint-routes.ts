/**
 * Page blueprints (spec section 4 "Blueprints and data options", the two page rows):
 *
 *   GET /blueprints/pages             authenticated; data: [{type, label}] — the site's page templates
 *   GET /blueprints/pages/{template}  authenticated; data: {name, title, type, child_type, validation,
 *                                     fields} with inheritance (`extends@`) resolved; 404 unknown template
 *
 * Fields form a tree like the real service's (tabs → tab → fields, `name` in dot notation such as
 * `header.title`), each `{name, type, label}` plus what a form needs (`default`, `options`,
 * `validate`, `fields`). Resolving one fires `onApiBlueprintResolved` (recorded).
 *
 * The real flavour answers as the Grav API plugin does (blueprint-real.ts): `api.pages.read` for
 * both routes, the fields in its form (options as `[{value, label}]` lists), and the default form
 * for an unknown template.
 */
import { HttpProblem, json, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { realPageBlueprint, realPageTypes } from './blueprint-real';

export interface BlueprintField {
  name: string;
  type: string;
  label?: string;
  default?: unknown;
  options?: Record<string, string>;
  validate?: { required?: boolean; type?: string; pattern?: string; min?: number; max?: number };
  toggleable?: boolean;
  fields?: BlueprintField[];
}

export interface Template {
  label: string;
  /** the template it extends (`extends@`) */
  extends?: string;
  child_type?: string;
  /** fields added to the Content tab */
  content?: BlueprintField[];
  /** extra tabs */
  tabs?: BlueprintField[];
}

const CONTENT: BlueprintField[] = [
  { name: 'header.title', type: 'text', label: 'Title', validate: { required: true } },
  { name: 'content', type: 'markdown', label: 'Content' },
  { name: 'header.media_order', type: 'pagemedia', label: 'Page Media' },
];

const OPTIONS: BlueprintField = {
  name: 'options',
  type: 'tab',
  label: 'Options',
  fields: [
    { name: 'header.published', type: 'toggle', label: 'Published', default: true, options: { '1': 'Yes', '0': 'No' }, validate: { type: 'bool' } },
    { name: 'header.date', type: 'datetime', label: 'Date' },
    { name: 'header.publish_date', type: 'datetime', label: 'Published Date', toggleable: true },
    { name: 'header.unpublish_date', type: 'datetime', label: 'Unpublished Date', toggleable: true },
    { name: 'header.metadata', type: 'array', label: 'Metadata', toggleable: true },
    { name: 'header.taxonomy', type: 'taxonomy', label: 'Taxonomies', validate: { type: 'array' } },
  ],
};

const ADVANCED: BlueprintField = {
  name: 'advanced',
  type: 'tab',
  label: 'Advanced',
  fields: [
    { name: 'folder', type: 'text', label: 'Folder Name', validate: { pattern: '^[^/\\\\]+$' } },
    { name: 'route', type: 'parents', label: 'Parent' },
    { name: 'name', type: 'select', label: 'Page Template', options: {} },
    { name: 'header.visible', type: 'toggle', label: 'Visible', toggleable: true, options: { '1': 'Yes', '0': 'No' }, validate: { type: 'bool' } },
    { name: 'header.routable', type: 'toggle', label: 'Routable', toggleable: true, default: true, validate: { type: 'bool' } },
    { name: 'header.slug', type: 'text', label: 'Slug', toggleable: true, validate: { pattern: '^[a-z0-9_-]+$' } },
  ],
};

/** The templates the demo theme offers. */
export const TEMPLATES: Record<string, Template> = {
  default: { label: 'Default' },
  blog: {
    label: 'Blog',
    extends: 'default',
    child_type: 'item',
    tabs: [
      {
        name: 'blog',
        type: 'tab',
        label: 'Blog Config',
        fields: [
          { name: 'header.content.items', type: 'text', label: 'Items', default: '@self.children' },
          { name: 'header.content.limit', type: 'number', label: 'Max Item Count', default: 10, validate: { type: 'int', min: 1, max: 100 } },
          { name: 'header.content.order.by', type: 'select', label: 'Order By', default: 'date', options: { folder: 'Folder', title: 'Title', date: 'Date', default: 'Default' } },
          { name: 'header.content.order.dir', type: 'select', label: 'Order', default: 'desc', options: { asc: 'Ascending', desc: 'Descending' } },
          { name: 'header.content.pagination', type: 'toggle', label: 'Pagination', default: true, validate: { type: 'bool' } },
        ],
      },
    ],
  },
  item: {
    label: 'Item',
    extends: 'default',
    content: [
      { name: 'header.subtitle', type: 'text', label: 'Subtitle' },
      { name: 'header.hero_image', type: 'filepicker', label: 'Hero Image' },
    ],
  },
  docs: { label: 'Docs', extends: 'default', child_type: 'chapter' },
  chapter: { label: 'Chapter', extends: 'default', child_type: 'default', content: [{ name: 'header.chapter', type: 'number', label: 'Chapter Number', validate: { type: 'int', min: 1 } }] },
  form: {
    label: 'Form',
    extends: 'default',
    tabs: [{ name: 'form', type: 'tab', label: 'Form', fields: [{ name: 'header.form.name', type: 'text', label: 'Form Name' }, { name: 'header.form.fields', type: 'array', label: 'Fields' }] }],
  },
};

/** The resolved field tree of a template (its `extends@` chain merged from the root down). */
function resolveFields(name: string): BlueprintField[] {
  const chain: Template[] = [];
  for (let t: Template | undefined = TEMPLATES[name]; t; t = t.extends ? TEMPLATES[t.extends] : undefined) chain.unshift(t);
  const content = chain.flatMap((t) => t.content ?? []);
  const tabs = chain.flatMap((t) => t.tabs ?? []);
  const templateOptions = Object.fromEntries(Object.entries(TEMPLATES).map(([k, t]) => [k, t.label]));
  const advanced = structuredClone(ADVANCED);
  advanced.fields!.find((f) => f.name === 'name')!.options = templateOptions;
  return [
    {
      name: 'tabs',
      type: 'tabs',
      fields: [{ name: 'content', type: 'tab', label: 'Content', fields: [...structuredClone(CONTENT), ...structuredClone(content)] }, structuredClone(OPTIONS), advanced, ...structuredClone(tabs)],
    },
  ];
}

export function registerBlueprintRoutes(router: Router, ctx: CmsContext): void {
  if (ctx.flavor === 'real') {
    router.on('GET', '/blueprints/pages', (req, res, _p, url) => {
      authorize(ctx, req, url, 'api.pages.read');
      json(res, 200, { data: realPageTypes() });
    });
    router.on('GET', '/blueprints/pages/{template+}', (req, res, params, url) => {
      const { account } = authorize(ctx, req, url, 'api.pages.read');
      const data = realPageBlueprint(params.template!);
      ctx.events.record('onApiBlueprintResolved', { context: 'page', template: params.template!, fields: data.fields, user: account.username });
      json(res, 200, { data });
    });
    return;
  }
  router.on('GET', '/blueprints/pages', (req, res, _p, url) => {
    // spec: "authenticated" (the real service asks for api.pages.read)
    authorize(ctx, req, url, 'api.access');
    json(res, 200, { data: Object.entries(TEMPLATES).map(([type, t]) => ({ type, label: t.label })) });
  });

  router.on('GET', '/blueprints/pages/{template+}', (req, res, params, url) => {
    const { account } = authorize(ctx, req, url, 'api.access');
    const name = params.template!;
    const t = TEMPLATES[name];
    if (!t) throw new HttpProblem(404, 'Not Found', `Blueprint for template '${name}' not found.`);
    const fields = resolveFields(name);
    ctx.events.record('onApiBlueprintResolved', { context: 'page', template: name, fields, user: account.username });
    json(res, 200, { data: { name, title: t.label, type: null, child_type: t.child_type ?? null, validation: 'loose', fields } });
  });
}
