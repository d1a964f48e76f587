/**
 * A site's row in "Sites at a glance", in words: each column's text, its tone (never the only
 * signal: the words say it too), a longer detail for the tooltip and screen readers, and the area
 * that deals with it. Pure, so the rules (what counts as a problem) are tested without a browser.
 */
import type { CmsArea, Glimpse, MailerGlimpse, SessionState, SiteGlance, WebhooksGlimpse } from '../../../electron/contract/index';

export type Tone = 'ok' | 'warn' | 'danger' | 'muted';
export interface Cell {
  text: string;
  tone: Tone;
  detail?: string;
  /** The site's area that deals with it (the cell opens it). */
  area?: CmsArea | 'changes';
}

export const GLANCE_COLUMNS = ['answers', 'signedIn', 'version', 'updates', 'scheduler', 'webhooks', 'mailer', 'changes', 'demo'] as const;
export type GlanceColumn = (typeof GLANCE_COLUMNS)[number];

export const COLUMN_LABELS: Record<GlanceColumn, string> = {
  answers: 'Answers',
  signedIn: 'Signed in',
  version: 'Version',
  updates: 'Updates',
  scheduler: 'Scheduler',
  webhooks: 'Webhooks (24 h)',
  mailer: 'Mailer',
  changes: 'Unsynced changes',
  demo: 'Demo reset',
};

export interface GlanceContext {
  session: SessionState | null;
  username: string | null;
  unsynced: number;
  conflicted: number;
  /** Now, for the countdown (ms). */
  now: number;
}

const reading: Cell = { text: 'Reading…', tone: 'muted' };

/** A cell, its detail and area only where there is one. */
function cell(text: string, tone: Tone, detail?: string | null, area?: Cell['area']): Cell {
  return { text, tone, ...(detail ? { detail } : {}), ...(area ? { area } : {}) };
}

function copied<T>(g: Glimpse<T>): string | null {
  return 'value' in g && g.copiedAt ? g.copiedAt : null;
}

