/**
 * The mailer's starting audience, deterministic for a count and a time: 4 lists, 8 tags, `count`
 * people (20,000 by default; the benchmarks' generator takes 500,000) with every status, source
 * and language, their memberships, tags and consent history, 4 sent campaigns with their sends,
 * opens and clicks, a draft and a scheduled campaign pointing at segments, 3 segments counted,
 * suppressions of every reason (one whose address was erased), provider reports, confirmation
 * messages, automation places, 2 past imports and 4 templates (one switched off).
 *
 * Like the audit trail's seed, every row is made by SQLite from the row number: each column is
 * an SQL expression of `i`, so half a million people take seconds and none is held in memory.
 * Bucket choices hash `i` with one multiplier per question (`h(k)`), so they do not move together.
 */
import type Database from 'better-sqlite3';
import { RECIPES } from './flows';
import { emailHash, INDEXES, INDEX_NAMES, maskEmail } from './schema';

const FIRST = ['Ada', 'Bruno', 'Chloé', 'Dmitri', 'Esther', 'Farid', 'Greta', 'Hiro', 'Inès', 'Jonas', 'Kemal', 'Lena', 'Mateo', 'Nadia', 'Oskar', 'Priya', 'Quentin', 'Rosa', 'Sven', 'Tamar', 'Umar', 'Vera', 'Wim', 'Xenia', 'Yusuf', 'Zoë', 'Anouk', 'Bao', 'Carmen', 'Dario', 'Elif', 'Finn', 'Gabi', 'Hana', 'Ivo', 'Jade', 'Karl', 'Lucía', 'Milan', 'Noor'];
const LAST = ['Martin', 'Keller', 'Dubois', 'Ivanov', 'Cohen', 'Haddad', 'Berg', 'Tanaka', 'Silva', 'Weber', 'Yılmaz', 'Novak', 'García', 'Rahman', 'Lund', 'Shah', 'Moreau', 'Rossi', 'Nilsson', 'Levi', 'Farouk', 'Petrova', 'de Vries', 'Popescu', 'Demir', 'Laurent', 'Jansen', 'Nguyen', 'López', 'Ferrari', 'Kaya', 'Olsen', 'Schmid', 'Sato', 'Horvat', 'Moreno', 'Brennan', 'Okafor', 'Lindqvist', 'Mendes'];
/** reserved names only (RFC 2606): nobody's real address */
const DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example.com', 'post.example', 'inbox.example'];
const ascii = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ı/g, 'i').replace(/[^A-Za-z]/g, '').toLowerCase();

const DAY = 86_400;
/** the seed's people joined over the last three years */
const SPAN = 3 * 365 * DAY;

export const SEED_LISTS = [
  { code: 'newsletter', name: 'Newsletter', description: 'News from the site, about once a month.', double_opt_in: 1, public: 1, is_default: 1, position: 1, from_name: null, from_email: null },
  { code: 'product-updates', name: 'Product updates', description: 'Releases and what changed.', double_opt_in: 0, public: 1, is_default: 0, position: 2, from_name: null, from_email: null },
  { code: 'events', name: 'Events', description: 'Meetups, webinars and the yearly conference.', double_opt_in: 1, public: 1, is_default: 0, position: 3, from_name: 'Events team', from_email: 'events@site.example' },
  { code: 'partners', name: 'Partner offers', description: null, double_opt_in: 0, public: 0, is_default: 0, position: 4, from_name: 'Partnerships', from_email: 'partners@site.example' },
] as const;

/** [code, label, percent of people carrying it] */
export const SEED_TAGS: [string, string, number][] = [
  ['vip', 'VIP', 3],
  ['customer', 'Customer', 15],
  ['webinar-2024', 'Webinar 2024', 8],
  ['early-adopter', 'Early adopter', 5],
  ['press', 'Press', 1],
  ['beta-tester', 'Beta tester', 4],
  ['donor', 'Donor', 6],
  ['volunteer', 'Volunteer', 2],
];

