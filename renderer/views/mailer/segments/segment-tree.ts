/**
 * The segment builder's model, pure: a definition (docs/mailer-audience.md, "Segments": `all`,
 * `any` and `none` containers of conditions, and on document 2's sites groups of the same shape
 * inside them, 4 levels at most) held as a tree whose every node has an id, so the builder can
 * key its rows, keep focus on the row being edited and put the site's complaints (`definition.
 * any.1.value`) on the row they are about. Every edit answers a new tree (nothing is changed in
 * place): the builder holds it in `$state.raw` and a test compares trees.
 *
 * What goes to the site (`toDefinition`): the tree as the definition, with a condition whose value
 * is not filled in yet sent as it is (the site's preview leaves it out and counts it as
 * `ignored`) and a group with nothing in it left out (it would match everybody, or nobody under
 * `none`, while the person is about to fill it). `paths` maps each path of what was sent to its
 * row, so a refusal lands where it belongs.
 */
import {
  SEGMENT_CONDITIONS_MAX,
  SEGMENT_DEPTH,
  type MailerBase,
  type OperatorValue,
  type SegmentCondition,
  type SegmentGroup,
  type SegmentVocabulary,
} from '../../../../electron/contract/index';

export type Container = 'all' | 'any' | 'none';
export const CONTAINERS: readonly Container[] = ['all', 'any', 'none'];

/** What each container means, for the group's headings (the root's and a nested group's). */
export const CONTAINER_WORDS: Record<Container, { title: string; inner: string; add: string; empty: string }> = {
  all: { title: 'Matches all of these', inner: 'All of these', add: 'Add a condition everyone must meet', empty: 'No condition everyone must meet.' },
  any: { title: 'And at least one of these', inner: 'At least one of these', add: 'Add a condition of which one is enough', empty: 'No either-or conditions.' },
  none: { title: 'And none of these', inner: 'None of these', add: 'Add a condition that leaves people out', empty: 'Nobody is left out by a condition.' },
};

export interface ConditionNode {
  kind: 'condition';
  id: string;
  field: string;
  op: string;
  /** null: not filled in yet. */
  value: number | string | null;
}

export interface GroupNode {
  kind: 'group';
  id: string;
  all: TreeNode[];
  any: TreeNode[];
  none: TreeNode[];
}

export type TreeNode = ConditionNode | GroupNode;

export type Field = SegmentVocabulary['fields'][number];

let serial = 0;
const nextId = (kind: 'c' | 'g') => `${kind}${++serial}`;

export const emptyGroup = (): GroupNode => ({ kind: 'group', id: nextId('g'), all: [], any: [], none: [] });

const isCondition = (x: SegmentCondition | SegmentGroup): x is SegmentCondition => 'field' in x;

/** A saved definition as a tree (new ids). */
export function fromDefinition(def: SegmentGroup): GroupNode {
  const g = emptyGroup();
  for (const c of CONTAINERS) {
    g[c] = (def[c] ?? []).map((item) =>
      isCondition(item) ? { kind: 'condition', id: nextId('c'), field: item.field, op: item.op, value: item.value ?? null } : fromDefinition(item),
    );
  }
  return g;
}

/** Whether a group holds no condition at any depth (it is left out of what is sent). */
export function isEmptyGroup(g: GroupNode): boolean {
  return CONTAINERS.every((c) => g[c].every((item) => item.kind === 'group' && isEmptyGroup(item)));
}

/**
 * The tree as the site's definition, and where each sent path's row is (`definition.all.0` → its
 * id; `prefix` is the input's name for the definition). Empty groups are left out.
 */
export function toDefinition(root: GroupNode, prefix = 'definition'): { definition: SegmentGroup; paths: Map<string, string> } {
  const paths = new Map<string, string>();
  const walk = (g: GroupNode, path: string): SegmentGroup => {
    const out: SegmentGroup = {};
    for (const c of CONTAINERS) {
      const items: (SegmentCondition | SegmentGroup)[] = [];
      for (const item of g[c]) {
        if (item.kind === 'group' && isEmptyGroup(item)) continue;
        const at = `${path}.${c}.${items.length}`;
        paths.set(at, item.id);
        if (item.kind === 'group') items.push(walk(item, at));
        else items.push(item.value === null ? { field: item.field, op: item.op, value: null } : { field: item.field, op: item.op, value: item.value });
      }
      if (items.length) out[c] = items;
    }
    // a group inside must name a container, or the site reads it as a condition
    if (path !== prefix && Object.keys(out).length === 0) out.all = [];
    return out;
  };
  return { definition: walk(root, prefix), paths };
}

