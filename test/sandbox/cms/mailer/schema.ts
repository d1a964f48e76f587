/**
 * The mailer's tables (docs/mailer-audience.md, "Records"), in one SQLite file of the sandbox's
 * data folder (`mailer.sqlite`), as the real plugin keeps its own database. Deletes are secure
 * (`secure_delete`), so an erased address is not left in freed pages, and the write-ahead log is
 * truncated after an erasure (MailerStore.erase).
 *
 * A person's address is stored once, in `subscribers.email` (and in the message log rows
 * addressed to them, as the real plugin's message log keeps it); everywhere else they are their
 * id, or the SHA-256 of the lower-cased address (`email_hash`, suppressions, provider reports).
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

export const SCHEMA_VERSION = '1';

export const DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lists (
  id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL UNIQUE, name TEXT NOT NULL, description TEXT,
  double_opt_in INTEGER NOT NULL, public INTEGER NOT NULL, is_default INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL, from_name TEXT, from_email TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tags (
  id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL UNIQUE, label TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS subscribers (
  id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT NOT NULL, email_hash TEXT NOT NULL, name TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL, source TEXT NOT NULL, source_ref TEXT, language TEXT, import_id INTEGER,
  suppressed INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  consent_at INTEGER, consent_ip TEXT, consent_basis TEXT, confirmed_at INTEGER, unsubscribed_at INTEGER,
  left_by TEXT, left_via TEXT);
CREATE TABLE IF NOT EXISTS memberships (
  subscriber_id INTEGER NOT NULL, list_id INTEGER NOT NULL, status TEXT NOT NULL, since INTEGER NOT NULL,
  left_by TEXT, left_via TEXT, PRIMARY KEY (subscriber_id, list_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS subscriber_tags (
  subscriber_id INTEGER NOT NULL, tag_id INTEGER NOT NULL, PRIMARY KEY (subscriber_id, tag_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS consent (
  id INTEGER PRIMARY KEY AUTOINCREMENT, subscriber_id INTEGER NOT NULL, at INTEGER NOT NULL, action TEXT NOT NULL,
  list_id INTEGER, by TEXT NOT NULL, admin TEXT, note TEXT, ip TEXT, via TEXT);
CREATE TABLE IF NOT EXISTS campaigns (
  id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, status TEXT NOT NULL, segment_id INTEGER,
  list_ids TEXT NOT NULL DEFAULT '[]', created_at INTEGER NOT NULL, sent_at INTEGER, scheduled_at INTEGER,
  fields TEXT NOT NULL DEFAULT '{}', updated_at INTEGER, started_at INTEGER, paused_at INTEGER, canceled_at INTEGER,
  send_mark REAL, send_cursor INTEGER NOT NULL DEFAULT 0, sending_since INTEGER, stopped_at INTEGER, stop_reason TEXT,
  template_id INTEGER, ab_phase TEXT, ab_sample_size INTEGER, ab_sample_done_at INTEGER, ab_winner TEXT, ab_picked_at INTEGER,
  ab_decided_by TEXT, ab_result TEXT);
CREATE TABLE IF NOT EXISTS templates (
  id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, subject TEXT, preheader TEXT, body_md TEXT, layout TEXT NOT NULL DEFAULT 'store',
  is_active INTEGER NOT NULL DEFAULT 1, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ab_sample (
  campaign_id INTEGER NOT NULL, subscriber_id INTEGER NOT NULL, variant TEXT NOT NULL, PRIMARY KEY (campaign_id, subscriber_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sends (
  campaign_id INTEGER NOT NULL, subscriber_id INTEGER NOT NULL, status TEXT NOT NULL, sent_at INTEGER NOT NULL,
  opened_at INTEGER, clicked_at INTEGER, id INTEGER, attempts INTEGER NOT NULL DEFAULT 1, error TEXT,
  open_due INTEGER, click_due INTEGER, click_url TEXT, variant TEXT, PRIMARY KEY (campaign_id, subscriber_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS clicks (
  id INTEGER PRIMARY KEY AUTOINCREMENT, campaign_id INTEGER NOT NULL, subscriber_id INTEGER NOT NULL, url TEXT NOT NULL, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS suppressions (
  id INTEGER PRIMARY KEY AUTOINCREMENT, hash TEXT NOT NULL UNIQUE, reason TEXT NOT NULL, note TEXT, email_masked TEXT,
  erased INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY AUTOINCREMENT, subscriber_id INTEGER, email_hash TEXT NOT NULL, type TEXT NOT NULL, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT, subscriber_id INTEGER, email TEXT NOT NULL, kind TEXT NOT NULL, subject TEXT NOT NULL, at INTEGER NOT NULL,
  campaign_id INTEGER, body_html TEXT);
CREATE TABLE IF NOT EXISTS enrolments (
  id INTEGER PRIMARY KEY AUTOINCREMENT, flow_id INTEGER NOT NULL, subscriber_id INTEGER NOT NULL, status TEXT NOT NULL, at INTEGER NOT NULL,
  step_id INTEGER, due_at INTEGER, left_at INTEGER, exit_reason TEXT);
CREATE TABLE IF NOT EXISTS flows (
  id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, status TEXT NOT NULL, trigger TEXT NOT NULL, trigger_json TEXT,
  list_id INTEGER, segment_id INTEGER, allow_reentry INTEGER NOT NULL DEFAULT 0, steps TEXT NOT NULL DEFAULT '[]',
  step_seq INTEGER NOT NULL DEFAULT 0, recipe TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  activated_at INTEGER, paused_at INTEGER, resumed_at INTEGER);
CREATE TABLE IF NOT EXISTS providers (
  name TEXT PRIMARY KEY, secret_hash TEXT, secret_set_at INTEGER, webhook_id TEXT, setup_at INTEGER, setup_secret_hash TEXT);
CREATE TABLE IF NOT EXISTS segments (
  id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, description TEXT, list_id INTEGER, definition TEXT NOT NULL,
  count INTEGER, left_out INTEGER, counted_at INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS imports (
  id INTEGER PRIMARY KEY AUTOINCREMENT, file_name TEXT NOT NULL, status TEXT NOT NULL, list_id INTEGER, tag TEXT,
  basis TEXT NOT NULL, as_confirmed INTEGER NOT NULL, preset TEXT, mapping TEXT NOT NULL, rows_total INTEGER NOT NULL,
  rows_done INTEGER NOT NULL DEFAULT 0, counts TEXT NOT NULL, reasons TEXT NOT NULL, created_by TEXT,
  queued_at INTEGER NOT NULL, started_at INTEGER, finished_at INTEGER, error TEXT, spool TEXT);
CREATE TABLE IF NOT EXISTS import_seen (run TEXT NOT NULL, email TEXT NOT NULL, PRIMARY KEY (run, email)) WITHOUT ROWID;
`;

/** Indexes, made after a bulk seed (building them once is faster than keeping them up row by row). */
export const INDEXES = `
CREATE UNIQUE INDEX IF NOT EXISTS idx_sub_email ON subscribers (email);
CREATE INDEX IF NOT EXISTS idx_sub_status ON subscribers (status);
CREATE INDEX IF NOT EXISTS idx_sub_source ON subscribers (source);
CREATE INDEX IF NOT EXISTS idx_sub_hash ON subscribers (email_hash);
CREATE INDEX IF NOT EXISTS idx_mem_list ON memberships (list_id, status, subscriber_id);
CREATE INDEX IF NOT EXISTS idx_tags_tag ON subscriber_tags (tag_id, subscriber_id);
CREATE INDEX IF NOT EXISTS idx_consent_sub ON consent (subscriber_id);
CREATE INDEX IF NOT EXISTS idx_sends_sub ON sends (subscriber_id, opened_at);
CREATE INDEX IF NOT EXISTS idx_clicks_sub ON clicks (subscriber_id);
CREATE INDEX IF NOT EXISTS idx_events_sub ON events (subscriber_id);
CREATE INDEX IF NOT EXISTS idx_events_hash ON events (email_hash);
CREATE INDEX IF NOT EXISTS idx_messages_email ON messages (email);
CREATE INDEX IF NOT EXISTS idx_messages_campaign ON messages (campaign_id, subscriber_id);
CREATE INDEX IF NOT EXISTS idx_sends_id ON sends (id);
CREATE INDEX IF NOT EXISTS idx_sends_open_due ON sends (open_due) WHERE opened_at IS NULL AND open_due IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_sends_click_due ON sends (click_due) WHERE clicked_at IS NULL AND click_due IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_enrol_sub ON enrolments (subscriber_id);
CREATE INDEX IF NOT EXISTS idx_enrol_flow ON enrolments (flow_id, status, due_at);
`;

