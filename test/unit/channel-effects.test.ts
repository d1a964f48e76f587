/**
 * Every channel of the contract says what it does (contract/effects.ts), and nothing else is
 * classified: the compiler enforces it, this holds it at run time too (a channel added by a spread
 * the types do not see, a stale name). The site writes are what the fault matrix takes as rows.
 */
import { describe, expect, test } from 'vitest';
import { channels } from '../../electron/contract';
import { channelEffects, siteWrites } from '../../electron/contract/effects';

describe('channel effects', () => {
  test('every channel is classified, and only channels are', () => {
    expect(Object.keys(channelEffects).sort()).toEqual(Object.keys(channels).sort());
    for (const effect of Object.values(channelEffects)) expect(['read', 'local', 'session', 'site-write']).toContain(effect);
  });

  test('the site writes include every write the issue names', () => {
    for (const c of [
      'drafts.submit', 'pages.create', 'pages.move', 'pages.copy', 'pages.delete', 'translations.translate', 'translations.adopt', 'sync.push',
      'pages.batch', 'pages.reorganize', 'media.upload', 'media.delete', 'store.pets.create', 'store.pets.update', 'store.pets.delete',
      'store.pets.uploadImage', 'store.orders.place', 'store.orders.delete', 'store.users.create', 'store.users.update', 'store.users.delete',
    ]) expect(siteWrites).toContain(c);
    // saving a draft alone sends nothing; signing in changes no content
    expect(channelEffects['drafts.save']).toBe('local');
    expect(channelEffects['auth.signIn']).toBe('session');
  });
});
