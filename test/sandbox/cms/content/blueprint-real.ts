/**
 * Page blueprints as the real Grav API plugin answers them (the `real` flavour; the documents'
 * version is blueprint-routes.ts). It follows
 * getgrav/grav-plugin-api:classes/Api/Controllers/BlueprintController.php pageTypes(),
 * pageBlueprint(), loadPageBlueprint() and serializeFields(), and the shape of recordings 22–23:
 *
 *   - both routes need `api.pages.read`;
 *   - the template list is sorted by type, each `{type, label}`;
 *   - a field is `{name, type}` then its properties in the plugin's order (label, help,
 *     placeholder, default, description, size, classes, style, toggleable, highlight, multiple,
 *     markdown, underline, options, selectize, value_only, use, placeholder_key,
 *     placeholder_value), then `data_options`, `validate` and `fields`; tabs and sections carry a
 *     `title`, not a `label`;
 *   - `options` is an ordered list `[{value, label}]` with string values (toggles `"1"`/`"0"`);
 *   - the page form has the tabs Content, Options, Advanced and Security, laid out like Grav's
 *     default page blueprint (help texts here are the sandbox's own words); a template adds its
 *     own fields to it;
 *   - an unknown template answers the default blueprint under the asked name (the plugin's
 *     fallback for a template without a blueprint), not a 404.
 */
import { REAL_API_PERMISSIONS } from '../access';
import { TEMPLATES, type BlueprintField } from './blueprint-routes';

export type Options = Record<string, string> | { value: string; label: string }[];

/**
 * A field before serialisation: any of the plugin's properties (the page form uses a few; the
 * account, configuration, plugin and theme forms of ../site use more), options as a map or a list.
 */
export interface Def {
  name: string;
  type: string;
  options?: Options;
  validate?: Record<string, unknown>;
  fields?: Def[];
  [prop: string]: unknown;
}

/** The properties serializeFields() copies, in its order (data_options and validate follow). */
const PROP_ORDER = [
  'label', 'help', 'placeholder', 'default', 'description', 'content', 'size', 'classes', 'id', 'style', 'title', 'text', 'disabled', 'readonly',
  'toggleable', 'highlight', 'minlength', 'maxlength', 'min', 'max', 'step', 'rows', 'cols', 'multiple', 'yaml', 'markdown', 'prepend', 'append',
  'underline', 'options', 'selectize', 'value_only', 'create', 'destination', 'accept', 'random_name', 'avoid_overwriting', 'filesize', 'limit',
  'use', 'key', 'controls', 'collapsed', 'show_all', 'show_modular', 'show_root', 'show_slug', 'placeholder_key', 'placeholder_value', 'value_type',
  'btnLabel', 'placement', 'sortby', 'sortby_dir', 'sort', 'collapsible', 'min_height', 'selectunique', 'condition', 'wrapper_classes', 'provider',
  'translate', 'page_field', 'page_template', 'success_msg', 'error_msg', 'preview_images', 'preview_image', 'on_demand', 'folder', 'filter', 'self',
  'display', 'resize', 'media_picker_field', 'alpha', 'data_options', 'validate',
] as const;

/** serializeFields(): properties in the plugin's order, options as an ordered list, children last. */
export function serialize(def: Def): Record<string, unknown> {
  const out: Record<string, unknown> = { name: def.name, type: def.type };
  for (const key of PROP_ORDER) {
    const v = def[key];
    if (v === undefined) continue;
    out[key] = key === 'options' ? optionList(v as Options) : v;
  }
  if (def.fields) out.fields = def.fields.map(serialize);
  return out;
}

function optionList(options: Options): { value: string; label: string }[] {
  return Array.isArray(options) ? options : Object.entries(options).map(([value, label]) => ({ value: String(value), label: String(label) }));
}

