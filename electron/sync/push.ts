/**
 * Replays one site's outbox against the site. Every step is its own transaction and every item is
 * marked `sending` before its request leaves, so a crash at any instant leaves each change either
 * confirmed (gone from the outbox) or still queued — and a "may have arrived" item is checked on
 * the server before it is sent again.
 */
import { headerPatch, type Page } from '../contract';
import { isAppError } from '../base/app-error';
import { cmsPages } from '../api/cms/pages';
import type { Transport } from '../api/transport';
import type { PagesRepo } from '../db/repos/pages';
import type { Draft, Mine, OutboxItem, PageText, SyncRepo } from '../db/repos/sync';
import { headerWithTitle, mergeClean, same } from '../common/merge';
import { failedAttempt, replayOrder } from './order';

export interface PushSummary {
  pushed: number;
  conflicted: number;
  rejected: number;
  /** Still queued (offline, backing off, or waiting behind a conflict). */
  remaining: number;
  /** Set when the push stopped early: the site is unreachable or the session ended. */
  stopped?: { reason: 'offline' | 'signed_out'; message: string };
}

export interface PushDeps {
  transport: Transport;
  repo: SyncRepo;
  cache: PagesRepo;
  now?: () => number;
  /** Push only the changes of this route and the creates of the pages above it. */
  only?: string;
  /** A person asked for this push: items backing off after a failure are tried now. */
  asked?: boolean;
}

type Outcome = 'done' | 'conflicted' | 'rejected';

const textOf = (p: Page): PageText => ({ title: p.title, header: p.header, content: p.content });
/** The PATCH body: the header as a patch over the copy it applies to, so removed keys go as null. */
const fieldsOfMine = (m: Mine, base: PageText) => ({
  title: m.title,
  content: m.content,
  header: headerPatch(base.header, m.header),
  ...(m.template !== undefined ? { template: m.template } : {}),
  ...(m.published !== undefined ? { published: m.published } : {}),
  ...(m.visible !== undefined ? { visible: m.visible } : {}),
});

