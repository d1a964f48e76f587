/**
 * The audit trail (document 2 §2 "Audit event", §3, §4; real:
 * getgrav/grav-plugin-api:classes/Api/Audit/AuditSubscriber.php): every recorded API event of the
 * catalogue that the trail knows becomes a row with its code, severity, actor (the request's
 * caller, from request-context.ts), address, user agent, authentication method, target and scalar
 * context hints; with coverage `detailed` a page update also carries `changes`, the before and
 * after value of each field the update named (taken from the page on disk before and after).
 *
 * Its knobs are the service's configuration: `enabled` (plugins.api.audit.enabled, default off),
 * `available` (SQLite support loaded; false makes the routes answer 503), `coverage`,
 * `retentionDays` / `retentionMaxRows` (0 turns a bound off), `anonymizeIp`, `maxPerPage`
 * (plugins.api.pagination.max_per_page) and `pruneEvery` (retention runs after every n-th row,
 * 1000 as in the real service; tests set 1).
 */
import type { CmsContext } from '../context';
import type { RecordedEvent } from '../content/events';
import { loadPage } from '../content/serialize';
import { AuditStore, type AuditRow } from './audit-store';
import { currentOrigin } from './request-context';

export interface AuditKnobs {
  enabled: boolean;
  available: boolean;
  coverage: 'standard' | 'detailed';
  retentionDays: number;
  retentionMaxRows: number;
  anonymizeIp: boolean;
  maxPerPage: number;
  pruneEvery: number;
}

export const DEFAULT_AUDIT_KNOBS: AuditKnobs = {
  enabled: false,
  available: true,
  coverage: 'standard',
  retentionDays: 90,
  retentionMaxRows: 100_000,
  anonymizeIp: false,
  maxPerPage: 1000,
  pruneEvery: 1000,
};

type Severity = AuditRow['severity'];

/** API event → [code, severity], after the real service's table; the core upgrade is named per flavour. */
const CODES: Record<string, [string, Severity]> = {
  onApiUserLogin: ['user.login', 'info'],
  onApiUserLoginFailure: ['user.login.failed', 'warning'],
  onApiUserLogout: ['user.logout', 'info'],
  onApiPasswordReset: ['user.password.reset', 'notice'],
  onApiPageCreated: ['page.create', 'info'],
  onApiPageUpdated: ['page.update', 'info'],
  onApiPageDeleted: ['page.delete', 'notice'],
  onApiPageMoved: ['page.move', 'info'],
  onApiPageTranslated: ['page.translate', 'info'],
  onApiPagesReordered: ['pages.reorder', 'info'],
  onApiMediaUploaded: ['media.upload', 'info'],
  onApiMediaDeleted: ['media.delete', 'notice'],
  onApiMediaMetadataUpdated: ['media.metadata.update', 'info'],
  onApiMediaMetadataDeleted: ['media.metadata.delete', 'notice'],
  onApiUserCreated: ['user.create', 'notice'],
  onApiUserUpdated: ['user.update', 'notice'],
  onApiUserDeleted: ['user.delete', 'warning'],
  onApiGroupCreated: ['group.create', 'notice'],
  onApiGroupUpdated: ['group.update', 'notice'],
  onApiGroupDeleted: ['group.delete', 'warning'],
  onApiConfigUpdated: ['config.update', 'notice'],
  onApiDemoBaselineCaptured: ['demo.baseline.capture', 'notice'],
  onApiDemoReset: ['demo.reset', 'warning'],
  onApiPackageInstalled: ['gpm.install', 'notice'],
  onApiPackageUpdated: ['gpm.update', 'notice'],
  onApiPackageRemoved: ['gpm.remove', 'warning'],
  onApiGravUpgraded: ['grav.upgrade', 'warning'],
  onApiCmsUpgraded: ['cms.upgrade', 'warning'],
};

const HINTS = ['method', 'reason', 'old_route', 'new_route', 'lang', 'version', 'bytes'] as const;
const CONTENT_MAX = 8000;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
const obj = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

export class AuditTrail {
  readonly store: AuditStore;
  readonly knobs: AuditKnobs;
  /** the before-values of a page update in progress, by `route|lang` (detailed coverage) */
  private snapshots = new Map<string, { keys: string[]; before: Record<string, unknown> }>();

  constructor(private readonly ctx: Pick<CmsContext, 'flavor' | 'clock' | 'dataDir' | 'accounts' | 'content'>, knobs: Partial<AuditKnobs> = {}) {
    this.store = new AuditStore(ctx.dataDir);
    this.knobs = { ...DEFAULT_AUDIT_KNOBS, ...knobs };
  }

  /** Whether the trail records and its routes answer (the real service: the setting and SQLite both). */
  get on(): boolean {
    return this.knobs.enabled && this.knobs.available;
  }

  /** The EventLog listener. */
  onEvent(event: RecordedEvent): void {
    if (!this.on) return;
    if (event.name === 'onApiBeforePageUpdate') {
      if (this.knobs.coverage === 'detailed') this.snapshot(event.data);
      return;
    }
    if (event.name === 'onApiCmsUpgraded' && this.ctx.flavor === 'real') return;
    if (event.name === 'onApiGravUpgraded' && this.ctx.flavor === 'spec') return;
    const code = CODES[event.name];
    if (!code) return;
    const row = this.rowOf(event, code);
    const id = this.store.append(row);
    if (this.knobs.pruneEvery > 0 && id % this.knobs.pruneEvery === 0) this.prune();
  }

  prune(): number {
    return this.store.prune(this.ctx.clock.now(), this.knobs.retentionDays, this.knobs.retentionMaxRows);
  }

