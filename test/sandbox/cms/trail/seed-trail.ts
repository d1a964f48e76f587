/**
 * A large audit trail for the benchmarks: `count` plausible rows (page, media, user, config and
 * package events by a handful of actors from a few addresses), spread evenly over the last `days`
 * days of sandbox time, oldest first, generated one at a time from the row number so a million of
 * them is written in seconds without being held in memory (AuditStore.seed).
 */
import type { AuditRow } from './audit-store';
import type { AuditStore } from './audit-store';

const EVENTS: [string, AuditRow['severity'], string][] = [
  ['page.update', 'info', 'page'],
  ['page.create', 'info', 'page'],
  ['page.delete', 'notice', 'page'],
  ['page.move', 'info', 'page'],
  ['media.upload', 'info', 'media'],
  ['media.delete', 'notice', 'media'],
  ['user.update', 'notice', 'user'],
  ['config.update', 'notice', 'config'],
  ['gpm.install', 'notice', 'package'],
  ['user.login.failed', 'warning', 'user'],
];
const ACTORS: [string, string, string[]][] = [
  ['admin', 'Ada Admin', ['administrators']],
  ['editor', 'Eddie Editor', ['editors']],
  ['writer', 'Wren Writer', ['editors']],
  ['publisher', 'Pat Publisher', []],
];
const AGENTS = ['Mozilla/5.0 (X11; Linux x86_64)', 'Sitedesk/1.0', 'curl/8.5.0'];

export function seedTrail(store: AuditStore, nowMs: number, count: number, days = 30): void {
  const span = days * 86_400_000;
  const start = nowMs - span;
  const step = count > 0 ? span / count : 0;
  store.seed(count, (i) => {
    const [event, severity, targetType] = EVENTS[i % EVENTS.length]!;
    const [id, name, roles] = ACTORS[(i * 7) % ACTORS.length]!;
    const target = targetType === 'page' ? `/blog/post-${i % 5000}` : targetType === 'media' ? `image-${i % 800}.jpg` : targetType === 'config' ? 'site' : targetType === 'package' ? 'sitemap' : id;
    return {
      ts: Math.floor(start + i * step),
      event,
      severity,
      actor_id: id,
      actor_name: name,
      actor_roles: roles,
      auth_method: i % 3 === 0 ? 'apikey' : 'jwt',
      ip: `203.0.113.${(i % 50) + 1}`,
      user_agent: AGENTS[i % AGENTS.length]!,
      target_type: targetType,
      target_id: target,
      status: null,
      context: event === 'page.move' ? { old_route: `/drafts/post-${i % 5000}`, new_route: target } : event === 'page.update' ? { lang: 'en' } : null,
    };
  });
}
