/**
 * A page header's keys are the site's data (review M4): a key holding a dot (`og.title`) is one
 * key, addressed by a path of keys and never by a dotted string, and the keys `__proto__`,
 * `constructor` and `prototype` are carried as plain fields that never reach an object's prototype:
 * in the shared merge, its resolution in the merge view, the header patch, the editor's header form
 * and the contract's header inputs.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { flushSync } from 'svelte';
import * as v from 'valibot';
import { fieldKey, mergeHeader, resolveHeader, same as sameValue } from '../../electron/common/merge';
import { DraftSave, headerPatch, type DraftDetail } from '../../electron/contract/index';
import { resolvedHeader } from '../../renderer/views/sync/resolution';
import { MergeSession } from '../../renderer/views/sync/merge-session.svelte';
import { getAt, setAt } from '../../renderer/views/editor/header-form';
import { cmsPages } from '../../electron/api/cms/pages';
import { transport } from './support/recorded-replies';
import { languageCounts } from '../../renderer/views/translations/matrix';

/** As the site sends it: JSON.parse keeps `__proto__` as an own key. */
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

afterEach(() => {
  // nothing here may ever leak onto every object
  expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('isAdmin');
});

describe('a key with a dot is one key', () => {
  const base = { 'og.title': 'a', og: { title: 'x' } };
  const mine = { 'og.title': 'b', og: { title: 'x' } };
  const theirs = { 'og.title': 'c', og: { title: 'x' } };
  const m = mergeHeader(base, mine, theirs);

  test('its conflict carries the key as a path of one', () => {
    expect(m.conflicts).toEqual([{ path: ['og.title'], base: 'a', mine: 'b', theirs: 'c' }]);
  });

  test('resolved as theirs, in the Host and in the merge view, it changes that key and nothing else', () => {
    const choices = { [fieldKey(['og.title'])]: 'theirs' } as const;
    expect(resolveHeader(m, choices)).toEqual({ 'og.title': 'c', og: { title: 'x' } });
    expect(resolvedHeader(m.merged, m.conflicts, choices)).toEqual({ 'og.title': 'c', og: { title: 'x' } });
  });

  test('a nested key and a dotted key of the same text are different fields', () => {
    const n = mergeHeader({ og: { title: 'x' } }, { og: { title: 'y' } }, { og: { title: 'z' } });
    expect(n.conflicts.map((c) => c.path)).toEqual([['og', 'title']]);
    expect(fieldKey(['og', 'title'])).not.toBe(fieldKey(['og.title']));
    expect(resolveHeader(n, { [fieldKey(['og', 'title'])]: 'theirs' })).toEqual({ og: { title: 'z' } });
  });

  test('an undone clean change of a dotted key puts back that key', () => {
    const c = mergeHeader({ 'a.b': 1 }, { 'a.b': 1 }, { 'a.b': 2 });
    expect(c.changes).toEqual([{ path: ['a.b'], side: 'theirs', base: 1, value: 2 }]);
    expect(resolveHeader(c, {}, new Set([fieldKey(['a.b'])]))).toEqual({ 'a.b': 1 });
  });
});