// lists, not maps: a JavaScript object would put the key "0" before "1"
const yesNo = [
  { value: '1', label: 'Yes' },
  { value: '0', label: 'No' },
];
const onOff = [
  { value: '1', label: 'Enabled' },
  { value: '0', label: 'Disabled' },
];
const toggle = (name: string, label: string, help: string | undefined, options: Options, highlight = 1): Def => ({
  name,
  type: 'toggle',
  label,
  ...(help ? { help } : {}),
  toggleable: true,
  highlight,
  options,
  validate: { type: 'bool' },
});
const section = (name: string, title: string, fields: Def[] = []): Def => ({ name, type: 'section', title, underline: true, ...(fields.length ? { fields } : {}) });
const tab = (name: string, title: string, fields: Def[]): Def => ({ name, type: 'tab', title, fields });

/** The sandbox theme's page templates, sorted as Grav's Pages::types() lists them. */
export function realPageTypes(): { type: string; label: string }[] {
  return Object.entries(TEMPLATES)
    .map(([type, t]) => ({ type, label: t.label }))
    .sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

const templateOptions = () => realPageTypes().map((t) => ({ value: t.type, label: t.label }));

/** A field of the documents' template definitions in the real service's form. */
function fromSpec(f: BlueprintField): Def {
  const container = f.type === 'tab' || f.type === 'section';
  const def: Def = { name: f.name, type: f.type };
  if (f.label !== undefined) Object.assign(def, container ? { title: f.label } : { label: f.label });
  if (f.default !== undefined) def.default = f.default;
  if (f.toggleable !== undefined) def.toggleable = f.toggleable;
  if (f.options !== undefined) def.options = f.options;
  if (f.validate !== undefined) def.validate = f.validate;
  if (f.fields) def.fields = f.fields.map(fromSpec);
  return def;
}

function defaultForm(extraContent: Def[], extraTabs: Def[]): Def[] {
  const content = tab('content', 'Content', [
    { name: 'xss_check', type: 'xss' },
    { name: 'header.title', type: 'text', label: 'Title', style: 'vertical' },
    { name: 'content', type: 'markdown', validate: { type: 'textarea' } },
    ...extraContent,
    { name: 'header.media_order', type: 'pagemedia', label: 'Page Media' },
  ]);
  const options = tab('options', 'Options', [
    section('publishing', 'Publishing', [
      { ...toggle('header.published', 'Published', 'A page is published unless this says otherwise or its dates keep it back.', yesNo), size: 'medium' },
      { name: 'header.date', type: 'datetime', label: 'Date', help: 'The date of the page.', toggleable: true },
      { name: 'header.publish_date', type: 'datetime', label: 'Published Date', help: 'Publish the page from this date on.', toggleable: true },
      { name: 'header.unpublish_date', type: 'datetime', label: 'Unpublished Date', help: 'Unpublish the page from this date on.', toggleable: true },
      { name: 'header.metadata', type: 'array', label: 'Metadata', help: 'Metadata of this page.', toggleable: true, placeholder_key: 'PLUGIN_ADMIN.METADATA_KEY', placeholder_value: 'PLUGIN_ADMIN.METADATA_VALUE' },
    ]),
    section('taxonomies', 'Taxonomies', [{ name: 'header.taxonomy', type: 'taxonomy', label: 'Taxonomy', multiple: true, validate: { type: 'array' } }]),
  ]);
  const advanced = tab('advanced', 'Advanced', [
    {
      name: 'columns',
      type: 'columns',
      fields: [
        {
          name: 'column1',
          type: 'column',
          fields: [
            section('settings', 'Settings'),
            { name: 'folder', type: 'folder-slug', label: 'Folder Name', validate: { rule: 'slug' } },
            { name: 'route', type: 'parents', label: 'Parent', classes: 'fancy' },
            { name: 'name', type: 'select', label: 'Page Template', help: 'The template of the page.', default: 'default', classes: 'fancy', options: templateOptions(), data_options: '\\Grav\\Common\\Page\\Pages::pageTypes' },
            { name: 'header.body_classes', type: 'text', label: 'Body classes', description: 'Classes of the page body, space separated.', markdown: true },
          ],
        },
        {
          name: 'column2',
          type: 'column',
          fields: [
            section('order_title', 'Ordering'),
            { name: 'ordering', type: 'toggle', label: 'Folder Numeric Prefix', help: 'A numeric prefix orders the page and makes it visible.', highlight: 1, options: onOff, validate: { type: 'bool' } },
            { name: 'order', type: 'order', label: 'Sortable Pages:' },
          ],
        },
      ],
    },
    section('overrides', 'Overrides', [
      { name: 'header.menu', type: 'text', label: 'Menu', help: 'The text of the page in menus; the title when empty.', toggleable: true },
      { name: 'header.slug', type: 'text', label: 'Slug', help: 'The page\'s part of the URL.', toggleable: true, validate: { message: 'PLUGIN_ADMIN.SLUG_VALIDATE_MESSAGE', rule: 'slug' } },
      { name: 'header.process', type: 'checkboxes', label: 'Process', default: { markdown: true, twig: false }, toggleable: true, options: { markdown: 'Markdown' }, use: 'keys', data_options: '\\Grav\\Common\\Security::pageProcessOptions' },
      { name: 'header.child_type', type: 'select', label: 'Default Child Type', placeholder: 'Use Global', default: 'default', toggleable: true, options: templateOptions(), data_options: '\\Grav\\Common\\Page\\Pages::types' },
      toggle('header.routable', 'Routable', 'Whether the page is reachable by a URL.', onOff),
      toggle('header.visible', 'Visible', 'Whether the page shows in the navigation.', onOff),
      { name: 'header.template', type: 'text', label: 'Display Template', toggleable: true },
    ]),
    section('routes_only', 'Route Overrides', [
      { name: 'header.routes.default', type: 'text', label: 'Default Route', toggleable: true },
      { name: 'header.routes.canonical', type: 'text', label: 'Canonical Route', toggleable: true },
      { name: 'header.routes.aliases', type: 'array', label: 'Route Aliases', size: 'large', toggleable: true, value_only: true },
    ]),
    section('admin_only', 'Admin Specific Overrides', [
      {
        name: 'header.admin.children_display_order',
        type: 'select',
        label: 'Children Display Order',
        help: 'The order of this page\'s children in the admin.',
        default: 'collection',
        classes: 'fancy',
        toggleable: true,
        options: { collection: 'Ordered by Collection definition', default: 'Ordered by Folder name' },
      },
      { name: 'header.order_by', type: 'hidden' },
      { name: 'header.order_manual', type: 'hidden', validate: { type: 'commalist' } },
      { name: 'blueprint', type: 'blueprint' },
    ]),
  ]);
  const security = tab('security', 'Security', [
    section('_site', 'Page Access', [
      toggle('header.login.visibility_requires_access', 'Menu Visibility Requires Access', 'Show the page in menus only to users who may open it.', yesNo, 0),
      {
        name: 'header.access',
        type: 'acl-access',
        label: 'Page Access',
        help: 'Users with these permissions may open the page.',
        options: [{ value: 'site', label: 'Site' }, { value: 'site.login', label: 'Login to Site' }, ...REAL_API_PERMISSIONS.map((p) => ({ value: p, label: p }))],
        validate: { type: 'array', value_type: 'bool' },
      },
    ]),
    section('_admin', 'Page Permissions', [
      toggle('header.permissions.inherit', 'Inherit Permissions', 'Take the permissions of the parent page.', yesNo),
      { name: 'header.permissions.groups', type: 'acl-permissions', label: 'Page Groups', help: 'Groups with special access to this page.', options: { authors: 'Page Authors (Special)', defaults: 'Default ACL (Special)' } },
    ]),
  ]);
  return [{ name: 'tabs', type: 'tabs', fields: [content, options, advanced, security, ...extraTabs] }];
}

/** The blueprint of a template (an unknown one gets the default form under its own name). */
export function realPageBlueprint(template: string): Record<string, unknown> {
  const chain = [];
  for (let t = TEMPLATES[template]; t; t = t.extends ? TEMPLATES[t.extends] : undefined) chain.unshift(t);
  const content = chain.flatMap((t) => t.content ?? []).map(fromSpec);
  const tabs = chain.flatMap((t) => t.tabs ?? []).map(fromSpec);
  return {
    name: template,
    title: template,
    type: null,
    child_type: TEMPLATES[template]?.child_type ?? null,
    validation: 'loose',
    fields: defaultForm(content, tabs).map(serialize),
  };
}