  private rowOf(event: RecordedEvent, [code, severity]: [string, Severity]): AuditRow {
    const data = event.data;
    const origin = currentOrigin();
    let actorId = origin?.actorId ?? null;
    let actorName = origin?.actorName ?? null;
    let actorRoles = origin?.actorRoles ?? [];
    const user = obj(data.user);
    // the real service takes the actor from an event's `user` (so a user event names its subject);
    // a login, logout or password reset has no other caller in either flavour
    if (user && (this.ctx.flavor === 'real' || actorId === null)) {
      const account = str(user.username) ? this.ctx.accounts.get(String(user.username)) : null;
      actorId = str(user.username);
      actorName = account?.fullname || actorId;
      actorRoles = account?.groups ?? [];
    } else if (actorId === null && str(data.username)) {
      // a failed login: both hold the tried username
      actorId = actorName = str(data.username);
    }
    const [targetType, targetId] = targetOf(event.name, data);
    const context: Record<string, unknown> = {};
    for (const key of HINTS) {
      const v = data[key];
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') context[key] = v;
    }
    if (this.knobs.coverage === 'detailed' && event.name === 'onApiPageUpdated') {
      const changes = this.changes(data);
      if (changes) context.changes = changes;
    }
    const ip = (str(data.ip) ?? origin?.ip ?? '').replace(/^::ffff:/, '');
    return {
      ts: this.ctx.clock.now(),
      event: code,
      severity,
      actor_id: actorId,
      actor_name: actorName,
      actor_roles: actorRoles,
      auth_method: origin?.authMethod ?? null,
      ip: ip ? (this.knobs.anonymizeIp ? anonymizeIp(ip) : ip) : null,
      user_agent: origin?.userAgent || null,
      target_type: targetType,
      target_id: targetId,
      status: null,
      context,
    };
  }

  /** The fields a page update names, as the page holds them before the write. */
  private snapshot(data: Record<string, unknown>): void {
    const page = obj(data.page);
    const patch = obj(data.data);
    if (!page || !patch || !str(page.route)) return;
    const current = this.pageFields(String(page.route), str(page.lang));
    if (!current) return;
    const keys = Object.keys(patch).flatMap((k) => (k === 'header' && obj(patch.header) ? Object.keys(obj(patch.header)!) : [k]));
    const before: Record<string, unknown> = {};
    for (const k of keys) if (k in current) before[k] = current[k];
    this.snapshots.set(`${String(page.route)}|${str(page.lang) ?? ''}`, { keys, before });
  }

  private changes(data: Record<string, unknown>): Record<string, { old: unknown; new: unknown }> | null {
    const page = obj(data.page);
    if (!page || !str(page.route)) return null;
    const key = `${String(page.route)}|${str(page.lang) ?? ''}`;
    const snap = this.snapshots.get(key);
    this.snapshots.delete(key);
    const after = snap && this.pageFields(String(page.route), str(page.lang));
    if (!snap || !after) return null;
    const diff: Record<string, { old: unknown; new: unknown }> = {};
    for (const k of snap.keys) {
      if (!(k in after)) continue;
      const old = snap.before[k] ?? null;
      if (old !== after[k]) diff[k] = { old, new: after[k] };
    }
    return Object.keys(diff).length ? diff : null;
  }

  /** A page's scalar header fields and its content (cut at 8000 characters), read from disk. */
  private pageFields(route: string, lang: string | null): Record<string, unknown> | null {
    try {
      const node = this.ctx.content.find(route);
      if (!node) return null;
      const p = loadPage(this.ctx.content, node, lang);
      const fields: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(p.header)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) fields[k] = v;
      fields.content = p.content.slice(0, CONTENT_MAX);
      return fields;
    } catch {
      return null;
    }
  }
}

function targetOf(name: string, data: Record<string, unknown>): [string | null, string | null] {
  const page = obj(data.page);
  if (name === 'onApiPagesReordered') return ['page', str(obj(data.parent)?.route) ?? str(data.parent)];
  if (name.startsWith('onApiPage')) return ['page', str(data.new_route) ?? str(data.route) ?? str(page?.route)];
  if (name.startsWith('onApiMedia')) {
    const files = Array.isArray(data.filenames) ? data.filenames.filter((f): f is string => typeof f === 'string') : [];
    return ['media', str(data.filename) ?? (files.length ? files.join(',') : null) ?? str(data.path) ?? str(data.name)];
  }
  if (name.startsWith('onApiUser') || name === 'onApiPasswordReset') return ['user', str(obj(data.user)?.username) ?? str(data.username)];
  if (name.startsWith('onApiGroup')) return ['group', str(data.name) ?? str(data.groupname)];
  if (name === 'onApiConfigUpdated') return ['config', str(data.scope)];
  if (name.startsWith('onApiPackage')) return ['package', str(data.package) ?? str(data.slug)];
  if (name === 'onApiGravUpgraded' || name === 'onApiCmsUpgraded') return [name === 'onApiGravUpgraded' ? 'grav' : 'cms', str(data.version) ?? str(data.new_version)];
  if (name.startsWith('onApiDemo')) return ['demo', null];
  return [null, null];
}

/** IPv4: the last octet zeroed; IPv6: everything past the first 48 bits zeroed. */
export function anonymizeIp(ip: string): string {
  const v4 = /^(\d+\.\d+\.\d+)\.\d+$/.exec(ip);
  if (v4) return `${v4[1]}.0`;
  if (ip.includes(':')) {
    const [head] = ip.split('::');
    const groups = (head ?? '').split(':').filter(Boolean).slice(0, 3);
    return `${groups.join(':')}::`;
  }
  return ip;
}
