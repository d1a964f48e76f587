/**
 * The page header as a form: the template's blueprint under the `header.` root, minus the fields
 * the editor shows elsewhere, drawn by the shared form engine (components/blueprint-form); values read
 * and written at their dotted names under `header.` (`header.content.order.by` → content.order.by).
 */
import type { BlueprintField, Header } from '../../../electron/contract/index';
import { valueAt, withValue } from '../../components/blueprint-form/form-values';
import { formTree, type FormNode } from '../../components/blueprint-form/form-tree';

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

/** The header part of a page blueprint as the shared form engine draws it. */
export const headerTree = (fields: BlueprintField[]): FormNode[] => formTree(fields, { root: 'header.', skip: SHOWN_ELSEWHERE });

/** `header.content.order.by` → ['content', 'order', 'by']. */
export const headerPath = (name: string): string[] => name.replace(/^header\./, '').split('.');

/** The value at `path` of the header. */
export const getAt = (header: Header, path: string[]): unknown => valueAt(header, path);

/** A copy of `header` with `value` at `path`; `undefined` removes the key (and empty parents). */
export const setAt = (header: Header, path: string[], value: unknown): Header => withValue(header, path, value);

export { headerPatch } from '../../../electron/contract/header-patch';