export const INDEX_NAMES = [...INDEXES.matchAll(/CREATE INDEX IF NOT EXISTS (\w+)/g)].map((m) => m[1]!);

/** SHA-256 hex of the trimmed, lower-cased address: how a suppression and a provider report know it. */
export function emailHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

/** `a***@example.com`: the first character of the local part and the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/** Columns added since a data folder's file was made (the sending worker's, the subject test's, templates'): added where missing, so an old file opens. */
const ADDED: [table: string, column: string, type: string][] = [
  ['campaigns', 'send_mark', 'REAL'],
  ['campaigns', 'send_cursor', 'INTEGER NOT NULL DEFAULT 0'],
  ['campaigns', 'sending_since', 'INTEGER'],
  ['campaigns', 'stopped_at', 'INTEGER'],
  ['campaigns', 'stop_reason', 'TEXT'],
  ['sends', 'id', 'INTEGER'],
  ['sends', 'attempts', 'INTEGER NOT NULL DEFAULT 1'],
  ['sends', 'error', 'TEXT'],
  ['sends', 'open_due', 'INTEGER'],
  ['sends', 'click_due', 'INTEGER'],
  ['sends', 'click_url', 'TEXT'],
  ['sends', 'variant', 'TEXT'],
  ['campaigns', 'template_id', 'INTEGER'],
  ['campaigns', 'ab_phase', 'TEXT'],
  ['campaigns', 'ab_sample_size', 'INTEGER'],
  ['campaigns', 'ab_sample_done_at', 'INTEGER'],
  ['campaigns', 'ab_winner', 'TEXT'],
  ['campaigns', 'ab_picked_at', 'INTEGER'],
  ['campaigns', 'ab_decided_by', 'TEXT'],
  ['campaigns', 'ab_result', 'TEXT'],
  ['messages', 'campaign_id', 'INTEGER'],
  ['messages', 'body_html', 'TEXT'],
  ['messages', 'flow_id', 'INTEGER'],
  ['enrolments', 'step_id', 'INTEGER'],
  ['enrolments', 'due_at', 'INTEGER'],
  ['enrolments', 'left_at', 'INTEGER'],
  ['enrolments', 'exit_reason', 'TEXT'],
];