describe('__proto__, constructor and prototype are data', () => {
  test('a conflict under __proto__ resolved as theirs is a field of the header, not of every object (the review’s repro)', () => {
    const m = mergeHeader(json('{}'), json('{"__proto__":{"isAdmin":false}}'), json('{"__proto__":{"isAdmin":true}}'));
    expect(m.conflicts.map((c) => c.path)).toEqual([['__proto__', 'isAdmin']]);
    const choices = { [fieldKey(['__proto__', 'isAdmin'])]: 'theirs' } as const;
    for (const out of [resolveHeader(m, choices), resolvedHeader(m.merged, m.conflicts, choices)]) {
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      expect(Object.keys(out)).toEqual(['__proto__']);
      expect(JSON.stringify(out)).toBe('{"__proto__":{"isAdmin":true}}');
    }
  });

  test('a key called constructor that only the site added is a change from the site with no base', () => {
    const m = mergeHeader({}, {}, { constructor: 'x', prototype: 'y' });
    expect(m.conflicts).toEqual([]);
    expect(m.changes).toEqual([
      { path: ['constructor'], side: 'theirs', base: undefined, value: 'x' },
      { path: ['prototype'], side: 'theirs', base: undefined, value: 'y' },
    ]);
    expect(Object.keys(m.merged)).toEqual(['constructor', 'prototype']);
    expect(m.merged.constructor).toBe('x');
  });

  test('the merge view resolves a __proto__ field by its path and sends it as data', () => {
    const detail: DraftDetail = {
      id: 1,
      siteId: 's',
      route: '/a',
      lang: '',
      state: 'conflicted',
      title: 'T',
      problem: null,
      updatedAt: '2026-01-01T00:00:00Z',
      base: { title: 'T', header: {}, content: '' },
      mine: { title: 'T', header: json('{"__proto__":{"isAdmin":false}}'), content: '' },
      theirs: { title: 'T', header: json('{"__proto__":{"isAdmin":true}}'), content: '' },
      merge: {
        text: { clean: true, eol: '\n', text: '', hunks: [] },
        header: mergeHeader(json('{"title":"T"}'), json('{"title":"T","__proto__":{"isAdmin":false}}'), json('{"title":"T","__proto__":{"isAdmin":true}}')),
      },
    };
    const s = new MergeSession(1);
    s.reset(detail);
    flushSync();
    s.chooseField(['__proto__', 'isAdmin'], 'theirs');
    const header = s.resolution()!.header;
    expect(Object.getPrototypeOf(header)).toBe(Object.prototype);
    expect(JSON.stringify(header)).toBe('{"__proto__":{"isAdmin":true}}');
  });

  test('the header patch sends a removed constructor or __proto__ key as null', () => {
    const patch = headerPatch(json('{"constructor":"x","__proto__":{"a":1},"keep":1}'), { keep: 2 });
    expect(Object.getPrototypeOf(patch)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(patch))).toEqual(json('{"keep":2,"constructor":null,"__proto__":null}'));
  });

  test('the editor’s header form reads and writes such keys as fields', () => {
    const header = json('{"title":"T"}');
    expect(getAt(header, ['constructor'])).toBeUndefined();
    expect(getAt(header, ['__proto__'])).toBeUndefined();
    const set = setAt(header, ['__proto__', 'isAdmin'], true);
    expect(Object.getPrototypeOf(set)).toBe(Object.prototype);
    expect(JSON.stringify(set)).toBe('{"title":"T","__proto__":{"isAdmin":true}}');
    expect(getAt(set, ['__proto__', 'isAdmin'])).toBe(true);
    expect(sameValue({}, { constructor: 1 })).toBe(false);
    expect(sameValue({ constructor: 1 }, {})).toBe(false);
  });

  test('the contract carries them through a header input', () => {
    const input = { siteId: '6f1c2b8e-1d2a-4c3b-9e4f-5a6b7c8d9e0f', route: '/a', title: 'T', content: '', header: json('{"__proto__":{"isAdmin":true},"constructor":"c"}') };
    const out = v.parse(DraftSave, input);
    expect(JSON.stringify(out.header)).toBe('{"__proto__":{"isAdmin":true},"constructor":"c"}');
  });
});

describe('read from a site', () => {
  test('a page whose header holds __proto__ and constructor keys is read with them as fields', async () => {
    const body = '{"data":{"route":"/a","slug":"a","title":"A","content":"","header":{"__proto__":{"isAdmin":true},"constructor":"c","og.title":"t"}}}';
    const { t } = transport(() => ({ status: 200, text: body, headers: { 'content-type': 'application/json', etag: '"1"' } }));
    const page = await cmsPages.get(t, '/a');
    expect(Object.getPrototypeOf(page.header)).toBe(Object.prototype);
    expect(JSON.stringify(page.header)).toBe('{"__proto__":{"isAdmin":true},"constructor":"c","og.title":"t"}');
  });

  test('language codes from a site are counted as fields, whatever they read', () => {
    const counts = languageCounts([], ['__proto__', 'constructor', 'en']);
    expect(Object.keys(counts)).toEqual(['__proto__', 'constructor', 'en']);
    expect(Object.getPrototypeOf(counts)).toBe(Object.prototype);
  });
});
