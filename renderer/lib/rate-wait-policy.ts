/**
 * Which of a person's failed calls wait for the site's rate limit and go out again
 * (rate-wait.svelte.ts counts the wait down): only the work in a site's areas, with a site, a few
 * times, and only waits a person sits out. Pure, so it is tested without a renderer.
 */
import type { ChannelName } from '../../electron/contract/index';
import { channelEffects } from '../../electron/contract/effects';

/** Channels whose `rate_limited` answers wait and go out again. */
const HELD: readonly string[] = ['pages.', 'blueprints.', 'translations.', 'media.'];
/** Areas whose reads wait too (what the area shows); their writes say the wait in their own form. */
const HELD_READS: readonly string[] = ['mailer.'];

const isHeld = (channel: string): boolean =>
  HELD.some((p) => channel.startsWith(p)) ||
  (HELD_READS.some((p) => channel.startsWith(p)) && (channelEffects as Record<string, string>)[channel] === 'read');
/** Tries of one request at most (the first and four more after waits). */
export const MAX_TRIES = 5;
/** A longer wait is not sat out: the view says the site's "Try again in …" instead. */
export const MAX_WAIT_S = 120;
/** When the site named no time: the Host has already waited for the headers' estimate. */
export const UNKNOWN_WAIT_S = 5;

/**
 * The site whose rate limit a failed call may wait for, or null when it must fail now: only the
 * held channels, with a site, while tries are left and the wait is one a person sits out.
 */
export function heldSite(channel: ChannelName | string, input: unknown, retryAfter: number | undefined, tries: number): string | null {
  if (tries >= MAX_TRIES || !isHeld(channel)) return null;
  if ((retryAfter ?? UNKNOWN_WAIT_S) > MAX_WAIT_S) return null;
  const siteId = typeof input === 'object' && input !== null ? (input as { siteId?: unknown }).siteId : undefined;
  return typeof siteId === 'string' ? siteId : null;
}