function addMissingColumns(db: Database.Database): void {
  for (const [table, column, type] of ADDED) {
    const has = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some((c) => c.name === column);
    if (!has) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
  // sends made before they had ids
  if (db.prepare('SELECT 1 FROM sends WHERE id IS NULL LIMIT 1').get()) {
    db.exec(`CREATE TEMP TABLE send_ids (c INTEGER, s INTEGER, n INTEGER, PRIMARY KEY (c, s)) WITHOUT ROWID;
      INSERT INTO send_ids SELECT campaign_id, subscriber_id, (SELECT coalesce(max(id), 0) FROM sends) + row_number() OVER (ORDER BY campaign_id, subscriber_id) FROM sends WHERE id IS NULL;
      UPDATE sends SET id = (SELECT n FROM send_ids WHERE c = sends.campaign_id AND s = sends.subscriber_id) WHERE id IS NULL;
      DROP TABLE send_ids;`);
  }
}

export function openMailerDb(dataDir: string): Database.Database {
  const db = new Database(join(dataDir, 'mailer.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('secure_delete = ON');
  // a sandbox's store is disposable: no waiting on the disk for each commit
  db.pragma('synchronous = OFF');
  db.function('sha256', { deterministic: true }, (email: unknown) => emailHash(String(email)));
  db.function('mask_email', { deterministic: true }, (email: unknown) => maskEmail(String(email)));
  db.exec(DDL);
  addMissingColumns(db);
  db.exec(INDEXES);
  return db;
}
