/**
 * A CMS site's dashboard (document 2 "Dashboard"; field names after the real DashboardController
 * and recordings 50–53, as the document shows none): stats, popularity, notifications grouped by
 * location (`{notifications: {top: […], …}, last_checked}`), feed (`{feed: […]}`). Read
 * tolerantly: a field left out is unknown, an entry that cannot be read is left out.
 */
import * as v from 'valibot';
import type { DashboardStats, FeedArticle, NotificationLocation, Popularity, SiteNotification } from '../../contract';
import { isPlainObject, NOTIFICATION_LOCATIONS } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { callName, request } from './envelope';
import { segment } from '../url-path';

const text = (x: unknown): string | null => (typeof x === 'string' && x.trim() ? x.trim() : null);
const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : null);
const obj = (x: unknown): Record<string, unknown> => (isPlainObject(x) ? x : {});
const link = (x: unknown): string | null => {
  const s = text(x);
  return s && /^https?:\/\//i.test(s) ? s : null;
};

async function data(t: Transport, path: string, what: string): Promise<Record<string, unknown>> {
  const call: CallOptions = { path };
  const r = await request(t, call);
  return parseAnswer(v.looseObject({}), r.data, t, what, callName(call)) as Record<string, unknown>;
}

function notificationOf(raw: unknown, location: NotificationLocation): SiteNotification | null {
  if (!isPlainObject(raw) || !text(raw.id) || !text(raw.message)) return null;
  const kind = raw.type ?? raw.level;
  const level = kind === 'warning' || kind === 'notice' || kind === 'promo' ? kind : kind === 'error' || kind === 'danger' ? 'warning' : 'info';
  const action = isPlainObject(raw.action) && text(raw.action.label) && link(raw.action.url) ? { label: text(raw.action.label)!, url: link(raw.action.url)! } : null;
  return { id: text(raw.id)!, message: text(raw.message)!, title: text(raw.title), date: text(raw.date), level, icon: text(raw.icon), action, link: link(raw.link), reappearAfter: text(raw.reappear_after), location };
}

export const cmsDashboard = {
  async stats(t: Transport): Promise<DashboardStats> {
    const d = await data(t, '/dashboard/stats', 'the dashboard statistics');
    const pages = obj(d.pages);
    const plugins = obj(d.plugins);
    const themes = obj(d.themes);
    return {
      pages: num(pages.total) ?? num(d.pages),
      publishedPages: num(pages.published),
      users: num(obj(d.users).total) ?? num(d.users),
      plugins: num(plugins.total) ?? num(d.plugins),
      activePlugins: num(plugins.active),
      updatablePlugins: num(plugins.updatable),
      themes: num(themes.total) ?? num(d.themes),
      theme: text(d.theme),
      cmsVersion: text(d.grav_version) ?? text(d.cms_version),
      cmsUpdatable: typeof obj(d.grav).updatable === 'boolean' ? (obj(d.grav).updatable as boolean) : null,
      phpVersion: text(d.php_version),
      media: num(obj(d.media).total) ?? num(d.media),
      lastBackup: text(d.last_backup),
    };
  },

  async popularity(t: Transport): Promise<Popularity> {
    const d = await data(t, '/dashboard/popularity', 'the page views');
    const summary = obj(d.summary);
    const days = (Array.isArray(d.chart) ? d.chart : []).flatMap((x) => (isPlainObject(x) && text(x.date) ? [{ label: text(x.date)!, views: num(x.views) ?? 0 }] : [])).slice(-14);
    const top = (Array.isArray(d.top_pages) ? d.top_pages : []).flatMap((x) => (isPlainObject(x) && text(x.route) ? [{ route: text(x.route)!, views: num(x.views) ?? 0 }] : [])).slice(0, 10);
    return { today: num(summary.today), week: num(summary.week), month: num(summary.month), days, top };
  },

  async notifications(t: Transport): Promise<SiteNotification[]> {
    const d = await data(t, '/dashboard/notifications', 'the notifications');
    const groups = obj(d.notifications);
    return NOTIFICATION_LOCATIONS.flatMap((loc) => (Array.isArray(groups[loc]) ? (groups[loc] as unknown[]) : []).map((n) => notificationOf(n, loc)).filter((n): n is SiteNotification => n !== null));
  },

  async feed(t: Transport): Promise<FeedArticle[]> {
    const d = await data(t, '/dashboard/feed', 'the news feed');
    return (Array.isArray(d.feed) ? d.feed : [])
      .flatMap((x) => (isPlainObject(x) && text(x.title) ? [{ title: text(x.title)!, url: link(x.url), date: text(x.date), summary: text(x.summary) ?? text(x.snippet) }] : []))
      .slice(0, 10);
  },

  async hide(t: Transport, id: string): Promise<void> {
    await request(t, { method: 'POST', path: `/dashboard/notifications/${segment(id, 'notification id')}/hide` });
  },
};
