/** The time a mirror run has left (electron/mirror/eta.ts): by its throughput, or by the site's budget when that runs out first. */
import { expect, test } from 'vitest';
import { etaOf } from '../../electron/mirror/eta';

const grav = { requests: 120, perSeconds: 60, ratePerS: 2, available: 12, reserve: 12 };

test('bound by the site’s budget: the refill sets the time, and the card is told why', () => {
  // 240 reads left, nothing beyond the reserve in the bucket, 2 a second
  expect(etaOf({ requestsLeft: 240, perSecond: 2, pace: grav })).toEqual({ seconds: 120, siteLimit: { requests: 120, perSeconds: 60 } });
  // a full bucket goes first: 108 at once, the rest at 2 a second
  expect(etaOf({ requestsLeft: 240, perSecond: null, pace: { ...grav, available: 120 } })).toEqual({ seconds: 66, siteLimit: { requests: 120, perSeconds: 60 } });
});

test('bound by the site’s speed (or no budget known): the throughput sets the time, no reason given', () => {
  expect(etaOf({ requestsLeft: 5000, perSecond: 500, pace: null })).toEqual({ seconds: 10, siteLimit: null });
  // the budget covers what is left
  expect(etaOf({ requestsLeft: 50, perSecond: 25, pace: { ...grav, available: 100 } })).toEqual({ seconds: 2, siteLimit: null });
  expect(etaOf({ requestsLeft: 50, perSecond: null, pace: null })).toBeNull();
  expect(etaOf({ requestsLeft: 0, perSecond: null, pace: null })).toEqual({ seconds: 0, siteLimit: null });
});
