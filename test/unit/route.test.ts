/** Route arithmetic shared by the Host and the renderer (electron/common/route.ts). */
import { describe, expect, test } from 'vitest';
import { inSubtree, joinRoute, normaliseRoute, parentOf, ROOT, slugify, slugOf, topmost, withSlash } from '../../electron/common/route';

describe('route arithmetic', () => {
  test('parent: one level up, the top level under the root', () => {
    expect(parentOf('/a/b/c')).toBe('/a/b');
    expect(parentOf('/a')).toBe(ROOT);
    expect(parentOf('/')).toBe(ROOT);
  });

  test('slug: the last segment; the root has none; a trailing slash is ignored', () => {
    expect(slugOf('/blog/my-post')).toBe('my-post');
    expect(slugOf('/blog')).toBe('blog');
    expect(slugOf('/')).toBe('');
    expect(slugOf('/blog/')).toBe('blog');
  });

  test('join: below the root without a double slash', () => {
    expect(joinRoute('/', 'a')).toBe('/a');
    expect(joinRoute('/a', 'b')).toBe('/a/b');
    expect(joinRoute(parentOf('/a/b'), slugOf('/a/b'))).toBe('/a/b');
  });

  test('subtree: itself and below, never a sibling sharing a prefix', () => {
    expect(inSubtree('/a', '/a')).toBe(true);
    expect(inSubtree('/a/b', '/a')).toBe(true);
    expect(inSubtree('/ab', '/a')).toBe(false);
    expect(inSubtree('/anything', ROOT)).toBe(true);
  });

  test('topmost: drops what lies below another route of the list, and repeats', () => {
    expect(topmost(['/a/b', '/a', '/c', '/a/b/c', '/c', '/ab'])).toEqual(['/a', '/c', '/ab']);
  });

  test('slugify: lower case ASCII with dashes, at most 80 characters', () => {
    expect(slugify('  Über die Straße! ')).toBe('uber-die-strasse');
    expect(slugify('Crème brûlée & Co.')).toBe('creme-brulee-co');
    expect(slugify('x'.repeat(100))).toHaveLength(80);
    expect(slugify('!!!')).toBe('');
  });

  test('normalise what a person typed', () => {
    expect(normaliseRoute(' blog/ ')).toBe('/blog');
    expect(normaliseRoute('/blog//')).toBe('/blog');
    expect(normaliseRoute('')).toBe(ROOT);
    expect(normaliseRoute('/')).toBe(ROOT);
    expect(withSlash('a/b')).toBe('/a/b');
    expect(withSlash('/a')).toBe('/a');
  });
});