export async function pushSite(siteId: string, deps: PushDeps): Promise<PushSummary> {
  const { transport: t, repo, cache } = deps;
  const now = deps.now ?? Date.now;
  const summary: PushSummary = { pushed: 0, conflicted: 0, rejected: 0, remaining: 0 };
  /** Routes with a change that waits for a person: later changes to them wait too. */
  const blocked = new Set<string>();

  const langOf = (item: OutboxItem) => ('lang' in item.payload ? (item.payload.lang ?? '') : '');
  const readPlain = (route: string, lang: string) => cmsPages.get(t, route, lang ? { lang } : {});
  const refreshCache = (route: string, lang: string, page: Page) => () => cache.putPage(siteId, lang, page);

  async function save(item: OutboxItem, draft: Draft): Promise<Outcome> {
    const lang = langOf(item);
    let { baseEtag, base, mine } = draft;
    for (let round = 0; round < 3; round++) {
      try {
        await cmsPages.update(t, item.route, fieldsOfMine(mine, base), { ifMatch: baseEtag, ...(lang ? { lang } : {}) });
      } catch (err) {
        if (!isAppError(err)) throw err;
        if (err.code === 'conflict') {
          const page = await readPlain(item.route, lang);
          const theirs = textOf(page);
          const merged = mergeClean(base, mine, theirs);
          if (!merged) {
            repo.conflict(draft.id, theirs, page.etag);
            return 'conflicted';
          }
          // nothing of mine left to send: it arrived before a crash, or they made the same edit
          if (merged.content === theirs.content && same(headerWithTitle(merged), headerWithTitle(theirs))) {
            repo.done(item, refreshCache(item.route, lang, page));
            return 'done';
          }
          repo.rebase(draft.id, page.etag, theirs, merged);
          ({ baseEtag, base, mine } = { baseEtag: page.etag, base: theirs, mine: merged });
          continue;
        }
        if (err.code === 'invalid_input') {
          repo.reject(draft.id, { message: err.message, ...(err.info.fields ? { fields: err.info.fields } : {}) });
          return 'rejected';
        }
        if (err.code === 'not_found') {
          repo.reject(draft.id, { message: `${item.route} no longer exists on the site. Keep your text as a new page, or discard it.` });
          return 'rejected';
        }
        throw err;
      }
      const fresh = await readPlain(item.route, lang);
      repo.done(item, refreshCache(item.route, lang, fresh));
      return 'done';
    }
    repo.conflict(draft.id, textOf(await readPlain(item.route, lang)), null);
    return 'conflicted';
  }

  async function exists(route: string, lang = ''): Promise<boolean> {
    try {
      await readPlain(route, lang);
      return true;
    } catch (err) {
      if (isAppError(err) && err.code === 'not_found') return false;
      throw err;
    }
  }

  async function other(item: OutboxItem, mayHaveArrived: boolean): Promise<Outcome> {
    try {
      switch (item.op) {
        case 'create':
          // a create that may have arrived is checked first: never a second copy
          if (!(mayHaveArrived && (await exists(item.route, langOf(item))))) {
            await cmsPages.create(t, item.payload);
          }
          break;
        case 'delete':
          await cmsPages.remove(t, item.route, item.payload);
          cache.removeTree(siteId, item.route);
          break;
        case 'move':
          await cmsPages.move(t, item.route, item.payload);
          cache.removeTree(siteId, item.route);
          break;
        case 'translate':
          await cmsPages.translate(t, item.route, item.payload);
          break;
        case 'save':
          throw new Error('save items go through save()');
      }
    } catch (err) {
      if (!isAppError(err)) throw err;
      // already done before a crash, or by someone else: the outcome is what was asked
      if (item.op === 'delete' && err.code === 'not_found') return repo.done(item), 'done';
      if (item.op === 'translate' && mayHaveArrived && err.code === 'invalid_input') return repo.done(item), 'done';
      if (err.code === 'invalid_input' || err.code === 'not_found' || err.code === 'conflict') {
        repo.setItem(item.id, { state: 'parked', attempts: item.attempts, nextAt: null, lastError: err.message });
        return 'rejected';
      }
      throw err;
    }
    repo.done(item);
    return 'done';
  }

  const wanted = (item: OutboxItem) =>
    deps.only === undefined || item.route === deps.only || (item.op === 'create' && deps.only.startsWith(item.route + '/'));
  const items = replayOrder(repo.items(siteId)).filter((item) => {
    if (wanted(item)) return true;
    summary.remaining++;
    return false;
  });
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const draft = item.draftId !== null ? repo.draft(item.draftId) : undefined;
    const waits = item.state === 'parked' || (draft && draft.state !== 'pending') || blocked.has(item.route);
    const later = !deps.asked && item.nextAt !== null && Date.parse(item.nextAt) > now();
    if (waits || later) {
      blocked.add(item.route);
      summary.remaining++;
      continue;
    }
    const mayHaveArrived = item.state === 'sending';
    repo.setItem(item.id, { state: 'sending', attempts: item.attempts, nextAt: null, lastError: item.lastError });
    try {
      const outcome = draft ? await save(item, draft) : await other(item, mayHaveArrived);
      if (outcome === 'done') summary.pushed++;
      else {
        if (outcome === 'conflicted') summary.conflicted++;
        else summary.rejected++;
        if (draft) repo.setItem(item.id, { state: 'waiting', attempts: item.attempts, nextAt: null, lastError: null });
        blocked.add(item.route);
        summary.remaining++;
      }
    } catch (err) {
      const f = failedAttempt(err, item.attempts, now());
      repo.setItem(item.id, { state: f.signedOut ? 'queued' : 'sending', attempts: f.attempts, nextAt: f.nextAt, lastError: f.lastError });
      summary.stopped = f.stopped;
      summary.remaining += items.length - i;
      break;
    }
  }
  return summary;
}
