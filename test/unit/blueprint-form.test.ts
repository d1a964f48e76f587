/**
 * The blueprint form engine's pure parts (renderer/views/blueprint-form) over the blueprints a real
 * Grav sends (recorded: users, permissions, system configuration, a plugin, a theme, a page): the
 * tree it shows, the control each field gets, and the blueprint's own rules.
 */
import { describe, expect, test } from 'vitest';
import type { BlueprintField } from '../../electron/contract';
import { blueprintFields } from '../../electron/api/cms/blueprints';
import { fieldKind } from '../../renderer/components/blueprint-form/field-kind';
import { fieldsOf, formTree, unresolvedOptions, withResolvedOptions, type FormNode } from '../../renderer/components/blueprint-form/form-tree';
import { checkField, checkForm } from '../../renderer/components/blueprint-form/form-validate';
import { valueAt, withValue } from '../../renderer/components/blueprint-form/form-values';
import { recordedData, transport } from './support/recorded-replies';

const { t } = transport(() => undefined);
const fieldsOfRecording = (name: string) => blueprintFields(recordedData<{ fields: unknown }>(name).fields, t, 'a blueprint', 'test');

const f = (over: Partial<BlueprintField> & Pick<BlueprintField, 'type'>): BlueprintField => ({ name: 'x', ...over });

describe('the tree a real blueprint makes', () => {
  test("the system configuration: Grav's side tabs become tabs, its field-less sections head the fields after them", () => {
    const tree = formTree(fieldsOfRecording('34-blueprint-config-system'));
    expect(tree).toHaveLength(1);
    const tabs = tree[0] as Extract<FormNode, { kind: 'tabs' }>;
    expect(tabs.kind).toBe('tabs');
    expect(tabs.tabs.map((x) => x.title)).toContain('Content');
    const content = tabs.tabs.find((x) => x.title === 'Content')!;
    const first = content.nodes[0] as Extract<FormNode, { kind: 'section' }>;
    expect(first).toMatchObject({ kind: 'section', title: 'Content' });
    expect(first.nodes[0]).toMatchObject({ kind: 'field', path: ['home', 'alias'] });
    const all = fieldsOf(tree);
    expect(all.length).toBeGreaterThan(100);
    // every field keeps its full dotted name as its path, nothing outside a tab is lost
    for (const n of all) expect(n.path.join('.')).toBe(n.field.name);
  });

  test('every recorded blueprint gives a form with fields, and no hidden or spacer field', () => {
    for (const name of ['32-blueprint-users', '34-blueprint-config-system', '35-blueprint-plugin-api', '36-blueprint-theme-quark2']) {
      const all = fieldsOf(formTree(fieldsOfRecording(name)));
      expect(all.length, name).toBeGreaterThan(0);
      expect(all.filter((n) => ['hidden', 'spacer', 'display', 'section', 'tab', 'tabs'].includes(n.field.type)), name).toEqual([]);
    }
  });

  test('a page blueprint under the header root: only header fields, minus those shown elsewhere', () => {
    const tree = formTree(fieldsOfRecording('22-blueprint-pages-default'), { root: 'header.', skip: new Set(['header.title']) });
    const names = fieldsOf(tree).map((n) => n.field.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.startsWith('header.'))).toBe(true);
    expect(names).not.toContain('header.title');
    expect(fieldsOf(tree)[0]!.path[0]).not.toBe('header');
  });

  test('every field of the recorded blueprints gets a control or YAML; the types Grav uses map as expected', () => {
    const all = ['22-blueprint-pages-default', '32-blueprint-users', '34-blueprint-config-system', '35-blueprint-plugin-api', '36-blueprint-theme-quark2'].flatMap((n) =>
      fieldsOf(formTree(fieldsOfRecording(n))).map((x) => x.field),
    );
    const byType = new Map(all.map((x) => [x.type, fieldKind(x, undefined, x.default)]));
    expect(byType.get('toggle')).toBe('toggle');
    expect(byType.get('text')).toBe('text');
    expect(byType.get('email')).toBe('email');
    expect(byType.get('number')).toBe('number');
    expect(byType.get('colorpicker')).toBe('color');
    expect(byType.get('selectize')).toBe('list');
    // an unknown type is plain text while its value is, and YAML when it is not
    expect(fieldKind(f({ type: 'cron' }), '* * * * *')).toBe('text');
    expect(fieldKind(f({ type: 'cron' }), { a: 1 })).toBe('yaml');
  });
});

describe('options the site resolves', () => {
  test("the real system blueprint's time zone names its callable; resolved options follow the blueprint's own", () => {
    const fields = fieldsOfRecording('34-blueprint-config-system');
    const callables = unresolvedOptions(fields);
    expect(callables).toContain('\\Grav\\Common\\Utils::timezones');
    const resolved = new Map([['\\Grav\\Common\\Utils::timezones', [{ value: 'Europe/Berlin', label: 'Europe/Berlin' }, { value: '', label: 'dup' }]]]);
    const zone = fieldsOf(formTree(withResolvedOptions(fields, resolved))).find((n) => n.field.name === 'timezone')!.field;
    expect(zone.options).toEqual([{ value: '', label: 'Default (Server Timezone)' }, { value: 'Europe/Berlin', label: 'Europe/Berlin' }]);
    expect(fieldKind(zone, 'Europe/Berlin')).toBe('select');
    // a callable that did not resolve leaves the field as it was
    const same = fieldsOf(formTree(withResolvedOptions(fields, new Map()))).find((n) => n.field.name === 'timezone')!.field;
    expect(same.options).toEqual([{ value: '', label: 'Default (Server Timezone)' }]);
  });
});

