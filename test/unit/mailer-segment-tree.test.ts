/** The segment builder's model: its edits, what it sends, where a site's complaint lands, its limits and its words. */
import { describe, expect, test } from 'vitest';
import { SegmentDefinition, asSegmentDefinition, type SegmentGroup, type SegmentVocabulary } from '../../electron/contract';
import * as v from 'valibot';
import {
  addCondition,
  addGroup,
  countConditions,
  dayToEpoch,
  daysFrom,
  depthOf,
  describeCondition,
  describeDefinition,
  emptyGroup,
  epochToDay,
  find,
  fromDefinition,
  groupBlockedReason,
  incompleteCount,
  move,
  nodeAtPath,
  problems,
  remove,
  setField,
  setOperator,
  setValue,
  toDefinition,
  type ConditionNode,
  type GroupNode,
} from '../../renderer/views/mailer/segments/segment-tree';

/** The sandbox's vocabulary, as the Host reads it (docs/mailer-audience.md). */
const vocab: SegmentVocabulary = {
  groups: [
    { key: 'subscriber', label: 'Subscriber' },
    { key: 'engagement', label: 'Engagement' },
  ],
  fields: [
    { key: 'list', label: 'On list', group: 'subscriber', type: 'list', operators: [{ key: 'is', label: 'is', value: 'list' }, { key: 'is_not', label: 'is not', value: 'list' }], options: [{ value: 1, label: 'Newsletter' }, { value: 2, label: 'Events' }] },
    { key: 'status', label: 'Subscriber status', group: 'subscriber', type: 'enum', operators: [{ key: 'is', label: 'is', value: 'enum' }], options: [{ value: 'subscribed', label: 'Subscribed' }] },
    {
      key: 'subscribed_at',
      label: 'Joined',
      group: 'subscriber',
      type: 'date',
      operators: [
        { key: 'before', label: 'is before', value: 'date' },
        { key: 'after', label: 'is after', value: 'date' },
        { key: 'within_days', label: 'is within the last', value: 'days' },
        { key: 'older_than_days', label: 'is longer ago than', value: 'days' },
      ],
      options: null,
    },
    {
      key: 'language',
      label: 'Language',
      group: 'subscriber',
      type: 'string',
      operators: [
        { key: 'is', label: 'is', value: 'text' },
        { key: 'contains', label: 'contains', value: 'text' },
        { key: 'is_set', label: 'is set', value: 'none' },
      ],
      options: null,
    },
  ],
};

/** A tree without its ids, to compare shapes. */
const shape = (g: GroupNode): unknown => ({
  all: g.all.map((x) => (x.kind === 'group' ? shape(x) : [x.field, x.op, x.value])),
  any: g.any.map((x) => (x.kind === 'group' ? shape(x) : [x.field, x.op, x.value])),
  none: g.none.map((x) => (x.kind === 'group' ? shape(x) : [x.field, x.op, x.value])),
});

const condition = (g: GroupNode, id: string) => find(g, id) as ConditionNode;

