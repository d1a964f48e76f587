/**
 * The page header as a form: a blueprint's field tree (tabs → tab → fields, sections, fieldsets)
 * flattened into labelled groups of the fields the form shows, and values read and written at
 * their dotted names under `header.` (`header.content.order.by` → header.content.order.by).
 */
import { fieldAt, isPlainObject, ownField, setField, type BlueprintField, type Header } from '../../../electron/contract/index';

export interface FieldGroup {
  label: string;
  fields: BlueprintField[];
}

/** Container types whose children are shown in place (their label becomes a group heading). */
const CONTAINERS = new Set(['tabs', 'tab', 'section', 'fieldset', 'columns', 'column', 'list_container']);

/**
 * Fields the editor shows elsewhere or handles itself: the title and content (Content tab), page
 * media (Media tab), published/visible/template/slug (the "Page" group), the parent (moving is the
 * tree's job).
 */
const SHOWN_ELSEWHERE = new Set([
  'header.title',
  'content',
  'header.media_order',
  'header.published',
  'header.visible',
  'header.slug',
  'folder',
  'route',
  'name',
  'ordering',
  'order',
]);

/**
 * Field types that hold nothing (headings, spacers) or nothing a person edits: Grav's blueprints
 * keep values the admin itself maintains in `hidden` fields (order_by, order_manual).
 */
const DISPLAY_ONLY = new Set(['spacer', 'display', 'separator', 'html', 'hidden']);

export function fieldGroups(fields: BlueprintField[]): FieldGroup[] {
  const groups: FieldGroup[] = [];
  const byLabel = new Map<string, FieldGroup>();
  const groupFor = (label: string) => {
    let g = byLabel.get(label);
    if (!g) {
      g = { label, fields: [] };
      byLabel.set(label, g);
      groups.push(g);
    }
    return g;
  };
  const walk = (list: BlueprintField[], label: string) => {
    for (const f of list) {
      if (CONTAINERS.has(f.type) || (f.fields && !f.name.startsWith('header.'))) {
        const inner = f.type === 'tabs' || f.type === 'columns' || f.type === 'column' ? label : (f.label ?? label);
        walk(f.fields ?? [], inner);
        continue;
      }
      if (SHOWN_ELSEWHERE.has(f.name) || DISPLAY_ONLY.has(f.type) || !f.name.startsWith('header.')) continue;
      groupFor(label).fields.push(f);
    }
  };
  walk(fields, 'Header');
  return groups.filter((g) => g.fields.length > 0);
}

/** `header.content.order.by` → ['content', 'order', 'by']. */
export const headerPath = (name: string): string[] => name.replace(/^header\./, '').split('.');

/** The value at `path` (own fields only: the keys are the site's, `constructor` is a field like any other). */
export const getAt = (header: Header, path: string[]): unknown => fieldAt(header, path);

/** A copy of `header` with `value` at `path`; `undefined` removes the key (and empty parents). */
export function setAt(header: Header, path: string[], value: unknown): Header {
  const [key, ...rest] = path;
  if (key === undefined) return header;
  const out: Header = { ...header };
  if (rest.length === 0) {
    if (value === undefined) delete out[key];
    else setField(out, key, value);
    return out;
  }
  const child = ownField(out, key);
  const next = setAt(isPlainObject(child) ? child : {}, rest, value);
  if (Object.keys(next).length === 0) delete out[key];
  else setField(out, key, next);
  return out;
}

export { headerPatch } from '../../../electron/contract/header-patch';

/** Grav-style dates ("2024-01-03 09:00") ↔ the value of a datetime-local input ("2024-01-03T09:00"). */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export function toDateTimeInput(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return '';
  if (typeof v !== 'string') return null;
  const m = DATE_TIME.exec(v.trim());
  if (m) return `${m[1]}T${m[2]}`;
  if (DATE_ONLY.test(v.trim())) return `${v.trim()}T00:00`;
  return null;
}

export const fromDateTimeInput = (v: string): string | undefined => (v ? v.replace('T', ' ') : undefined);

export function toDateInput(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return '';
  if (typeof v !== 'string') return null;
  const s = v.trim().slice(0, 10);
  return DATE_ONLY.test(s) ? s : null;
}
