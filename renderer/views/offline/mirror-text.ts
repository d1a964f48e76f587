/**
 * A mirror run in words for the Offline copy card: where it is, what it did, the time it has left
 * and, when the site's rate limit is what bounds it, what the site allows. Pure, so it is tested
 * without a renderer.
 */
import type { MirrorProgress } from '../../../electron/contract/index';

/** "1,234" in the user's locale. */
export const count = (n: number) => n.toLocaleString();

/** One line for where a run is: "Reading pages: 1,200 of 10,000". */
export function progressText(p: MirrorProgress): string {
  const of = p.listed ? ` of ${count(p.total)}` : p.total ? ` of ${count(p.total)} so far` : '';
  switch (p.phase) {
    case 'listing':
      return `Listing the site’s pages${p.total ? `: ${count(p.total)} found` : '…'}`;
    case 'reading':
      return `Copying pages: ${count(p.done + p.failed + p.unreadable)}${of}`;
    case 'cleaning':
      return 'Removing pages the site no longer has…';
    case 'done':
      return `${count(p.done)}${of} pages copied`;
  }
}

/** "120 requests a minute", "30 requests every 10 s": what the site's rate limit allows. */
export function allowanceText(a: { requests: number; perSeconds: number }): string {
  const what = `${count(a.requests)} ${a.requests === 1 ? 'request' : 'requests'}`;
  const s = a.perSeconds;
  if (s === 1) return `${what} a second`;
  if (s === 60) return `${what} a minute`;
  if (s === 3600) return `${what} an hour`;
  if (s % 3600 === 0) return `${what} every ${s / 3600} hours`;
  if (s % 60 === 0) return `${what} every ${s / 60} minutes`;
  return `${what} every ${count(s)} s`;
}

/** "about 2 min left", "about 1 h 20 min left", "a few seconds left". */
export function timeLeftText(seconds: number): string {
  if (seconds < 10) return 'a few seconds left';
  if (seconds < 60) return `about ${Math.max(10, Math.round(seconds / 10) * 10)} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} min left`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `about ${h} h${m ? ` ${m} min` : ''} left`;
}

/**
 * The time a running copy has left, and why when the site's rate limit is what bounds it:
 * "about 2 min left — the site allows 120 requests a minute". Null when not known (yet).
 */
export function etaText(p: MirrorProgress): string | null {
  if (p.state !== 'running' || !p.eta) return null;
  const left = timeLeftText(p.eta.seconds);
  return p.eta.siteLimit ? `${left} — the site allows ${allowanceText(p.eta.siteLimit)}` : left;
}

/**
 * The counts after a run, in words: "9,990 unchanged · 10 read anew · 2 failed · 1 the site’s API
 * cannot read · 3 removed". A page the API cannot read is not a failure, and is not called one.
 */
export function countsText(p: MirrorProgress): string {
  const parts = [`${count(p.unchanged)} unchanged`, `${count(p.fetched)} read anew`];
  if (p.failed) parts.push(`${count(p.failed)} failed`);
  if (p.unreadable) parts.push(`${count(p.unreadable)} the site’s API cannot read`);
  if (p.removed) parts.push(`${count(p.removed)} removed`);
  return parts.join(' · ');
}
