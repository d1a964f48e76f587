/**
 * Two demo "plugins" that extend the Users list the way real ones do (they answer the
 * `onApiUserList*` events), so every rule of list-extensions.ts meets real declarations:
 *
 *   - `membership` keeps a membership per account in `<data>/plugins/membership.json`: tabs
 *     Members (with a `badgeEndpoint`), Expiring soon (a static badge) and Billing issues (only
 *     for `api.users.write`, and the landing tab it asks for); columns for every formatter but
 *     boolean (a badge, a date, a datetime, a number, a link with its label field, one column only
 *     for `api.users.write`); actions Extend (with a confirm, refused for an account without a
 *     membership, a root-relative result url) and Cancel (only for `api.users.write`, a
 *     cross-origin url that is dropped).
 *   - `activity`: tabs 2FA off (a badge) and Disabled; columns Last sign-in (datetime), Verified
 *     (boolean), Profile (a link without label), Risk (formatter `html`, which becomes `text`, and
 *     loses its label field),
 *     a field with unsafe characters, a duplicate id and one without field (both dropped), values
 *     that are not scalars (dropped) or too long (cut); actions Sign out everywhere (a confirm,
 *     refused for a super admin target, a same-origin absolute url), Export (a `javascript:` url
 *     dropped, a message cut to 512 bytes) and Recalculate risk (its handler throws).
 *
 * `ctx.userList.plugins = false` (the sandbox option `userListPlugins: false`) takes both away:
 * the lists are then as empty as on the recorded real site (recordings 27–29).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpProblem } from '../../http';
import { isSuper } from '../access';
import type { Account } from '../accounts';
import type { CmsContext } from '../context';
import type { ActionDecl, ColumnDecl, TabDecl } from './list-extensions';

export interface Membership {
  plan: 'basic' | 'pro' | 'team';
  seats: number;
  /** YYYY-MM-DD */
  valid_till: string;
  /** epoch seconds */
  renewed_at: number;
  invoice: string;
  billing_issue: boolean;
}

/** What a row action's handler is handed; it re-authorizes against the target itself. */
export interface RowActionCall {
  id: string;
  plugin: string;
  action: string;
  target: Account;
  caller: Account;
  origin: string;
}

const DAY = 86400;

/** The membership plugin's data file. */
export class Memberships {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'plugins', 'membership.json');
  }

  all(): Record<string, Membership> {
    if (!existsSync(this.file)) return {};
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, Membership>;
    } catch {
      return {};
    }
  }

  get(username: string): Membership | null {
    return this.all()[username] ?? null;
  }

  put(username: string, m: Membership | null): void {
    const all = this.all();
    if (m) all[username] = m;
    else delete all[username];
    mkdirSync(join(this.file, '..'), { recursive: true });
    writeFileSync(this.file, JSON.stringify(all, null, 2) + '\n');
  }
}

const isoDay = (sec: number) => new Date(sec * 1000).toISOString().slice(0, 10);
const daysLeft = (m: Membership, nowSec: number) => (Date.parse(`${m.valid_till}T23:59:59Z`) / 1000 - nowSec) / DAY;

export class DemoUserPlugins {
  readonly memberships: Memberships;

  constructor(private readonly ctx: CmsContext) {
    this.memberships = new Memberships(ctx.dataDir);
  }

  private get on(): boolean {
    return this.ctx.userList.plugins;
  }

  /** onApiUserListFilters: tabs and the page-level policy. */
  filters(): { filters: TabDecl[]; defaultFilter: string | null; showAll: boolean } {
    if (!this.on) return { filters: [], defaultFilter: null, showAll: true };
    const now = this.ctx.clock.nowSec();
    const all = Object.values(this.memberships.all());
    const accounts = this.ctx.accounts.list();
    const filters: (TabDecl | Record<string, unknown>)[] = [
      { id: 'members', plugin: 'membership', label: 'Members', icon: 'fa-id-card', priority: 30, badgeEndpoint: '/membership/badges/members' },
      { id: 'expiring', plugin: 'membership', label: 'Expiring soon', icon: 'fa-hourglass-half', priority: 20, badge: all.filter((m) => daysLeft(m, now) >= 0 && daysLeft(m, now) <= 30).length },
      { id: 'billing', plugin: 'membership', label: 'Billing issues', icon: 'fa-credit-card', priority: 10, authorize: 'api.users.write' },
      // `all` is reserved for the built-in tab: this one is dropped
      { id: 'all', plugin: 'membership', label: 'Everyone (shadowing the built-in tab)' },
      { id: 'twofa-off', plugin: 'activity', label: '2FA off', icon: 'fa-shield-halved', priority: 15, badge: accounts.filter((a) => !a.twofa_enabled).length },
      { id: 'disabled', plugin: 'activity', label: 'Disabled', icon: 'fa-user-slash', priority: 1, authorize: ['api.users.read', 'admin.super'] },
      // malformed: no id
      { plugin: 'activity', label: 'No id' },
    ];
    return { filters: filters as TabDecl[], defaultFilter: this.ctx.userList.defaultFilter, showAll: this.ctx.userList.showAll };
  }