describe('the control per value', () => {
  test('a value the control cannot show faithfully is YAML, never dropped', () => {
    expect(fieldKind(f({ type: 'text' }), ['a', 'b'])).toBe('yaml');
    expect(fieldKind(f({ type: 'toggle' }), { on: true })).toBe('yaml');
    expect(fieldKind(f({ type: 'list' }), [{ a: 1 }])).toBe('yaml');
    expect(fieldKind(f({ type: 'number' }), 'twelve')).toBe('yaml');
    expect(fieldKind(f({ type: 'email' }), true)).toBe('yaml');
    expect(fieldKind(f({ type: 'date' }), 'next week')).toBe('text');
  });

  test('a list or map the site holds as null is an empty control, not the YAML word null', () => {
    expect(fieldKind(f({ type: 'array' }), null)).toBe('map');
    expect(fieldKind(f({ type: 'list' }), null)).toBe('list');
    expect(fieldKind(f({ type: 'text' }), null)).toBe('text');
    // a list of records (fields of its own) stays YAML: tags would write strings where records go
    expect(fieldKind(f({ type: 'list', fields: [{ name: '.from', type: 'text' }] }), null)).toBe('yaml');
  });

  test("an array whose default is a list is a list (Grav's value_only arrays), one without is a key–value map", () => {
    expect(fieldKind(f({ type: 'array' }), undefined, ['html', 'htm'])).toBe('list');
    expect(fieldKind(f({ type: 'array' }), undefined)).toBe('map');
    expect(fieldKind(f({ type: 'array' }), { a: '1' })).toBe('map');
  });

  test("a toggle between two values that are not on/off (Grav's order direction asc/desc) is a select, so true is never written over them", () => {
    expect(fieldKind(f({ type: 'toggle', options: [{ value: 'asc', label: 'Ascending' }, { value: 'desc', label: 'Descending' }] }), 'asc')).toBe('select');
    expect(fieldKind(f({ type: 'toggle', options: [{ value: '1', label: 'Yes' }, { value: '0', label: 'No' }] }), false)).toBe('toggle');
    expect(fieldKind(f({ type: 'toggle' }), undefined)).toBe('toggle');
  });

  test('a select waits for its options: text until the site resolves them', () => {
    expect(fieldKind(f({ type: 'select' }), 'Europe/Berlin')).toBe('text');
    expect(fieldKind(f({ type: 'select', options: [{ value: 'a', label: 'A' }] }), 'a')).toBe('select');
  });
});

describe("the blueprint's rules", () => {
  test('required, numbers, lengths, e-mail, web address, pattern, and the blueprint’s own message', () => {
    expect(checkField(f({ type: 'text', label: 'Name', validate: { required: true } }), '')).toBe('Name is required.');
    expect(checkField(f({ type: 'text', label: 'Name' }), '')).toBeNull();
    expect(checkField(f({ type: 'int', label: 'Port', validate: { min: 1, max: 65535 } }), 0)).toBe('Port must be at least 1.');
    expect(checkField(f({ type: 'int', label: 'Port' }), '8.5')).toBe('Port must be a whole number.');
    expect(checkField(f({ type: 'number', label: 'Ratio' }), '0.5')).toBeNull();
    expect(checkField(f({ type: 'text', label: 'Code', validate: { min: 3 } }), 'ab')).toBe('Code needs at least 3 characters.');
    expect(checkField(f({ type: 'text', label: 'Code', validate: { max: 3 } }), 'äöüß')).toBe('Code takes at most 3 characters.');
    expect(checkField(f({ type: 'email', label: 'E-mail' }), 'nobody')).toBe('E-mail must be an e-mail address.');
    expect(checkField(f({ type: 'text', label: 'Site', validate: { type: 'url' } }), 'javascript:alert(1)')).toBe('Site must be a web address (http or https).');
    expect(checkField(f({ type: 'text', label: 'Slug', validate: { pattern: '[a-z]+' } }), 'abc1')).toBe('Slug is not in the expected form.');
    expect(checkField(f({ type: 'text', label: 'Slug', validate: { pattern: '[a-z]+' } }), 'abc')).toBeNull();
    expect(checkField(f({ type: 'text', validate: { pattern: '(' } }), 'x')).toBeNull(); // not ours to judge
    expect(checkField(f({ type: 'text', validate: { required: true, message: 'Say who you are.' } }), '')).toBe('Say who you are.');
    // Grav's untranslated key (PLUGIN_ADMIN.EMAIL_VALIDATION_MESSAGE) says nothing: our words instead
    expect(checkField(f({ type: 'email', label: 'Email', validate: { required: true, message: 'PLUGIN_ADMIN.EMAIL_VALIDATION_MESSAGE' } }), '')).toBe('Email is required.');
    expect(checkField(f({ type: 'list', label: 'Tags', validate: { max: 1 } }), ['a', 'b'])).toBe('Tags takes at most 1 entry.');
  });

  test('the whole form: errors by full name, an unset field judged by its default', () => {
    const fields: BlueprintField[] = [
      { name: 'header.a', type: 'text', label: 'A', validate: { required: true } },
      { name: 'header.b', type: 'text', label: 'B', validate: { required: true }, default: 'set' },
      { name: 'header.c.d', type: 'int', label: 'D' },
    ];
    const tree = formTree(fields, { root: 'header.' });
    expect(checkForm(tree, { c: { d: 'x' } })).toEqual({ 'header.a': 'A is required.', 'header.c.d': 'D must be a number.' });
  });
});

describe('values at paths', () => {
  test('written and read as own fields; removing the last key removes its empty parents', () => {
    const v = withValue({}, ['constructor', 'name'], 'x');
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(valueAt(v, ['constructor', 'name'])).toBe('x');
    expect(withValue(v, ['constructor', 'name'], undefined)).toEqual({});
    expect(valueAt({}, ['toString'])).toBeUndefined();
  });
});