/** The row a site's field path is about (`definition.any.1.value` → the condition's id), or null. */
export function nodeAtPath(paths: Map<string, string>, path: string): string | null {
  const parts = path.split('.');
  for (let n = parts.length; n > 0; n--) {
    const id = paths.get(parts.slice(0, n).join('.'));
    if (id) return id;
  }
  return null;
}

// ── finding

export function find(root: GroupNode, id: string): TreeNode | null {
  if (root.id === id) return root;
  for (const c of CONTAINERS) {
    for (const item of root[c]) {
      if (item.id === id) return item;
      if (item.kind === 'group') {
        const found = find(item, id);
        if (found) return found;
      }
    }
  }
  return null;
}

/** Where a node sits: its group, container and index (null for the root or an unknown id). */
export function placeOf(root: GroupNode, id: string): { group: GroupNode; container: Container; index: number } | null {
  for (const c of CONTAINERS) {
    const index = root[c].findIndex((x) => x.id === id);
    if (index >= 0) return { group: root, container: c, index };
    for (const item of root[c]) {
      if (item.kind !== 'group') continue;
      const found = placeOf(item, id);
      if (found) return found;
    }
  }
  return null;
}

/** How deep a group is: the definition itself is 1. */
export function depthOf(root: GroupNode, id: string): number {
  if (root.id === id) return 1;
  for (const c of CONTAINERS) {
    for (const item of root[c]) {
      if (item.kind !== 'group') continue;
      const d = depthOf(item, id);
      if (d > 0) return d + 1;
    }
  }
  return 0;
}

/** Conditions in the tree, at every depth. */
export function countConditions(g: GroupNode): number {
  let n = 0;
  for (const c of CONTAINERS) for (const item of g[c]) n += item.kind === 'condition' ? 1 : countConditions(item);
  return n;
}

// ── the vocabulary

export const fieldOf = (vocab: SegmentVocabulary, key: string): Field | null => vocab.fields.find((f) => f.key === key) ?? null;

/** What input a condition's operator takes ('none': no value). Unknown fields and operators take text. */
export function valueKind(vocab: SegmentVocabulary, field: string, op: string): OperatorValue | string {
  return fieldOf(vocab, field)?.operators.find((o) => o.key === op)?.value ?? 'text';
}

/** A condition's value is filled in (or needs none). */
export function isComplete(vocab: SegmentVocabulary, c: ConditionNode): boolean {
  return valueKind(vocab, c.field, c.op) === 'none' || (c.value !== null && c.value !== '');
}

/** A new condition: the vocabulary's first field (or `field`), its first operator, no value yet. */
export function newCondition(vocab: SegmentVocabulary, field?: string): ConditionNode {
  const f = (field ? fieldOf(vocab, field) : null) ?? vocab.fields[0];
  return { kind: 'condition', id: nextId('c'), field: f?.key ?? '', op: f?.operators[0]?.key ?? '', value: null };
}

// ── edits (each answers a new tree)

function mapGroups(g: GroupNode, fn: (g: GroupNode) => GroupNode): GroupNode {
  const next = fn(g);
  let changed = next !== g;
  const out: GroupNode = { ...next };
  for (const c of CONTAINERS) {
    const items = next[c].map((item) => (item.kind === 'group' ? mapGroups(item, fn) : item));
    if (items.some((x, i) => x !== next[c][i])) {
      out[c] = items;
      changed = true;
    }
  }
  return changed ? out : g;
}

function mapNode(root: GroupNode, id: string, fn: (n: TreeNode) => TreeNode): GroupNode {
  if (root.id === id) return fn(root) as GroupNode;
  return mapGroups(root, (g) => {
    let out = g;
    for (const c of CONTAINERS) {
      const i = g[c].findIndex((x) => x.id === id && x.kind === 'condition');
      if (i < 0) continue;
      const before = g[c][i]!;
      const after = fn(before);
      if (after === before) continue;
      const items = [...g[c]];
      items[i] = after;
      out = { ...out, [c]: items };
    }
    return out;
  });
}