  /** onApiUserListFilter: narrows the list when the tab is one of theirs; null = not theirs. */
  narrow(filter: string, accounts: Account[]): Account[] | null {
    if (!this.on) return null;
    const now = this.ctx.clock.nowSec();
    const m = this.memberships.all();
    switch (filter) {
      case 'members':
        return accounts.filter((a) => m[a.username]);
      case 'expiring':
        return accounts.filter((a) => m[a.username] && daysLeft(m[a.username]!, now) >= 0 && daysLeft(m[a.username]!, now) <= 30);
      case 'billing':
        return accounts.filter((a) => m[a.username]?.billing_issue === true);
      case 'twofa-off':
        return accounts.filter((a) => !a.twofa_enabled);
      case 'disabled':
        return accounts.filter((a) => a.state === 'disabled');
      default:
        return null;
    }
  }

  /** The count a `badgeEndpoint` answers. */
  badge(tab: string): number | null {
    if (!this.on) return null;
    const narrowed = this.narrow(tab, this.ctx.accounts.list());
    return narrowed ? narrowed.length : null;
  }

  /** onApiUserListColumns */
  columns(): ColumnDecl[] {
    if (!this.on) return [];
    return [
      { id: 'membership-plan', plugin: 'membership', label: 'Plan', field: 'membership.plan', formatter: 'badge', sortable: true, priority: 50 },
      { id: 'activity-last-login', plugin: 'activity', label: 'Last sign-in', field: 'activity.last_login', formatter: 'datetime', sortable: true, priority: 45 },
      { id: 'membership-valid-till', plugin: 'membership', label: 'Valid until', field: 'membership.valid_till', formatter: 'date', sortable: true, priority: 40 },
      { id: 'activity-verified', plugin: 'activity', label: 'Verified', field: 'activity.verified', formatter: 'boolean', priority: 35 },
      { id: 'membership-renewed', plugin: 'membership', label: 'Last renewal', field: 'membership.renewed_at', formatter: 'datetime', priority: 30 },
      { id: 'activity-risk', plugin: 'activity', label: 'Risk', field: 'activity.risk', formatter: 'html', labelField: 'activity.risk_label', priority: 25 },
      { id: 'membership-seats', plugin: 'membership', label: 'Seats', field: 'membership.seats', formatter: 'number', sortable: true, priority: 20 },
      { id: 'membership-invoice', plugin: 'membership', label: 'Latest invoice', field: 'membership.invoice_url', formatter: 'link', labelField: 'membership.invoice_label', priority: 10 },
      { id: 'membership-revenue', plugin: 'membership', label: 'Revenue', field: 'membership.revenue', formatter: 'number', priority: 8, authorize: 'api.users.write' },
      { id: 'activity-profile', plugin: 'activity', label: 'Profile', field: 'activity.profile', formatter: 'link', priority: 5 },
      // unsafe characters are taken out of the field: it becomes `activity.notes`
      { id: 'activity-notes', plugin: 'activity', label: 'Notes', field: 'activity.<notes>', formatter: 'text', priority: 0 },
      // the same id again: the first declaration wins
      { id: 'membership-plan', plugin: 'activity', label: 'Plan (again)', field: 'activity.plan', formatter: 'text' },
      // no usable field: dropped
      { id: 'activity-broken', plugin: 'activity', label: 'Broken', field: '<>', formatter: 'text' },
    ];
  }

  /** onApiUserListColumnData: values for the usernames of the page served, and only those. */
  columnData(accounts: Account[]): Record<string, Record<string, unknown>> {
    if (!this.on) return {};
    const m = this.memberships.all();
    const out: Record<string, Record<string, unknown>> = {};
    for (const account of accounts) {
      const { username } = account;
      const row: Record<string, unknown> = {
        'activity.last_login': account.modified ? new Date(account.modified * 1000).toISOString() : null,
        'activity.verified': account.email.endsWith('.test'),
        'activity.profile': `/profiles/${encodeURIComponent(username)}`,
        'activity.risk': account.twofa_enabled ? 'low' : isSuper(account.access) ? 'high' : 'medium',
        'activity.notes': account.title ? `${account.title}. ${'Notes kept by the activity plugin. '.repeat(70)}` : null,
        // not a scalar: dropped by the service
        'activity.sessions': [{ ip: '192.0.2.1' }],
      };
      const member = m[username];
      if (member) {
        Object.assign(row, {
          'membership.plan': member.plan,
          'membership.valid_till': member.valid_till,
          'membership.renewed_at': new Date(member.renewed_at * 1000).toISOString(),
          'membership.seats': member.seats,
          'membership.invoice_url': `/invoices/${member.invoice}.pdf`,
          'membership.invoice_label': `Invoice ${member.invoice}`,
          'membership.revenue': member.seats * (member.plan === 'team' ? 40 : member.plan === 'pro' ? 20 : 5),
          'membership.history': { renewals: 3 },
        });
      }
      out[username] = row;
    }
    return out;
  }

