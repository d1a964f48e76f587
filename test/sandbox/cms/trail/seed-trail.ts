/**
 * A large audit trail for the benchmarks: `count` plausible rows (page, media, user, config and
 * package events by a handful of actors from a few addresses), spread evenly over the last `days`
 * days of sandbox time, oldest first. Each column is an SQL expression over the row number, so
 * SQLite generates the rows itself (AuditStore.seed): a million in seconds, none held in memory.
 */
import type { AuditStore } from './audit-store';

/** [code, severity, target type]; row i is event i % 10 */
const EVENTS: [string, string, string][] = [
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
/** [id, name, roles (comma-joined, as stored)]; row i is actor (i * 7) % 4 */
const ACTORS: [string, string, string][] = [
  ['admin', 'Ada Admin', 'administrators'],
  ['editor', 'Eddie Editor', 'editors'],
  ['writer', 'Wren Writer', 'editors'],
  ['publisher', 'Pat Publisher', ''],
];
const AGENTS = ['Mozilla/5.0 (X11; Linux x86_64)', 'Sitedesk/1.0', 'curl/8.5.0'];

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** `CASE <index> WHEN 0 THEN … END` over a list of literals */
const pick = (index: string, values: string[]) => `CASE ${index} ${values.map((v, k) => `WHEN ${k} THEN ${v === '' ? 'NULL' : lit(v)}`).join(' ')} END`;

export function seedTrail(store: AuditStore, nowMs: number, count: number, days = 30): void {
  const span = days * 86_400_000;
  const ev = 'i % 10';
  const actor = '(i * 7) % 4';
  const target = `CASE ${ev} WHEN 0 THEN '/blog/post-' || (i % 5000) WHEN 1 THEN '/blog/post-' || (i % 5000) WHEN 2 THEN '/blog/post-' || (i % 5000)
    WHEN 3 THEN '/blog/post-' || (i % 5000) WHEN 4 THEN 'image-' || (i % 800) || '.jpg' WHEN 5 THEN 'image-' || (i % 800) || '.jpg'
    WHEN 7 THEN 'site' WHEN 8 THEN 'sitemap' ELSE ${pick(actor, ACTORS.map((a) => a[0]))} END`;
  store.seed(
    count,
    {
      ts: 'CAST(@start + i * @step AS INTEGER)',
      event: pick(ev, EVENTS.map((e) => e[0])),
      severity: pick(ev, EVENTS.map((e) => e[1])),
      actor_id: pick(actor, ACTORS.map((a) => a[0])),
      actor_name: pick(actor, ACTORS.map((a) => a[1])),
      actor_roles: pick(actor, ACTORS.map((a) => a[2])),
      auth_method: "CASE WHEN i % 3 = 0 THEN 'apikey' ELSE 'jwt' END",
      ip: "'203.0.113.' || ((i % 50) + 1)",
      user_agent: pick('i % 3', AGENTS),
      target_type: pick(ev, EVENTS.map((e) => e[2])),
      target_id: target,
      status: 'NULL',
      context: `CASE ${ev} WHEN 3 THEN json_object('old_route', '/drafts/post-' || (i % 5000), 'new_route', '/blog/post-' || (i % 5000)) WHEN 0 THEN json_object('lang', 'en') ELSE NULL END`,
    },
    { start: nowMs - span, step: count > 0 ? span / count : 0 },
  );
}