/** the four sent campaigns: [name, days ago, list id] */
const SENT: [string, number, number][] = [
  ['Spring news', 150, 1],
  ['Product update 3.2', 100, 2],
  ['Summer events', 60, 3],
  ['Autumn news', 20, 1],
];

export const SEED_SEGMENTS = [
  { name: 'Quiet readers', description: 'On the newsletter for half a year and no opens in 90 days.', list_id: 1, definition: { all: [{ field: 'not_opened_in_days', op: 'gte', value: 90 }, { field: 'subscribed_at', op: 'older_than_days', value: 180 }] } },
  { name: 'New this month', description: null, list_id: null, definition: { all: [{ field: 'subscribed_at', op: 'within_days', value: 30 }] } },
  { name: 'German and French VIPs', description: 'VIPs reading in German or French.', list_id: null, definition: { all: [{ field: 'tag', op: 'is', value: 1 }], any: [{ field: 'language', op: 'is', value: 'de' }, { field: 'language', op: 'is', value: 'fr' }] } },
];

/** the templates campaigns start from; the last is switched off (kept, not offered) */
export const SEED_TEMPLATES = [
  { name: 'Monthly newsletter', subject: "This month's news", preheader: 'What happened this month', body_md: '# This month\n\nThree things worth knowing.\n\n- [Read the news](https://site.example/news)\n- [Upcoming events](https://site.example/events)\n\nSee you next month.', layout: 'store', is_active: 1 },
  { name: 'Event invitation', subject: "You're invited", preheader: 'Save the date', body_md: '# Join us\n\nWe would love to see you there.\n\n[Get your ticket](https://site.example/tickets)', layout: 'store', is_active: 1 },
  { name: 'Personal note', subject: null, preheader: null, body_md: 'Hello,\n\nA short note from the team.\n\nThanks for reading.', layout: 'plain', is_active: 1 },
  { name: 'Old announcement', subject: 'An announcement', preheader: null, body_md: '# News\n\nSomething happened.', layout: 'store', is_active: 0 },
] as const;

const MULTIPLIERS = [
  2654435761, 2246822519, 3266489917, 668265263, 374761393, 1597334677, 2869860233, 3812015801, 1181783497, 2096658539, 1654615997, 3561130997, 709607071, 2300942327, 1903986017, 4130223781, 1431577327,
  2719854437, 3917372123, 855141877, 2003717911, 1118008663, 3031325239, 1762291217, 2586340453, 3397734179, 1228519691, 2478190333, 3673441667, 971350211, 1879983659, 2987764489, 3300119447, 1548710923,
  2791306151, 3145681811, 1054601327, 2249815709, 3533612419, 1790318143,
];
/** A number 0 … 1000002 for row `i` and question `k` (expression over `col`, default i). */
const h = (k: number, col = 'i') => `((${col} * ${MULTIPLIERS[k % MULTIPLIERS.length]}) % 1000003)`;
const lit = (s: string | null) => (s === null ? 'NULL' : `'${s.replace(/'/g, "''")}'`);
const pick = (index: string, values: (string | null)[]) => `CASE ${index} ${values.map((v, k) => `WHEN ${k} THEN ${lit(v)}`).join(' ')} END`;

export interface SeedResult {
  subscribers: number;
  ms: number;
}

/**
 * Fills an empty store: `count` people, the newest joined now (`nowSec`). The tables must be
 * empty (MailerStore.reset drops and recreates them first).
 */