  /** onApiUserListRowActions */
  rowActions(): ActionDecl[] {
    if (!this.on) return [];
    return [
      { id: 'membership-extend', plugin: 'membership', label: 'Extend membership', icon: 'fa-calendar-plus', action: 'extend', confirm: 'Extend this membership by one year?', priority: 60 },
      { id: 'activity-reset-sessions', plugin: 'activity', label: 'Sign out everywhere', icon: 'fa-right-from-bracket', action: 'reset-sessions', confirm: 'Sign this user out of every session?', priority: 50 },
      { id: 'activity-export', plugin: 'activity', label: 'Export activity', icon: 'fa-file-export', action: 'export', confirm: '', priority: 40, authorize: 'api.users.read' },
      { id: 'membership-cancel', plugin: 'membership', label: 'Cancel membership', icon: 'fa-ban', action: 'cancel', confirm: 'Cancel this membership now?', priority: 30, authorize: 'api.users.write' },
      { id: 'activity-recalculate', plugin: 'activity', label: 'Recalculate risk', action: 'recalculate', priority: 5 },
    ];
  }

  /**
   * onApiUserListRowAction: the handlers. A thrown HttpProblem 403 is the handler's refusal; any
   * other throw is a fault the service turns into an error result.
   */
  async runAction(call: RowActionCall): Promise<unknown> {
    const now = this.ctx.clock.nowSec();
    const { target } = call;
    switch (call.id) {
      case 'membership-extend': {
        const m = this.memberships.get(target.username);
        if (!m) throw new HttpProblem(403, 'Forbidden', `${target.username} has no membership to extend.`);
        const from = Math.max(now, Date.parse(`${m.valid_till}T00:00:00Z`) / 1000);
        const next = { ...m, valid_till: isoDay(from + 365 * DAY), renewed_at: now };
        this.memberships.put(target.username, next);
        return { status: 'success', message: `Membership extended to ${next.valid_till}.`, url: `/admin/membership/${encodeURIComponent(target.username)}` };
      }
      case 'membership-cancel': {
        if (!this.memberships.get(target.username)) return { status: 'error', message: `${target.username} has no membership.` };
        this.memberships.put(target.username, null);
        return { status: 'success', message: 'Membership cancelled.', url: `https://billing.example.com/cancelled/${encodeURIComponent(target.username)}` };
      }
      case 'activity-reset-sessions': {
        if (isSuper(target.access) && target.username !== call.caller.username) {
          throw new HttpProblem(403, 'Forbidden', 'Only the account itself may end a super admin\'s sessions.');
        }
        await this.ctx.accounts.update(target.username, { api_tokens_valid_after: now });
        return { status: 'success', message: `Every session of ${target.username} has ended.`, url: `${call.origin}/admin/activity/${encodeURIComponent(target.username)}` };
      }
      case 'activity-export':
        return { status: 'success', message: `Activity of ${target.username}: ${'sign-in, '.repeat(100)}`, url: 'javascript:alert(document.cookie)' };
      case 'activity-recalculate':
        throw new Error('The risk model is not loaded.');
      default:
        return null;
    }
  }
}

/** A deterministic membership for about two accounts in three (the demo seed's). */
export function demoMembership(username: string, index: number, nowSec: number): Membership | null {
  if (index % 3 === 2) return null;
  const plans = ['basic', 'pro', 'team'] as const;
  // some run out within a month (the Expiring tab), some have lapsed, most run for months
  const offsetDays = [12, 200, -20, 90, 25, 400, 5, 150][index % 8]!;
  return {
    plan: plans[index % 3]!,
    seats: plans[index % 3] === 'team' ? 5 + (index % 7) : 1,
    valid_till: isoDay(nowSec + offsetDays * DAY),
    renewed_at: nowSec - ((index % 11) + 20) * DAY,
    invoice: `INV-${String(1000 + index)}`,
    billing_issue: index % 5 === 1,
  };
}
