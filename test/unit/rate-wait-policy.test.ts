/** Which of a person's calls wait for a site's rate limit and go out again (renderer/lib/rate-wait-policy.ts). */
import { describe, expect, test } from 'vitest';
import { heldSite, MAX_TRIES, MAX_WAIT_S } from '../../renderer/lib/rate-wait-policy';

describe('held calls', () => {
  test('the work in a site’s areas waits: pages, blueprints, translations, media', () => {
    for (const channel of ['pages.get', 'pages.level', 'blueprints.page', 'translations.matrix', 'media.list', 'pages.move']) {
      expect(heldSite(channel, { siteId: 's1', route: '/a' }, 6, 1)).toBe('s1');
    }
  });

  test('the Mailer’s reads wait (its table, counts, lists, a person’s page); its writes fail at once, for their form to say', () => {
    for (const channel of ['mailer.subscribers', 'mailer.count', 'mailer.lists', 'mailer.subscriber', 'mailer.previewSegment', 'mailer.suppressions']) {
      expect(heldSite(channel, { siteId: 's1' }, 6, 1)).toBe('s1');
    }
    for (const channel of ['mailer.add', 'mailer.bulk', 'mailer.erase', 'mailer.createTag', 'mailer.setOffline']) {
      expect(heldSite(channel, { siteId: 's1' }, 6, 1)).toBeNull();
    }
  });

  test('sign-in, the store, sync and calls without a site fail at once (they have their own waits)', () => {
    for (const channel of ['auth.signIn', 'auth.refreshMe', 'store.pets.list', 'sync.push', 'mirror.start']) {
      expect(heldSite(channel, { siteId: 's1' }, 6, 1)).toBeNull();
    }
    expect(heldSite('media.uploadChunk', { uploadId: 'u', offset: 0 }, 6, 1)).toBeNull();
  });

  test('a few tries, and only waits a person sits out; a wait the site did not name counts as a short one', () => {
    expect(heldSite('pages.get', { siteId: 's1' }, 6, MAX_TRIES - 1)).toBe('s1');
    expect(heldSite('pages.get', { siteId: 's1' }, 6, MAX_TRIES)).toBeNull();
    expect(heldSite('pages.get', { siteId: 's1' }, MAX_WAIT_S, 1)).toBe('s1');
    expect(heldSite('pages.get', { siteId: 's1' }, MAX_WAIT_S + 1, 1)).toBeNull();
    expect(heldSite('pages.get', { siteId: 's1' }, undefined, 1)).toBe('s1');
  });
});
