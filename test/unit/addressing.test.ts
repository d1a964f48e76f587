/**
 * Pages the API cannot read by their route: a page whose slug is one of the API's GET
 * sub-resources of its parent (GET /pages/docs/media is the media list of /docs), and which
 * errors mean that rather than the site being away or refusing.
 */
import { describe, expect, test } from 'vitest';
import { shadowed, unaddressable } from '../../electron/api/cms/addressing';

describe('pages the API cannot address', () => {
  test('a child named media, languages or compare is shadowed by its parent’s sub-resource', () => {
    expect(unaddressable('/docs/media')).toBe('The site’s API cannot read /docs/media: its address is also that of the media list of /docs.');
    expect(unaddressable('/a/b/languages')).toContain('list of languages of /a/b');
    expect(unaddressable('/blog/compare')).toContain('comparison of translations of /blog');
  });

  test('a top-level page, other slugs and POST-only sub-resources are read as pages', () => {
    expect(unaddressable('/media')).toBeNull();
    expect(unaddressable('/docs/images')).toBeNull();
    expect(unaddressable('/blog/translate')).toBeNull(); // POST /pages/{route}/translate: a GET reads the page
    expect(unaddressable('/docs/media-kit')).toBeNull();
  });

  test('only answers that are not about the site being away, the account or the server say so', () => {
    expect(shadowed('/docs/media', { code: 'bad_response' })).toContain('cannot read /docs/media');
    expect(shadowed('/docs/compare', { code: 'invalid_input', info: { status: 422 } })).toContain('cannot read');
    expect(shadowed('/docs/media', { code: 'not_found', info: { status: 404 } })).toContain('cannot read');
    for (const code of ['network', 'timeout', 'unauthorized', 'forbidden', 'rate_limited'] as const) expect(shadowed('/docs/media', { code })).toBeNull();
    expect(shadowed('/docs/media', { code: 'http', info: { status: 503 } })).toBeNull();
    expect(shadowed('/docs/guide', { code: 'bad_response' })).toBeNull();
  });
});