export function seedMailer(db: Database.Database, count: number, nowSec: number, site = 'Sitedesk Sandbox'): SeedResult {
  const started = performance.now();
  const start = nowSec - SPAN;
  const step = count > 1 ? SPAN / count : 0;
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -131072');
  for (const name of INDEX_NAMES) db.exec(`DROP INDEX IF EXISTS ${name}`);
  db.exec('BEGIN');
  try {
    const list = db.prepare('INSERT INTO lists (code, name, description, double_opt_in, public, is_default, position, from_name, from_email, created_at, updated_at) VALUES (@code, @name, @description, @double_opt_in, @public, @is_default, @position, @from_name, @from_email, @at, @at)');
    for (const l of SEED_LISTS) list.run({ ...l, at: start - 30 * DAY });
    const tag = db.prepare('INSERT INTO tags (code, label, created_at) VALUES (?, ?, ?)');
    for (const [code, label] of SEED_TAGS) tag.run(code, label, start - 20 * DAY);

    // two past imports; the people with source `import` came in with one of them
    const importAt = [nowSec - 400 * DAY, nowSec - 90 * DAY];
    const imp = db.prepare(`INSERT INTO imports (file_name, status, list_id, tag, basis, as_confirmed, preset, mapping, rows_total, rows_done, counts, reasons, created_by, queued_at, started_at, finished_at)
      VALUES (?, 'finished', ?, ?, ?, 1, ?, ?, 0, 0, '{}', '{}', 'admin', ?, ?, ?)`);
    imp.run('old-site-2019-2024.csv', 1, null, 'Signed up on the old site, 2019 to 2024', 'mailchimp', JSON.stringify({ email: 'Email Address', first_name: 'First Name', last_name: 'Last Name', tags: 'TAGS' }), importAt[0], importAt[0], importAt[0]! + 40);
    imp.run('webinar-leads.csv', 3, 'webinar-2024', 'Registered for the 2024 webinar and ticked the box', null, JSON.stringify({ email: 'email', name: 'name' }), importAt[1], importAt[1], importAt[1]! + 12);

    // names and domains as small tables joined by a hashed index (faster than CASE over 40 values)
    db.exec('CREATE TEMP TABLE IF NOT EXISTS seed_first (k INTEGER PRIMARY KEY, name TEXT, ascii TEXT); DELETE FROM seed_first;');
    db.exec('CREATE TEMP TABLE IF NOT EXISTS seed_last (k INTEGER PRIMARY KEY, name TEXT, ascii TEXT); DELETE FROM seed_last;');
    db.exec('CREATE TEMP TABLE IF NOT EXISTS seed_domain (k INTEGER PRIMARY KEY, name TEXT); DELETE FROM seed_domain;');
    FIRST.forEach((n, k) => db.prepare('INSERT INTO seed_first VALUES (?, ?, ?)').run(k, n, ascii(n)));
    LAST.forEach((n, k) => db.prepare('INSERT INTO seed_last VALUES (?, ?, ?)').run(k, n, ascii(n)));
    DOMAINS.forEach((n, k) => db.prepare('INSERT INTO seed_domain VALUES (?, ?)').run(k, n));
    const created = 'CAST(@start + i * @step AS INTEGER)';
    db.prepare(
      `INSERT INTO subscribers (id, email, email_hash, name, status, source, source_ref, language, import_id, created_at, updated_at,
         consent_at, consent_ip, consent_basis, confirmed_at, unsubscribed_at, left_by, left_via)
       WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < @count),
       hashed AS (SELECT i, ${h(0)} % 1000 AS rs, ${h(1)} % 100 AS rsrc, ${created} AS created,
         ${h(3)} % ${FIRST.length} AS fk, ${h(4)} % ${LAST.length} AS lk, ${h(5)} % ${DOMAINS.length} AS dk FROM seq),
       base AS (SELECT i, f.ascii || '.' || l.ascii || i || '@' || d.name AS email, f.name || ' ' || l.name AS name,
         CASE WHEN rs < 780 THEN 'subscribed' WHEN rs < 860 THEN 'pending' WHEN rs < 960 THEN 'unsubscribed' WHEN rs < 985 THEN 'bounced' ELSE 'complained' END AS status,
         CASE WHEN rsrc < 55 THEN 'form' WHEN rsrc < 80 THEN 'import' WHEN rsrc < 90 THEN 'api' WHEN rsrc < 97 THEN 'admin' ELSE 'automation' END AS source,
         created
         FROM hashed JOIN seed_first f ON f.k = fk JOIN seed_last l ON l.k = lk JOIN seed_domain d ON d.k = dk)
       SELECT i, email, sha256(email), name, status, source,
         CASE WHEN source = 'form' THEN ${pick(`${h(13)} % 3`, ['footer', 'sidebar', 'popup'])} END,
         ${pick(`${h(2)} % 10`, ['en', 'en', 'en', 'en', 'en', 'de', 'de', 'fr', 'es', null])},
         CASE WHEN source = 'import' THEN (CASE WHEN created < ${importAt[1]} THEN 1 ELSE 2 END) END,
         created, min(@now, created + (${h(14)} % 40) * 86400 * (CASE WHEN status = 'subscribed' THEN 0 ELSE 1 END)),
         CASE WHEN status = 'pending' AND source = 'admin' THEN NULL ELSE created END,
         CASE WHEN source IN ('form', 'api') THEN '198.51.100.' || (${h(15)} % 250 + 1) END,
         CASE source WHEN 'import' THEN (CASE WHEN created < ${importAt[1]} THEN 'Signed up on the old site, 2019 to 2024' ELSE 'Registered for the 2024 webinar and ticked the box' END)
           WHEN 'admin' THEN 'Asked at the spring fair, in writing' ELSE NULL END,
         CASE WHEN status <> 'pending' AND source IN ('form', 'api') THEN min(@now, created + 600) END,
         CASE WHEN status IN ('unsubscribed', 'bounced', 'complained') THEN min(@now, created + (${h(14)} % 40 + 1) * 86400) END,
         CASE WHEN status = 'unsubscribed' THEN (CASE WHEN ${h(11)} % 10 < 8 THEN 'self' ELSE 'site' END) WHEN status = 'bounced' THEN 'site' WHEN status = 'complained' THEN 'self' END,
         CASE WHEN status = 'unsubscribed' THEN (CASE WHEN ${h(11)} % 10 < 8 THEN ${pick(`${h(12)} % 3`, ['link', 'list_unsubscribe', 'preferences'])} ELSE 'site' END)
           WHEN status = 'bounced' THEN 'bounce' WHEN status = 'complained' THEN 'complaint' END
       FROM base`,
    ).run({ count, start, step, now: nowSec });

    // memberships: the newsletter for most, the others for fewer; pending people wait on the newsletter only
    const onList = [`${h(6, 's.id')} % 10 < 8`, `${h(7, 's.id')} % 10 < 4`, `${h(8, 's.id')} % 10 < 2`, `${h(9, 's.id')} % 10 < 1`];
    const noneOfOthers = `NOT (${onList[1]} OR ${onList[2]} OR ${onList[3]})`;
    for (let l = 1; l <= 4; l++) {
      const joins = l === 1 ? `(s.status = 'pending' OR ${onList[0]} OR ${noneOfOthers})` : `(s.status <> 'pending' AND ${onList[l - 1]})`;
      // someone subscribed who is also on the newsletter may have left one other list themselves
      const leftOne = l > 1 ? `(s.status = 'subscribed' AND (${onList[0]} OR ${noneOfOthers}) AND ${h(20 + l, 's.id')} % 25 = 0)` : '0';
      db.prepare(
        `INSERT INTO memberships (subscriber_id, list_id, status, since, left_by, left_via)
         SELECT s.id, ${l},
           CASE WHEN s.status = 'pending' THEN 'pending' WHEN s.status = 'subscribed' AND NOT ${leftOne} THEN 'subscribed' ELSE 'unsubscribed' END,
           min(${nowSec}, s.created_at + ${l === 1 ? 0 : `(${h(16 + l, 's.id')} % 60) * 86400`}),
           CASE WHEN ${leftOne} THEN 'self' WHEN s.status IN ('unsubscribed', 'bounced', 'complained') THEN s.left_by END,
           CASE WHEN ${leftOne} THEN 'preferences' WHEN s.status IN ('unsubscribed', 'bounced', 'complained') THEN s.left_via END
         FROM subscribers s WHERE ${joins}`,
      ).run();
    }
    // a joined-later list cannot start after the person left
    db.exec(`UPDATE memberships SET since = (SELECT created_at FROM subscribers WHERE id = subscriber_id) WHERE list_id > 1 AND since > coalesce((SELECT unsubscribed_at FROM subscribers WHERE id = subscriber_id), since)`);

    SEED_TAGS.forEach(([, , percent], k) => {
      db.prepare(`INSERT INTO subscriber_tags (subscriber_id, tag_id) SELECT id, ${k + 1} FROM subscribers WHERE ${h(24 + k, 'id')} % 100 < ${percent}`).run();
    });

    // the consent history: how each joined each list, confirmations, leaving
    db.exec(`INSERT INTO consent (subscriber_id, at, action, list_id, by, admin, note, ip, via)
      SELECT m.subscriber_id, m.since,
        CASE s.source WHEN 'form' THEN 'signed_up' WHEN 'api' THEN 'signed_up' WHEN 'automation' THEN 'automation_added'
          WHEN 'import' THEN (CASE WHEN m.status = 'pending' THEN 'imported_pending' ELSE 'imported' END)
          ELSE (CASE WHEN m.status = 'pending' THEN 'invited' ELSE 'added' END) END,
        m.list_id,
        CASE s.source WHEN 'form' THEN 'self' WHEN 'api' THEN 'self' WHEN 'automation' THEN 'automation' WHEN 'import' THEN 'import' ELSE 'site' END,
        CASE WHEN s.source = 'admin' THEN 'admin' END,
        CASE WHEN s.source IN ('admin', 'import') THEN s.consent_basis END,
        CASE WHEN s.source IN ('form', 'api') THEN s.consent_ip END, NULL
      FROM memberships m JOIN subscribers s ON s.id = m.subscriber_id`);
    db.exec(`INSERT INTO consent (subscriber_id, at, action, list_id, by, admin, note, ip, via)
      SELECT m.subscriber_id, min(${nowSec}, m.since + 600), 'confirmed', m.list_id, 'self', NULL, NULL, s.consent_ip, NULL
      FROM memberships m JOIN subscribers s ON s.id = m.subscriber_id JOIN lists l ON l.id = m.list_id
      WHERE l.double_opt_in = 1 AND m.status <> 'pending' AND s.source IN ('form', 'api')`);
    db.exec(`INSERT INTO consent (subscriber_id, at, action, list_id, by, admin, note, ip, via)
      SELECT m.subscriber_id, coalesce(s.unsubscribed_at, min(${nowSec}, m.since + 86400)), CASE WHEN m.left_by = 'self' THEN 'left' ELSE 'taken_off' END,
        m.list_id, coalesce(m.left_by, 'site'), CASE WHEN m.left_by = 'site' AND m.left_via = 'site' THEN 'admin' END, NULL,
        CASE WHEN m.left_by = 'self' THEN s.consent_ip END, m.left_via
      FROM memberships m JOIN subscribers s ON s.id = m.subscriber_id WHERE m.status = 'unsubscribed'`);

    // campaigns: four sent, a draft and a scheduled one pointing at segments
    const camp = db.prepare('INSERT INTO campaigns (name, status, segment_id, list_ids, created_at, sent_at, scheduled_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const [name, ago, listId] of SENT) camp.run(name, 'sent', null, JSON.stringify([listId]), nowSec - (ago + 3) * DAY, nowSec - ago * DAY, null);
    camp.run('Winter preview', 'draft', 1, JSON.stringify([1]), nowSec - 2 * DAY, null, null);
    camp.run('VIP evening', 'scheduled', 3, JSON.stringify([]), nowSec - 4 * DAY, null, nowSec + 5 * DAY);
    SENT.forEach(([, ago, listId], k) => {
      const sentAt = nowSec - ago * DAY;
      const opened = `${h(30 + k, 's.id')} % 100 < 42`;
      const clicked = `${h(34 + k, 's.id')} % 100 < 11`;
      const firstId = (db.prepare('SELECT coalesce(max(id), 0) AS n FROM sends').get() as { n: number }).n;
      db.prepare(
        `INSERT INTO sends (id, campaign_id, subscriber_id, status, sent_at, opened_at, clicked_at)
         SELECT ${firstId} + row_number() OVER (ORDER BY s.id), ${k + 1}, s.id,
           CASE WHEN s.status = 'bounced' THEN 'bounced' WHEN ${opened} AND ${clicked} THEN 'clicked' WHEN ${opened} THEN 'opened' ELSE 'delivered' END,
           ${sentAt},
           CASE WHEN s.status <> 'bounced' AND ${opened} THEN ${sentAt} + (${h(38, 's.id')} % 48) * 1800 END,
           CASE WHEN s.status <> 'bounced' AND ${opened} AND ${clicked} THEN ${sentAt} + (${h(38, 's.id')} % 48) * 1800 + 120 END
         FROM memberships m JOIN subscribers s ON s.id = m.subscriber_id
         WHERE m.list_id = ${listId} AND m.status <> 'pending' AND m.since < ${sentAt - DAY}
           AND (s.unsubscribed_at IS NULL OR s.unsubscribed_at > ${sentAt})`,
      ).run();
    });
    db.exec(`INSERT INTO clicks (campaign_id, subscriber_id, url, at)
      SELECT campaign_id, subscriber_id, ${pick(`${h(39, 'subscriber_id')} % 3`, ['https://site.example/news', 'https://site.example/events', 'https://site.example/shop'])}, clicked_at
      FROM sends WHERE clicked_at IS NOT NULL`);

    // suppressions: every bounce and complaint; some who left asked never to be mailed; addresses
    // that are nobody's subscriber; one whose address was erased (only its hash is left)
    db.exec(`INSERT INTO suppressions (hash, reason, note, email_masked, erased, created_at)
      SELECT email_hash, CASE status WHEN 'bounced' THEN 'hard_bounce' ELSE 'complaint' END, NULL, mask_email(email), 0, unsubscribed_at
      FROM subscribers WHERE status IN ('bounced', 'complained')`);
    db.exec(`INSERT INTO suppressions (hash, reason, note, email_masked, erased, created_at)
      SELECT email_hash, 'manual', 'Asked by email never to be mailed again', mask_email(email), 0, unsubscribed_at + 3600
      FROM subscribers WHERE status = 'unsubscribed' AND ${h(19, 'id')} % 50 = 0`);
    const extra = db.prepare('INSERT INTO suppressions (hash, reason, note, email_masked, erased, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    const others = Math.max(5, Math.floor(count / 400));
    for (let k = 1; k <= others; k++) {
      const address = `blocked${k}@example.net`;
      extra.run(emailHash(address), 'manual', k % 3 === 0 ? 'Asked at the counter' : null, maskEmail(address), 0, nowSec - (k % 300) * DAY);
    }
    for (let k = 1; k <= Math.max(2, Math.floor(count / 2000)); k++) {
      const address = `nobody${k}@invalid.example`;
      extra.run(emailHash(address), 'invalid', 'Not a real mailbox', maskEmail(address), 0, nowSec - (k % 200) * DAY);
    }
    extra.run(emailHash('forgotten@example.org'), 'complaint', null, null, 1, nowSec - 200 * DAY);
    db.exec('UPDATE subscribers SET suppressed = 1 WHERE email_hash IN (SELECT hash FROM suppressions)');

    // what the mail provider reported, keyed by the address's hash
    db.exec(`INSERT INTO events (subscriber_id, email_hash, type, at)
      SELECT id, email_hash, CASE status WHEN 'bounced' THEN 'bounce' ELSE 'complaint' END, unsubscribed_at FROM subscribers WHERE status IN ('bounced', 'complained')`);
    // the message log: confirmation emails to those waiting
    db.prepare(`INSERT INTO messages (subscriber_id, email, kind, subject, at)
      SELECT id, email, 'confirmation', ?, created_at FROM subscribers WHERE status = 'pending'`).run(`Please confirm your email address for ${site}`);
    // the welcome automation (the recipe's, turned on a month ago, paused an hour ago so the seed's
    // outbox stays as it is until somebody resumes it) and its places for the last month's
    // newcomers: those of the last two days in its wait, the rest through it
    const welcome = RECIPES.find((r) => r.key === 'welcome')!;
    const steps = welcome.steps.map((st, k) => ({ ...st, id: k + 1 }));
    const wait = steps.find((st) => st.type === 'wait') as unknown as { id: number; minutes: number };
    db.prepare(`INSERT INTO flows (id, name, status, trigger, trigger_json, list_id, segment_id, allow_reentry, steps, step_seq, recipe, created_at, updated_at, activated_at, paused_at)
      VALUES (1, ?, 'paused', ?, NULL, NULL, NULL, 0, ?, ?, ?, ?, ?, ?, ?)`).run(welcome.name, welcome.trigger, JSON.stringify(steps), steps.length, welcome.key, nowSec - 31 * DAY, nowSec - 3600, nowSec - 30 * DAY, nowSec - 3600);
    db.exec(`INSERT INTO enrolments (flow_id, subscriber_id, status, at, step_id, due_at, left_at)
      SELECT 1, id, CASE WHEN created_at < ${nowSec - 2 * DAY} THEN 'done' ELSE 'waiting' END, created_at,
        CASE WHEN created_at < ${nowSec - 2 * DAY} THEN NULL ELSE ${wait.id} END,
        CASE WHEN created_at < ${nowSec - 2 * DAY} THEN NULL ELSE created_at + ${wait.minutes * 60} END,
        CASE WHEN created_at < ${nowSec - 2 * DAY} THEN created_at + ${wait.minutes * 60} END FROM subscribers
      WHERE status = 'subscribed' AND created_at >= ${nowSec - 30 * DAY}`);

    // the past imports' counts, from who they brought in
    const brought = db.prepare("SELECT count(*) AS n FROM subscribers WHERE import_id = ?");
    for (const id of [1, 2]) {
      const n = (brought.get(id) as { n: number }).n;
      const counts = { new: n, updated: Math.floor(n / 25), invalid: Math.floor(n / 300), duplicates: Math.floor(n / 150), suppressed: Math.floor(n / 400), unsubscribed: Math.floor(n / 200), skipped: Math.floor(n / 120) };
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      db.prepare('UPDATE imports SET counts = ?, reasons = ?, rows_total = ?, rows_done = ? WHERE id = ?').run(
        JSON.stringify(counts),
        JSON.stringify({ invalid_address: counts.invalid, duplicate: counts.duplicates, suppressed: counts.suppressed, unsubscribed_at_source: counts.unsubscribed, pending_at_source: counts.skipped }),
        total,
        total,
        id,
      );
    }

    const tpl = db.prepare('INSERT INTO templates (name, subject, preheader, body_md, layout, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    for (const [k, t] of SEED_TEMPLATES.entries()) tpl.run(t.name, t.subject, t.preheader, t.body_md, t.layout, t.is_active, nowSec - (200 - k * 30) * DAY, nowSec - (90 - k * 10) * DAY);

    const seg = db.prepare('INSERT INTO segments (name, description, list_id, definition, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (const s of SEED_SEGMENTS) seg.run(s.name, s.description, s.list_id, JSON.stringify(s.definition), nowSec - 60 * DAY, nowSec - 60 * DAY);

    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('seeded', ?), ('seeded_count', ?), ('seeded_at', ?)").run('1', String(count), String(nowSec));
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
  db.exec(INDEXES);
  db.pragma('analysis_limit = 1000');
  db.exec('ANALYZE');
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { subscribers: count, ms: Math.round(performance.now() - started) };
}
