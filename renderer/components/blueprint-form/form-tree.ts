/**
 * A blueprint's field tree as the form shows it: tabs (Grav's `tabs` → `tab`), sections and
 * fieldsets as titled groups, and the fields a person edits, each with its path under the form's
 * root. Layout-only containers (columns, conditionals) show their children in place. Fields that
 * hold nothing (spacers, headings) or that the site maintains itself (`hidden`) are left out; fields
 * outside the root (a page blueprint's `content`, `folder`) belong to another part of the screen.
 */
import type { BlueprintField, BlueprintOption } from '../../../electron/contract/index';
import { fieldPath } from './form-values';
import { readable } from './labels';

export interface FieldNode {
  kind: 'field';
  field: BlueprintField;
  path: string[];
}
export interface SectionNode {
  kind: 'section';
  id: string;
  title: string | null;
  nodes: FormNode[];
}
export interface TabsNode {
  kind: 'tabs';
  id: string;
  tabs: { id: string; title: string; nodes: FormNode[] }[];
}
export type FormNode = FieldNode | SectionNode | TabsNode;

export interface TreeOptions {
  /** The prefix of the names this form edits (`header.`); names without it are not this form's. */
  root?: string;
  /** Full names shown elsewhere on the screen. */
  skip?: ReadonlySet<string>;
}

const LAYOUT = new Set(['columns', 'column', 'conditional', 'list_container', 'container']);
const GROUPS = new Set(['section', 'fieldset']);
const DISPLAY_ONLY = new Set(['spacer', 'display', 'separator', 'html', 'hidden']);

export function formTree(fields: readonly BlueprintField[], opts: TreeOptions = {}): FormNode[] {
  const root = opts.root ?? '';
  let seq = 0;
  const walk = (list: readonly BlueprintField[]): FormNode[] => {
    const out: FormNode[] = [];
    for (const f of list) {
      if (f.type === 'tabs') {
        const tabs = (f.fields ?? [])
          .map((t) => ({ id: `tab-${seq++}`, title: readable(t.label) || t.name || 'Tab', nodes: walk(t.fields ?? []) }))
          .filter((t) => hasFields(t.nodes));
        if (tabs.length) out.push({ kind: 'tabs', id: `tabs-${seq++}`, tabs });
      } else if (GROUPS.has(f.type) || f.type === 'tab') {
        const nodes = walk(f.fields ?? []);
        // a section is also Grav's titled heading with no fields of its own: the fields after it follow it
        if (f.fields?.length) {
          if (hasFields(nodes)) out.push({ kind: 'section', id: `section-${seq++}`, title: readable(f.label) || null, nodes });
        } else if (readable(f.label)) out.push({ kind: 'section', id: `section-${seq++}`, title: readable(f.label), nodes: [] });
      } else if (LAYOUT.has(f.type) || (f.fields && !f.name.startsWith(root))) {
        out.push(...walk(f.fields ?? []));
      } else if (!DISPLAY_ONLY.has(f.type) && f.name && (!root || f.name.startsWith(root)) && !opts.skip?.has(f.name)) {
        out.push({ kind: 'field', field: f, path: fieldPath(f.name, root) });
      }
    }
    return attachHeadings(out);
  };
  return walk(fields);
}

/** Grav's field-less sections are headings: the fields that follow (up to the next heading) go under them. */
function attachHeadings(nodes: FormNode[]): FormNode[] {
  const out: FormNode[] = [];
  let open: SectionNode | null = null;
  for (const n of nodes) {
    if (n.kind === 'section' && n.nodes.length === 0) {
      open = { ...n, nodes: [] };
      out.push(open);
    } else if (open && n.kind === 'field') open.nodes.push(n);
    else {
      open = null;
      out.push(n);
    }
  }
  return out.filter((n) => n.kind !== 'section' || n.nodes.length > 0);
}

function hasFields(nodes: readonly FormNode[]): boolean {
  return nodes.some((n) => (n.kind === 'field' ? true : n.kind === 'section' ? hasFields(n.nodes) : n.tabs.some((t) => hasFields(t.nodes))));
}

/** Every field of the tree in order (validation, counting). */
export function fieldsOf(nodes: readonly FormNode[]): FieldNode[] {
  return nodes.flatMap((n) => (n.kind === 'field' ? [n] : n.kind === 'section' ? fieldsOf(n.nodes) : n.tabs.flatMap((t) => fieldsOf(t.nodes))));
}

/** The `data_options` callables the fields name whose options are not known yet. */
export function unresolvedOptions(fields: readonly BlueprintField[]): string[] {
  const out = new Set<string>();
  const walk = (list: readonly BlueprintField[]) => {
    for (const f of list) {
      if (f.dataOptions && !f.options?.some((o) => o.value !== '')) out.add(f.dataOptions);
      if (f.fields) walk(f.fields);
    }
  };
  walk(fields);
  return [...out];
}

/**
 * The fields with the options the site resolved put in (after the blueprint's own static ones, as
 * Grav's admin lists them: "Default (Server Timezone)" first, then the zones). A callable that did
 * not resolve leaves its field as it was: a text box keeps its value editable.
 */
export function withResolvedOptions(fields: readonly BlueprintField[], resolved: ReadonlyMap<string, readonly BlueprintOption[]>): BlueprintField[] {
  return fields.map((f) => {
    const extra = f.dataOptions ? resolved.get(f.dataOptions) : undefined;
    const own = f.options ?? [];
    const options = extra ? [...own, ...extra.filter((o) => !own.some((x) => x.value === o.value))] : f.options;
    return { ...f, ...(options ? { options } : {}), ...(f.fields ? { fields: withResolvedOptions(f.fields, resolved) } : {}) };
  });
}
