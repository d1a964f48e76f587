/**
 * The `dashboard.*` channels: a CMS site's dashboard (document 2, "Dashboard"; field names after
 * the real DashboardController, recordings 50–53): its statistics, the 14-day popularity series
 * with today/week/month and the top pages, the notifications by location (hidden per account
 * until their `reappear_after`), and the news feed.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';

export interface DashboardStats {
  pages: number | null;
  publishedPages: number | null;
  users: number | null;
  plugins: number | null;
  activePlugins: number | null;
  updatablePlugins: number | null;
  themes: number | null;
  theme: string | null;
  cmsVersion: string | null;
  cmsUpdatable: boolean | null;
  phpVersion: string | null;
  media: number | null;
  lastBackup: string | null;
}

export interface Popularity {
  today: number | null;
  week: number | null;
  month: number | null;
  /** The last 14 days, oldest first, as the site labels them ("Nov 24"). */
  days: { label: string; views: number }[];
  /** The most read pages (at most 10). */
  top: { route: string; views: number }[];
}

export const NOTIFICATION_LOCATIONS = ['top', 'dashboard', 'feed'] as const;
export type NotificationLocation = (typeof NOTIFICATION_LOCATIONS)[number];

export interface SiteNotification {
  id: string;
  /** The site's small HTML (shown sanitised). */
  message: string;
  title: string | null;
  date: string | null;
  level: 'info' | 'notice' | 'warning' | 'promo';
  icon: string | null;
  action: { label: string; url: string } | null;
  link: string | null;
  reappearAfter: string | null;
  location: NotificationLocation;
}

export interface FeedArticle {
  title: string;
  url: string | null;
  date: string | null;
  summary: string | null;
}

export interface DashboardView {
  stats: DashboardStats | null;
  popularity: Popularity | null;
  notifications: SiteNotification[];
  feed: FeedArticle[];
  /** Parts the site did not give, each with the reason (the others are shown). */
  problems: { part: 'stats' | 'popularity' | 'notifications' | 'feed'; reason: string }[];
  copiedAt: string | null;
}

export const dashboardChannels = {
  /** Everything of a site's dashboard at once, each part on its own. */
  'dashboard.view': channel<DashboardView>()(v.strictObject({ siteId: SiteId })),
  /** Hides a notification for this account (it comes back after its `reappear_after`). */
  'dashboard.hide': channel<{ id: string }>()(v.strictObject({ siteId: SiteId, id: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'Not a notification id.')) })),
};

export const dashboardEvents = {};
