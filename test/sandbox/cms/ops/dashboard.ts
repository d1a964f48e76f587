/**
 * What the dashboard reads (document 2, "Dashboard"; the field names the document does not show
 * follow getgrav/grav-plugin-api:DashboardController, recordings 50–53): the site's statistics,
 * page-view popularity (a daily log per route: 14-day chart, today/week/month, top 10), the
 * vendor's notifications with per-account dismissals honouring `reappear_after` on the sandbox's
 * clock, and a news feed (the 10 newest articles).
 *
 * Views: a deterministic history for the 45 days before the first time they are read or added,
 * by the sandbox's clock (so a test that sets the clock first gets a history ending the day before
 * it, whatever the date is), over the site's first pages, plus the views tests add (`addViews`,
 * `POST /__sandbox/ops/views`).
 */
import { createHash } from 'node:crypto';
import type { CmsContext } from '../context';
import { enabled } from '../plugins-ui/demo-plugins';
import { isoC } from './scheduler';

const DAY = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A stable pseudo-random number in [0, n) for a text. */
function hashInt(text: string, n: number): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) % n;
}

export interface Notification {
  id: string;
  message: string;
  date: string;
  location: ('top' | 'dashboard' | 'feed')[];
  icon?: string;
  title?: string;
  action?: { label: string; url: string };
  link?: string;
  type?: 'info' | 'notice' | 'warning' | 'promo';
  level?: string;
  reappear_after?: string;
}

export const LOCATIONS = ['top', 'dashboard', 'feed'] as const;

/** `+7 days`, `+1 hour`, `+30 minutes` … added to a time (PHP's DateTime::modify for these); null when unreadable. */
export function addInterval(ms: number, text: string): number | null {
  const m = /^\s*\+?\s*(\d+)\s*(second|sec|minute|min|hour|day|week|month|year)s?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2]!.toLowerCase();
  if (unit === 'month' || unit === 'year') {
    const d = new Date(ms);
    if (unit === 'month') d.setUTCMonth(d.getUTCMonth() + n);
    else d.setUTCFullYear(d.getUTCFullYear() + n);
    return d.getTime();
  }
  const unitMs = { second: 1000, sec: 1000, minute: 60_000, min: 60_000, hour: 3_600_000, day: DAY, week: 7 * DAY }[unit]!;
  return ms + n * unitMs;
}

export class Dashboard {
  /** views by day (YYYY-MM-DD) and route */
  private readonly views = new Map<string, Map<string, number>>();
  private seeded = false;
  /** dismissals: username → notification id → epoch ms */
  private readonly hidden = new Map<string, Map<string, number>>();
  /** when the vendor feed was last fetched (epoch seconds; null: never) */
  lastChecked: number | null = null;
  /** the date of the last backup (epoch seconds), reported by stats; null: none */
  lastBackup: number | null;
  private readonly started: number;

  constructor(private readonly ctx: CmsContext) {
    this.started = ctx.clock.now();
    this.lastBackup = Math.floor(this.started / 1000) - 2 * 86400;
  }

  // ---- statistics

  stats(): Record<string, unknown> {
    const { ctx } = this;
    const pages = ctx.content.tree().pages;
    const published = pages.filter((p) => {
      const file = ctx.content.resolve(p);
      const parsed = file ? ctx.content.read(p, file.file) : null;
      return parsed?.ok ? parsed.header.published !== false : true;
    }).length;
    const plugins = ctx.packages.list('plugin');
    const themes = ctx.packages.list('theme');
    const updatable = (type: 'plugin' | 'theme') => ctx.packages.updatable(type);
    const active = 'quark2';
    return {
      pages: { total: pages.length, published },
      users: { total: ctx.accounts.count() },
      plugins: { total: plugins.length, active: plugins.filter((p) => enabled(ctx, p.slug)).length, updatable: updatable('plugin').length },
      themes: { total: themes.length, updatable: updatable('theme').length, active_updatable: updatable('theme').some((t) => t.slug === active) },
      grav: { updatable: ctx.packages.knobs.coreLatest === false },
      media: { total: ctx.site.media.ready().counts().files },
      theme: active,
      grav_version: ctx.settings.cmsVersion,
      php_version: '8.4.28',
      last_backup: this.lastBackup === null ? null : isoC(this.lastBackup),
    };
  }

  // ---- popularity

  private seed(): void {
    if (this.seeded) return;
    this.seeded = true;
    const firstRead = this.ctx.clock.now();
    const routes = this.ctx.content.tree().pages.slice(0, 15).map((p) => p.route);
    for (let d = 1; d <= 45; d++) {
      const key = dayKey(firstRead - d * DAY);
      for (const [i, route] of routes.entries()) {
        // earlier pages are more popular; every day differs a little
        const n = Math.max(0, 40 - i * 3 + hashInt(`${key}${route}`, 12) - 6);
        if (n > 0) this.bump(key, route, n);
      }
    }
  }

  private bump(day: string, route: string, n: number): void {
    let m = this.views.get(day);
    if (!m) this.views.set(day, (m = new Map()));
    m.set(route, (m.get(route) ?? 0) + n);
  }