function insert(root: GroupNode, groupId: string, container: Container, node: TreeNode): GroupNode {
  return mapGroups(root, (g) => (g.id === groupId ? { ...g, [container]: [...g[container], node] } : g));
}

/** Why a group cannot take another condition (the site's limit), or null. */
export function conditionBlockedReason(root: GroupNode): string | null {
  return countConditions(root) >= SEGMENT_CONDITIONS_MAX ? `A segment holds at most ${SEGMENT_CONDITIONS_MAX} conditions.` : null;
}

/**
 * Why a group cannot be added inside this one, or null: Mailroom takes the flat document only
 * (its answer would be `nested_groups_unsupported`), groups nest SEGMENT_DEPTH deep at most, and a
 * group comes with a condition.
 */
export function groupBlockedReason(root: GroupNode, groupId: string, base: MailerBase): string | null {
  if (base === 'mailroom') return 'Mailroom takes conditions under all, any and none only, without groups inside.';
  if (depthOf(root, groupId) >= SEGMENT_DEPTH) return `Groups nest at most ${SEGMENT_DEPTH} deep.`;
  return conditionBlockedReason(root);
}

/** Adds a new condition at the end of a group's container; answers the tree and the new row's id. */
export function addCondition(root: GroupNode, groupId: string, container: Container, vocab: SegmentVocabulary, field?: string): { tree: GroupNode; id: string } {
  if (conditionBlockedReason(root) || !find(root, groupId)) return { tree: root, id: '' };
  const c = newCondition(vocab, field);
  return { tree: insert(root, groupId, container, c), id: c.id };
}

/** Adds a group holding one new condition (under its `all`); answers the tree and the condition's id. */
export function addGroup(root: GroupNode, groupId: string, container: Container, vocab: SegmentVocabulary, base: MailerBase): { tree: GroupNode; id: string } {
  if (groupBlockedReason(root, groupId, base) || !find(root, groupId)) return { tree: root, id: '' };
  const c = newCondition(vocab);
  const g: GroupNode = { ...emptyGroup(), all: [c] };
  return { tree: insert(root, groupId, container, g), id: c.id };
}

/** Removes a condition or a group (with what it holds); the root stays. */
export function remove(root: GroupNode, id: string): GroupNode {
  return mapGroups(root, (g) => {
    let out = g;
    for (const c of CONTAINERS) if (g[c].some((x) => x.id === id)) out = { ...out, [c]: g[c].filter((x) => x.id !== id) };
    return out;
  });
}

/** Another field: its first operator, and the value cleared (it meant something else). */
export function setField(root: GroupNode, id: string, field: string, vocab: SegmentVocabulary): GroupNode {
  const f = fieldOf(vocab, field);
  if (!f) return root;
  return mapNode(root, id, (n) => (n.kind === 'condition' && n.field !== field ? { ...n, field, op: f.operators[0]?.key ?? '', value: null } : n));
}

/** Another operator: the value kept when it takes the same kind of input, else cleared. */
export function setOperator(root: GroupNode, id: string, op: string, vocab: SegmentVocabulary): GroupNode {
  return mapNode(root, id, (n) => {
    if (n.kind !== 'condition' || n.op === op) return n;
    const same = valueKind(vocab, n.field, n.op) === valueKind(vocab, n.field, op);
    return { ...n, op, value: same && valueKind(vocab, n.field, op) !== 'none' ? n.value : null };
  });
}

export function setValue(root: GroupNode, id: string, value: number | string | null): GroupNode {
  return mapNode(root, id, (n) => (n.kind === 'condition' && n.value !== value ? { ...n, value } : n));
}