/** A part that is not a value: skipped (muted dash) or the site's problem (a warning). */
function notValue<T>(g: Glimpse<T>): Cell | null {
  if ('skipped' in g) return { text: '—', tone: 'muted', detail: g.skipped };
  if ('problem' in g) return { text: 'Could not read', tone: 'warn', detail: g.problem };
  return null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** "in 4 min 05 s", "in 2 h 10 min", "due now". */
export function countdown(seconds: number): string {
  if (seconds <= 0) return 'due now';
  const s = Math.ceil(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h) return `in ${h} h ${String(m).padStart(2, '0')} min`;
  if (m) return `in ${m} min ${String(sec).padStart(2, '0')} s`;
  return `in ${sec} s`;
}

/** Seconds left of a countdown read at `readAt`, at `now` (never below 0). */
export function secondsLeft(seconds: number, readAt: string, now: number): number {
  const at = Date.parse(readAt);
  return Math.max(0, seconds - (Number.isNaN(at) ? 0 : Math.floor((now - at) / 1000)));
}

export function glanceCells(glance: SiteGlance | null, ctx: GlanceContext): Record<GlanceColumn, Cell> {
  const signedIn: Cell =
    ctx.session === 'signed_in'
      ? { text: ctx.username ? `Yes, as ${ctx.username}` : 'Yes', tone: 'ok' }
      : ctx.session === 'needs_2fa'
        ? { text: 'Code needed', tone: 'warn', detail: 'The sign-in waits for the 6-digit code.' }
        : ctx.session === 'expired'
          ? { text: 'Expired', tone: 'warn', detail: 'The session ended: sign in again.' }
          : { text: 'No', tone: 'warn', detail: 'Signed out: sign in to see the rest.' };
  const changes: Cell = ctx.conflicted
    ? { text: `${plural(ctx.unsynced, 'change')}, ${plural(ctx.conflicted, 'conflict')}`, tone: 'danger', detail: 'A conflict waits for you to merge it.', area: 'changes' }
    : ctx.unsynced
      ? { text: plural(ctx.unsynced, 'change'), tone: 'warn', detail: 'Kept on this computer, not on the site yet.', area: 'changes' }
      : { text: 'None', tone: 'ok' };
  if (!glance) return { answers: reading, signedIn, version: reading, updates: reading, scheduler: reading, webhooks: reading, mailer: reading, changes, demo: reading };

  const answers: Cell =
    glance.reachable === true ? { text: 'Yes', tone: 'ok' } : glance.reachable === false ? { text: 'No', tone: 'danger', detail: 'The site did not answer just now.' } : { text: 'Not known', tone: 'muted' };
  const version: Cell = glance.version ? { text: glance.version, tone: 'muted' } : { text: '—', tone: 'muted', detail: 'Known once signed in.' };
  const from = (g: Glimpse<unknown>) => {
    const at = copied(g);
    return at ? ` (Sitedesk’s copy of ${new Date(at).toLocaleString()})` : '';
  };

  const updates: Cell =
    notValue(glance.updates) ??
    (() => {
      const u = (glance.updates as { value: { total: number; core: string | null } }).value;
      if (!u.total) return { text: 'Up to date', tone: 'ok', detail: `Nothing to update${from(glance.updates)}.`, area: 'packages' };
      return { text: plural(u.total, 'update'), tone: 'warn', detail: `${u.core ? `Grav ${u.core} is out. ` : ''}${plural(u.total, 'update')} waiting${from(glance.updates)}.`, area: 'packages' };
    })();

  const scheduler: Cell =
    notValue(glance.scheduler) ??
    (() => {
      const s = (glance.scheduler as { value: SiteGlanceScheduler }).value;
      const note = s.message ? `${s.message}${from(glance.scheduler)}.` : from(glance.scheduler).trim();
      if (s.failedJobs24h) return { text: `${plural(s.failedJobs24h, 'job')} failed`, tone: 'danger', detail: `In the last 24 hours. ${note}`.trim(), area: 'scheduler' };
      if (s.health === 'healthy') return cell('Healthy', 'ok', note, 'scheduler');
      if (s.health) return cell(s.health === 'warning' ? 'Warning' : capital(s.health), s.health === 'warning' ? 'warn' : 'danger', note, 'scheduler');
      if (s.crontab === 'not_installed') return { text: 'Cron not installed', tone: 'danger', detail: 'The scheduler never runs by itself: add its line to the server’s crontab.', area: 'scheduler' };
      return cell(s.crontab === 'installed' ? 'Installed' : 'Not known', 'muted', note, 'scheduler');
    })();

  const webhooks: Cell =
    notValue(glance.webhooks) ??
    (() => {
      const w = (glance.webhooks as { value: WebhooksGlimpse }).value;
      const unread = w.unread ? ` The deliveries of ${plural(w.unread, 'webhook')} could not be read.` : '';
      if (!w.hooks) return cell('None', 'muted', 'No webhooks on this site.', 'webhooks');
      if (w.failedLastDay) return cell(`${w.partial ? 'At least ' : ''}${plural(w.failedLastDay, 'failed delivery', 'failed deliveries')}`, 'danger', `In the last 24 hours, over ${plural(w.hooks, 'webhook')}${from(glance.webhooks)}.${unread}`, 'webhooks');
      if (w.unread) return cell('Could not read all', 'warn', `No failed delivery among those read${from(glance.webhooks)}.${unread}`, 'webhooks');
      return cell('All delivered', 'ok', `${w.enabled} of ${plural(w.hooks, 'webhook')} on${from(glance.webhooks)}.`, 'webhooks');
    })();

  const demo: Cell =
    notValue(glance.demo) ??
    (() => {
      const d = (glance.demo as { value: { baseline: boolean; secondsUntilReset: number | null; intervalMinutes: number | null } }).value;
      if (!d.baseline || d.secondsUntilReset === null) return { text: 'No baseline', tone: 'muted', detail: 'Demo mode resets nothing until a baseline is captured.' };
      const left = copied(glance.demo) ? null : secondsLeft(d.secondsUntilReset, glance.readAt, ctx.now);
      if (left === null) return { text: 'Not known', tone: 'muted', detail: `The site is away${from(glance.demo)}.` };
      return cell(countdown(left), left === 0 ? 'warn' : 'muted', d.intervalMinutes ? `Demo content is restored every ${plural(d.intervalMinutes, 'minute')}.` : null);
    })();

  const mailer: Cell =
    notValue(glance.mailer) ??
    (() => {
      const m = (glance.mailer as { value: MailerGlimpse }).value;
      const growth = `${m.net >= 0 ? '+' : '−'}${Math.abs(m.net).toLocaleString()} in ${m.days} days`;
      const text = `${plural(m.subscribed, 'subscriber')}, ${growth}`;
      const why = m.first ? ` ${m.first}` : '';
      if (m.errors) return cell(`${text}; ${plural(m.errors, 'problem')}`, 'danger', `${plural(m.errors, 'problem')} and ${plural(m.warnings, 'warning')}${from(glance.mailer)}.${why}`, 'mailer');
      if (m.warnings) return cell(`${text}; ${plural(m.warnings, 'warning')}`, 'warn', `${plural(m.warnings, 'warning')}${from(glance.mailer)}.${why}`, 'mailer');
      return cell(text, 'ok', `Nothing needs doing${from(glance.mailer)}.`, 'mailer');
    })();

  return { answers, signedIn, version, updates, scheduler, webhooks, mailer, changes, demo };
}

type SiteGlanceScheduler = { crontab: string; health: string | null; message: string | null; failedJobs24h: number | null; jobsDue: number | null };
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