  /** Records page views now (the public site's popularity tracker). */
  addViews(route: string, count = 1): void {
    this.seed();
    this.bump(dayKey(this.ctx.clock.now()), route, count);
  }

  private dayTotal(day: string): number {
    let n = 0;
    for (const v of this.views.get(day)?.values() ?? []) n += v;
    return n;
  }

  popularity(): Record<string, unknown> {
    this.seed();
    const now = this.ctx.clock.now();
    let week = 0;
    for (let i = 0; i < 7; i++) week += this.dayTotal(dayKey(now - i * DAY));
    const month = dayKey(now).slice(0, 7);
    let monthViews = 0;
    for (const day of this.views.keys()) if (day.startsWith(month)) monthViews += this.dayTotal(day);
    const chart = [];
    for (let i = 13; i >= 0; i--) {
      const d = new Date(now - i * DAY);
      chart.push({ date: `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`, views: this.dayTotal(dayKey(d.getTime())) });
    }
    const totals = new Map<string, number>();
    for (const m of this.views.values()) for (const [route, v] of m) totals.set(route, (totals.get(route) ?? 0) + v);
    const top = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10);
    return {
      summary: { today: this.dayTotal(dayKey(now)), week, month: monthViews },
      chart,
      top_pages: top.map(([route, views]) => ({ route, views })),
    };
  }

  // ---- notifications

  /** The vendor's notices (as of the sandbox's start) and the login plugin's warning (recording 52). */
  notices(): Notification[] {
    const at = (daysAgo: number) => isoC(Math.floor(this.started / 1000) - daysAgo * 86400);
    const real = this.ctx.flavor === 'real';
    return [
      {
        id: 'login-untrusted-host',
        date: at(0),
        ...(real ? { level: 'warning' } : { type: 'warning' as const }),
        icon: 'shield-alert',
        location: ['top'],
        message: 'Email links are not yet pinned to a trusted host, so password reset and activation emails fall back to the request host. <a href="https://learn.getgrav.org/security/trusted-host" target="_blank" rel="noopener">How to fix this</a>',
        reappear_after: '+7 days',
      },
      { id: 'grav-2-1-beta', date: at(3), type: 'info', icon: 'rocket', title: 'Grav 2.1 beta', location: ['dashboard'], message: 'The first beta of Grav 2.1 is out for testing.', action: { label: 'Read the notes', url: 'https://getgrav.org/blog/grav-2.1-beta' }, reappear_after: '+1 day' },
      { id: 'premium-sale', date: at(5), type: 'promo', icon: '🎉', title: 'Premium plugins 30% off', location: ['dashboard', 'feed'], message: 'All premium plugins are 30% off this week.', link: 'https://getgrav.org/premium' },
      { id: 'security-advisory-2026-11', date: at(1), type: 'notice', icon: 'alert-triangle', title: 'Security advisory', location: ['feed'], message: 'Update the API plugin to 1.0.12 or later.', link: 'https://getgrav.org/security', reappear_after: '+12 hours' },
    ];
  }

  /** Notices grouped by location, those the account dismissed dropped unless `reappear_after` passed since. */
  notifications(username: string, force: boolean): { groups: Record<string, Notification[]>; lastChecked: number | null } {
    const now = this.ctx.clock.now();
    if (force || this.lastChecked === null) this.lastChecked = Math.floor(now / 1000);
    const hidden = this.hidden.get(username) ?? new Map<string, number>();
    const groups: Record<string, Notification[]> = {};
    if (this.ctx.flavor === 'spec') for (const l of LOCATIONS) groups[l] = [];
    for (const n of this.notices()) {
      const at = hidden.get(n.id);
      if (at !== undefined) {
        const back = n.reappear_after ? addInterval(at, n.reappear_after) : null;
        if (back === null || now < back) continue;
      }
      for (const l of n.location) (groups[l] ??= []).push(n);
    }
    return { groups, lastChecked: this.lastChecked };
  }

  hide(username: string, id: string): void {
    let m = this.hidden.get(username);
    if (!m) this.hidden.set(username, (m = new Map()));
    // stored to the second, as the real service's YAML file keeps it
    m.set(id, Math.floor(this.ctx.clock.now() / 1000) * 1000);
  }

  /** Whether the account has hidden this notification (and it has not come back yet is the caller's to check). */
  isHidden(username: string, id: string): boolean {
    return this.hidden.get(username)?.has(id) ?? false;
  }

  /** Forgets the account's dismissals (tests start each case from a dashboard with nothing hidden). */
  unhideAll(username: string): void {
    this.hidden.delete(username);
  }

  // ---- feed

  /** The 10 newest of the vendor's articles (one every four days before the sandbox's start). */
  feed(): { items: { title: string; url: string; date: string; summary: string }[]; lastChecked: number | null } {
    this.lastChecked ??= Math.floor(this.ctx.clock.now() / 1000);
    const items = Array.from({ length: 14 }, (_, i) => {
      const n = 14 - i;
      return {
        title: `Grav news #${n}`,
        url: `https://getgrav.org/blog/news-${n}`,
        date: isoC(Math.floor(this.started / 1000) - i * 4 * 86400),
        summary: `What happened in the Grav world, part ${n}.`,
      };
    });
    return { items: items.slice(0, 10), lastChecked: this.lastChecked };
  }
}
