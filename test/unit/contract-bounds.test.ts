/**
 * Every input the renderer sends has bounds (review L5): text lengths, header depth and size,
 * list counts, upload sizes, and an upload's type cannot carry a line break into a multipart
 * header. A value inside the bounds passes; one past them is refused with the field named.
 */
import { describe, expect, test } from 'vitest';
import * as v from 'valibot';
import {
  DraftResolve,
  DraftSave,
  HEADER_LIMITS,
  MediaList,
  MediaUpload,
  MEDIA_CHUNK_BYTES,
  PAGE_LIMITS,
  PageBatch,
  PageCopyAsNew,
  PageCreate,
  PageMove,
  PageReorder,
  PageReorganize,
  PageTranslate,
  PetUpload,
  PET_IMAGE_MAX_BYTES,
  channels,
} from '../../electron/contract';
import { multipartFile } from '../../electron/api/multipart';

const siteId = '6f1c2b8e-1d2a-4c3b-9e4f-5a6b7c8d9e0f';
const siteId2 = '7f1c2b8e-1d2a-4c3b-9e4f-5a6b7c8d9e0f';
/** The input paths a refusal names ('' when it passed). */
const refusal = (schema: v.GenericSchema, input: unknown): string[] | '' => {
  const r = v.safeParse(schema, input);
  return r.success ? '' : r.issues.map((i) => v.getDotPath(i) ?? '(root)');
};
const chars = (n: number) => 'x'.repeat(n);
const deep = (levels: number) => {
  let o: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < levels; i++) o = { n: o };
  return o;
};
const base64 = (bytes: number) => 'A'.repeat(Math.ceil(bytes / 3) * 4);