describe('segment tree', () => {
  test('a definition becomes a tree and back, groups included, each node with an id of its own', () => {
    const def: SegmentGroup = {
      all: [{ field: 'list', op: 'is', value: 1 }],
      any: [{ field: 'language', op: 'is', value: 'de' }, { all: [{ field: 'status', op: 'is', value: 'subscribed' }], none: [{ field: 'language', op: 'is_set' }] }],
    };
    const tree = fromDefinition(def);
    const ids = new Set<string>();
    const walk = (g: GroupNode) => {
      ids.add(g.id);
      for (const c of ['all', 'any', 'none'] as const) for (const x of g[c]) x.kind === 'group' ? walk(x) : ids.add(x.id);
    };
    walk(tree);
    expect(ids.size).toBe(6);
    const { definition, paths } = toDefinition(tree);
    expect(definition).toEqual({ all: [{ field: 'list', op: 'is', value: 1 }], any: [{ field: 'language', op: 'is', value: 'de' }, { all: [{ field: 'status', op: 'is', value: 'subscribed' }], none: [{ field: 'language', op: 'is_set', value: null }] }] });
    // a condition taking no value goes with none, which the site reads as none
    expect(v.is(SegmentDefinition, definition)).toBe(true);
    expect(paths.get('definition.any.1')).toBe(tree.any[1]!.id);
    expect(paths.get('definition.any.1.none.0')).toBe((tree.any[1] as GroupNode).none[0]!.id);
  });

  test('edits answer a new tree and leave the old one as it was', () => {
    const root = emptyGroup();
    const a = addCondition(root, root.id, 'all', vocab);
    expect(root.all).toHaveLength(0);
    expect(a.tree.all).toHaveLength(1);
    expect(condition(a.tree, a.id)).toMatchObject({ field: 'list', op: 'is', value: null });
    const b = addCondition(a.tree, root.id, 'none', vocab, 'language');
    expect(condition(b.tree, b.id)).toMatchObject({ field: 'language', op: 'is', value: null });
    const valued = setValue(b.tree, a.id, 2);
    expect(condition(b.tree, a.id).value).toBeNull();
    expect(condition(valued, a.id).value).toBe(2);
    // an edit that changes nothing answers the same tree
    expect(setValue(valued, a.id, 2)).toBe(valued);
    // the untouched branch is shared
    expect(valued.none).toBe(b.tree.none);
  });

  test('a new field takes its first operator and clears the value; an operator of another input clears it, of the same keeps it', () => {
    const root = emptyGroup();
    const { tree, id } = addCondition(root, root.id, 'all', vocab);
    const joined = setField(setValue(tree, id, 1), id, 'subscribed_at', vocab);
    expect(condition(joined, id)).toMatchObject({ field: 'subscribed_at', op: 'before', value: null });
    const dated = setValue(joined, id, 1_700_000_000);
    expect(condition(setOperator(dated, id, 'after', vocab), id).value).toBe(1_700_000_000);
    expect(condition(setOperator(dated, id, 'within_days', vocab), id).value).toBeNull();
    const lang = setValue(setField(dated, id, 'language', vocab), id, 'de');
    expect(condition(setOperator(lang, id, 'is_set', vocab), id)).toMatchObject({ op: 'is_set', value: null });
    // a field the vocabulary does not have changes nothing
    expect(setField(lang, id, 'no_such_field', vocab)).toBe(lang);
  });

  test('groups: added with a condition inside, nested to the limit, refused on Mailroom with the reason before anyone tries', () => {
    const root = emptyGroup();
    const one = addGroup(root, root.id, 'any', vocab, 'mailer');
    expect(one.tree.any).toHaveLength(1);
    const g1 = one.tree.any[0] as GroupNode;
    expect(g1.kind).toBe('group');
    expect(g1.all.map((x) => x.id)).toEqual([one.id]);
    expect(depthOf(one.tree, g1.id)).toBe(2);

    const two = addGroup(one.tree, g1.id, 'all', vocab, 'mailer');
    const g2 = (two.tree.any[0] as GroupNode).all[1] as GroupNode;
    const three = addGroup(two.tree, g2.id, 'none', vocab, 'mailer');
    const g3 = ((three.tree.any[0] as GroupNode).all[1] as GroupNode).none[0] as GroupNode;
    expect(depthOf(three.tree, g3.id)).toBe(4);
    expect(groupBlockedReason(three.tree, g3.id, 'mailer')).toBe('Groups nest at most 4 deep.');
    expect(addGroup(three.tree, g3.id, 'all', vocab, 'mailer').tree).toBe(three.tree);
    // four levels are what the contract takes
    expect(asSegmentDefinition(toDefinition(three.tree).definition)).not.toBeNull();

    expect(groupBlockedReason(root, root.id, 'mailroom')).toMatch(/Mailroom takes conditions under all, any and none only/);
    expect(addGroup(root, root.id, 'all', vocab, 'mailroom').tree).toBe(root);
    expect(groupBlockedReason(root, root.id, 'mailer')).toBeNull();
  });

  test('at most 100 conditions: the 101st is refused with the reason', () => {
    let tree = emptyGroup();
    for (let i = 0; i < 100; i++) tree = addCondition(tree, tree.id, 'all', vocab).tree;
    expect(countConditions(tree)).toBe(100);
    const more = addCondition(tree, tree.id, 'all', vocab);
    expect(more.tree).toBe(tree);
    expect(groupBlockedReason(tree, tree.id, 'mailer')).toBe('A segment holds at most 100 conditions.');
  });

  test('remove takes a group with what it holds; move keeps within the container', () => {
    let tree = emptyGroup();
    const ids: string[] = [];
    for (const f of ['list', 'status', 'language']) {
      const r = addCondition(tree, tree.id, 'all', vocab, f);
      tree = r.tree;
      ids.push(r.id);
    }
    expect(tree.all.map((x) => (x as ConditionNode).field)).toEqual(['list', 'status', 'language']);
    const down = move(tree, ids[0]!, 1);
    expect(down.all.map((x) => (x as ConditionNode).field)).toEqual(['status', 'list', 'language']);
    expect(move(tree, ids[0]!, -1)).toBe(tree);
    expect(move(tree, ids[2]!, 1)).toBe(tree);
    const out = remove(tree, ids[1]!);
    expect(shape(out)).toEqual({ all: [['list', 'is', null], ['language', 'is', null]], any: [], none: [] });

    const g = addGroup(out, out.id, 'any', vocab, 'mailer');
    const inner = addCondition(g.tree, (g.tree.any[0] as GroupNode).id, 'all', vocab);
    expect(countConditions(inner.tree)).toBe(4);
    const gone = remove(inner.tree, (inner.tree.any[0] as GroupNode).id);
    expect(countConditions(gone)).toBe(2);
    expect(find(gone, inner.id)).toBeNull();
    expect(remove(gone, gone.id)).toBe(gone);
  });

  test('what is sent: incomplete conditions as they are (the preview counts them), empty groups left out, paths to the rows kept right', () => {
    let tree = emptyGroup();
    const a = addCondition(tree, tree.id, 'all', vocab);
    tree = setValue(a.tree, a.id, 1);
    const g = addGroup(tree, tree.id, 'any', vocab, 'mailer');
    // empty the new group: it is left out, and the next row takes its place in the paths
    tree = remove(g.tree, g.id);
    const b = addCondition(tree, tree.id, 'any', vocab, 'language');
    tree = b.tree;
    expect(incompleteCount(tree, vocab)).toBe(1);
    const { definition, paths } = toDefinition(tree, 'changes.definition');
    expect(definition).toEqual({ all: [{ field: 'list', op: 'is', value: 1 }], any: [{ field: 'language', op: 'is', value: null }] });
    expect(nodeAtPath(paths, 'changes.definition.any.0.value')).toBe(b.id);
    expect(nodeAtPath(paths, 'changes.definition.all.0')).toBe(a.id);
    expect(nodeAtPath(paths, 'changes.definition')).toBeNull();
    // a group that holds only an empty group is empty too, and left out with it
    const nest = addGroup(emptyGroup(), '', 'all', vocab, 'mailer');
    expect(nest.id).toBe(''); // no such group: nothing added
    const top = emptyGroup();
    const g1 = addGroup(top, top.id, 'all', vocab, 'mailer');
    const g1Id = (g1.tree.all[0] as GroupNode).id;
    const g2 = addGroup(g1.tree, g1Id, 'any', vocab, 'mailer');
    const hollow = remove(remove(g2.tree, g1.id), g2.id);
    expect(toDefinition(hollow).definition).toEqual({});
  });

  test('problems stop a save: values not filled in, empty groups, nothing at all', () => {
    const root = emptyGroup();
    expect(problems(root, vocab)).toEqual([{ id: root.id, message: 'Add at least one condition.' }]);
    const a = addCondition(root, root.id, 'all', vocab, 'subscribed_at');
    const g = addGroup(a.tree, root.id, 'none', vocab, 'mailer');
    const emptied = remove(g.tree, g.id);
    const group = g.tree.none[0] as GroupNode;
    expect(problems(emptied, vocab)).toEqual([
      { id: a.id, message: 'Choose a date.' },
      { id: group.id, message: 'This group has no condition: add one or remove the group.' },
    ]);
    const fixed = setValue(remove(emptied, group.id), a.id, dayToEpoch('2024-03-01'));
    expect(problems(fixed, vocab)).toEqual([]);
  });

  test('days and dates as the site takes them: UTC epoch seconds at the day’s start; whole days 0 to 36,500', () => {
    expect(dayToEpoch('2024-03-01')).toBe(Date.UTC(2024, 2, 1) / 1000);
    expect(dayToEpoch('2024-02-30')).toBeNull();
    expect(dayToEpoch('1969-12-31')).toBeNull();
    expect(dayToEpoch('')).toBeNull();
    expect(epochToDay(Date.UTC(2024, 2, 1) / 1000)).toBe('2024-03-01');
    expect(epochToDay(null)).toBe('');
    expect(daysFrom('90')).toBe(90);
    expect(daysFrom(' 7 ')).toBe(7);
    expect(daysFrom('1.5')).toBeNull();
    expect(daysFrom('-1')).toBeNull();
    expect(daysFrom('40000')).toBeNull();
  });

  test('conditions and definitions in words, with the vocabulary’s labels and options', () => {
    expect(describeCondition(vocab, { field: 'list', op: 'is', value: 2 })).toBe('On list is Events');
    expect(describeCondition(vocab, { field: 'list', op: 'is_not', value: null })).toBe('On list is not …');
    expect(describeCondition(vocab, { field: 'subscribed_at', op: 'within_days', value: 30 })).toBe('Joined is within the last 30 days');
    expect(describeCondition(vocab, { field: 'subscribed_at', op: 'before', value: Date.UTC(2024, 0, 5) / 1000 })).toBe('Joined is before 2024-01-05');
    expect(describeCondition(vocab, { field: 'language', op: 'is_set', value: null })).toBe('Language is set');
    expect(describeDefinition(vocab, { all: [{ field: 'list', op: 'is', value: 1 }], none: [{ any: [{ field: 'language', op: 'is', value: 'de' }] }] })).toBe('All of: On list is Newsletter; none of: (any of: Language is de)');
    expect(describeDefinition(vocab, {})).toBe('Everybody');
  });
});