/** Moves a row up (-1) or down (+1) within its container; at an end nothing moves. */
export function move(root: GroupNode, id: string, delta: -1 | 1): GroupNode {
  const place = placeOf(root, id);
  if (!place) return root;
  const to = place.index + delta;
  const list = place.group[place.container];
  if (to < 0 || to >= list.length) return root;
  return mapGroups(root, (g) => {
    if (g.id !== place.group.id) return g;
    const items = [...g[place.container]];
    const [x] = items.splice(place.index, 1);
    items.splice(to, 0, x!);
    return { ...g, [place.container]: items };
  });
}

// ── checks and words

export interface TreeProblem {
  id: string;
  message: string;
}

/** What stops a save (the site would refuse it): conditions not filled in, groups with nothing in them. */
export function problems(root: GroupNode, vocab: SegmentVocabulary): TreeProblem[] {
  const out: TreeProblem[] = [];
  const walk = (g: GroupNode) => {
    for (const c of CONTAINERS) {
      for (const item of g[c]) {
        if (item.kind === 'group') {
          if (isEmptyGroup(item)) out.push({ id: item.id, message: 'This group has no condition: add one or remove the group.' });
          else walk(item);
        } else if (!fieldOf(vocab, item.field)) out.push({ id: item.id, message: 'This site does not know this field any more: choose another.' });
        else if (!isComplete(vocab, item)) out.push({ id: item.id, message: valueKind(vocab, item.field, item.op) === 'date' ? 'Choose a date.' : 'Fill in a value.' });
      }
    }
  };
  walk(root);
  if (countConditions(root) === 0) out.push({ id: root.id, message: 'Add at least one condition.' });
  return out;
}

/** Conditions not filled in yet (the preview leaves them out). */
export function incompleteCount(root: GroupNode, vocab: SegmentVocabulary): number {
  let n = 0;
  for (const c of CONTAINERS) for (const item of root[c]) n += item.kind === 'group' ? incompleteCount(item, vocab) : isComplete(vocab, item) ? 0 : 1;
  return n;
}

/** A date input's day (`2024-03-01`) as the site's UTC epoch seconds at its start, or null. */
export function dayToEpoch(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(ms);
  // a day that does not exist (Feb 30) is not rolled into another
  if (d.getUTCFullYear() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3]) || ms < 0) return null;
  return ms / 1000;
}

/** The site's epoch seconds as a date input's day (UTC), or '' for none. */
export function epochToDay(sec: number | string | null): string {
  if (typeof sec !== 'number' || !Number.isFinite(sec)) return '';
  return new Date(sec * 1000).toISOString().slice(0, 10);
}

/** A whole number of days (0 to 36,500, the site's bounds) from what was typed, or null. */
export function daysFrom(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const n = Number(text);
  return n <= 36_500 ? n : null;
}

/** A condition in words ("On list is Newsletter"); a value not filled in says so. */
export function describeCondition(vocab: SegmentVocabulary, c: Pick<ConditionNode, 'field' | 'op' | 'value'>): string {
  const f = fieldOf(vocab, c.field);
  if (!f) return `${c.field} ${c.op} ${c.value ?? ''}`.trim();
  const op = f.operators.find((o) => o.key === c.op);
  const kind = op?.value ?? 'text';
  const head = `${f.label} ${op?.label ?? c.op}`;
  if (kind === 'none') return head;
  if (c.value === null || c.value === '') return `${head} …`;
  if (kind === 'date') return `${head} ${epochToDay(c.value)}`;
  if (kind === 'days') return `${head} ${c.value} ${c.value === 1 ? 'day' : 'days'}`;
  const option = f.options?.find((o) => String(o.value) === String(c.value));
  return `${head} ${option?.label ?? c.value}`;
}

/** A definition in one line: "All of: A, B; any of: C; none of: D" (groups in brackets). */
export function describeDefinition(vocab: SegmentVocabulary, def: SegmentGroup): string {
  const words: Record<Container, string> = { all: 'all of', any: 'any of', none: 'none of' };
  const group = (g: SegmentGroup): string =>
    CONTAINERS.filter((c) => (g[c] ?? []).length)
      .map((c) => `${words[c]}: ${(g[c] ?? []).map((x) => (isCondition(x) ? describeCondition(vocab, { field: x.field, op: x.op, value: x.value ?? null }) : `(${group(x)})`)).join(', ')}`)
      .join('; ');
  const text = group(def);
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : 'Everybody';
}