describe('page text', () => {
  const draft = { siteId, route: '/a', title: 'T', content: '', header: {} };

  test('content, title and template are bounded in every input that carries them', () => {
    expect(refusal(DraftSave, { ...draft, content: chars(PAGE_LIMITS.content) })).toBe('');
    expect(refusal(DraftSave, { ...draft, content: chars(PAGE_LIMITS.content + 1) })).toEqual(['content']);
    expect(refusal(DraftResolve, { draftId: 1, title: chars(PAGE_LIMITS.title + 1), content: '', header: {} })).toEqual(['title']);
    expect(refusal(DraftResolve, { draftId: 1, title: 'T', content: chars(PAGE_LIMITS.content + 1), header: {} })).toEqual(['content']);
    expect(refusal(PageTranslate, { siteId, route: '/a', lang: 'de', title: chars(PAGE_LIMITS.title + 1) })).toEqual(['title']);
    expect(refusal(PageTranslate, { siteId, route: '/a', lang: 'de', content: chars(PAGE_LIMITS.content + 1) })).toEqual(['content']);
    expect(refusal(PageCreate, { siteId, route: '/a', title: 'T', content: chars(PAGE_LIMITS.content + 1) })).toEqual(['content']);
    expect(refusal(PageCopyAsNew, { ...draft, content: chars(PAGE_LIMITS.content + 1) })).toEqual(['content']);
    expect(refusal(DraftSave, { ...draft, template: chars(101) })).toEqual(['template']);
  });

  test('a template is a name per part: modular/text passes, .. does not', () => {
    expect(refusal(DraftSave, { ...draft, template: 'modular/text' })).toBe('');
    expect(refusal(DraftSave, { ...draft, template: '../x' })).toEqual(['template']);
    expect(refusal(DraftSave, { ...draft, template: '' })).toBe('');
    expect(refusal(channels['blueprints.page'].input, { siteId, template: 'a/../b' })).toEqual(['template']);
  });

  test('a header is bounded in depth, values and characters, and a very deep one is refused without overflowing', () => {
    expect(refusal(DraftSave, { ...draft, header: deep(HEADER_LIMITS.depth) })).toBe('');
    expect(refusal(DraftSave, { ...draft, header: deep(HEADER_LIMITS.depth + 1) })).toEqual(['header']);
    expect(refusal(DraftSave, { ...draft, header: JSON.parse('{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000)) })).toEqual(['header']);
    expect(refusal(DraftSave, { ...draft, header: { list: Array.from({ length: HEADER_LIMITS.values }, () => 1) } })).toEqual(['header']);
    expect(refusal(DraftSave, { ...draft, header: { text: chars(HEADER_LIMITS.chars + 1) } })).toEqual(['header']);
    expect(refusal(DraftSave, { ...draft, header: { when: new Date() } })).toEqual(['header']);
    expect(refusal(DraftSave, { ...draft, header: [] })).toEqual(['header']);
  });
});

describe('list counts', () => {
  test('reorder, batch, reorganize, site order and media filters are bounded', () => {
    const slugs = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);
    expect(refusal(PageReorder, { siteId, route: '/a', order: slugs(PAGE_LIMITS.list) })).toBe('');
    expect(refusal(PageReorder, { siteId, route: '/a', order: slugs(PAGE_LIMITS.list + 1) })).toEqual(['order']);
    expect(refusal(PageReorder, { siteId, route: '/a', order: ['..'] })).toEqual(['order.0']);
    expect(refusal(PageBatch, { siteId, operation: 'publish', routes: slugs(PAGE_LIMITS.list + 1).map((s) => `/${s}`) })).toEqual(['routes']);
    expect(refusal(PageReorganize, { siteId, operations: slugs(PAGE_LIMITS.list + 1).map((s) => ({ route: `/${s}` })) })).toEqual(['operations']);
    expect(refusal(channels['sites.reorder'].input, { ids: Array.from({ length: 1001 }, () => siteId) })).toEqual(['ids']);
    expect(refusal(channels['sites.reorder'].input, { ids: [siteId, siteId2] })).toBe('');
    expect(refusal(MediaList, { siteId, route: '/a', filter: [chars(501)] })).toEqual(['filter.0']);
    expect(refusal(PageMove, { siteId, route: '/a', parent: '/', slug: '..' })).toEqual(['slug']);
  });

  test('an email is at most 254 characters before its shape is checked', () => {
    const long = `${chars(250)}@example.com`;
    expect(refusal(channels['auth.forgotPassword'].input, { siteId, email: long })).toEqual(['email']);
    expect(refusal(channels['auth.forgotPassword'].input, { siteId, email: 'a@example.com' })).toBe('');
  });
});

describe('uploads', () => {
  const upload = { siteId, route: '/a', uploadId: 'u', filename: 'a.png', type: 'image/png' };
  const pet = { siteId, petId: 1, uploadId: 'u', filename: 'a.png', type: 'image/png' };

  test('inline bytes are bounded: a media file by the chunk size (larger files go in pieces), a pet image by its own limit', () => {
    expect(refusal(MediaUpload, { ...upload, data: base64(MEDIA_CHUNK_BYTES) })).toBe('');
    expect(refusal(MediaUpload, { ...upload, data: base64(MEDIA_CHUNK_BYTES + 3) })).toEqual(['data']);
    expect(refusal(PetUpload, { ...pet, data: base64(PET_IMAGE_MAX_BYTES) })).toBe('');
    expect(refusal(PetUpload, { ...pet, data: base64(PET_IMAGE_MAX_BYTES + 3) })).toEqual(['data']);
  });

  test('an upload’s type carries no line break or control character, at the contract and in the multipart body', () => {
    expect(refusal(MediaUpload, { ...upload, type: 'image/png\r\nX-Evil: 1' })).toEqual(['type']);
    expect(refusal(PetUpload, { ...pet, data: 'AA==', type: 'image/png\nX' })).toEqual(['type']);
    expect(refusal(MediaUpload, { ...upload, type: 'image/svg+xml; charset=utf-8' })).toBe('');
    expect(() => multipartFile('file', { name: 'a.png', type: 'image/png\r\nX-Evil: 1', bytes: new Uint8Array(1) })).toThrow();
  });
});
