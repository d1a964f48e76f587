/**
 * The mailer's deliverability checks and provider webhooks, spec flavour (document 2
 * "Deliverability and providers"; docs/mailer-campaigns.md, "Deliverability", "Providers").
 *
 * Checks: every From domain the site mails from (the site's From, and each list's own) is looked
 * up for SPF (a `v=spf1` record that lets the transport's relay send), DKIM (the plugin's selector
 * `sitedesk._domainkey` with a key) and DMARC (`_dmarc`: `reject`/`quarantine` pass, `none` only
 * watches). The sandbox looks names up in a made-up zone of reserved `.example` names (no network);
 * a name it does not hold has no records. The answer is kept ten minutes (document 2's limit) and
 * looked up again by the recheck.
 *
 * Providers: a webhook secret is minted and kept (as its SHA-256: the plugin only needs to check a
 * signature's key, and nothing can answer it back), never answered; the answer is the webhook URL
 * the provider posts its bounce and complaint reports to. Setup creates that webhook through the
 * provider's API where the provider has one for it (Amazon SES does not: its reports come through
 * an SNS subscription made in the AWS console).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { MailerStore } from './store';
import { PROVIDERS } from './settings';
import { refuse } from './wire';

export const CACHE_SECONDS = 600;
/** the relay the sandbox's transport sends through (settings.ts: smtp.mail.example) */
export const SPF_INCLUDE = 'include:mail.example';
export const DKIM_SELECTOR = 'sitedesk';

/** TXT records of the made-up zone, by name. */
export const ZONE: Record<string, string[]> = {
  'site.example': ['v=spf1 include:mail.example ~all'],
  'sitedesk._domainkey.site.example': ['v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC3sandbox'],
  '_dmarc.site.example': ['v=DMARC1; p=none; rua=mailto:dmarc@site.example'],
  'shop.example': ['v=spf1 include:mail.example -all'],
  'sitedesk._domainkey.shop.example': ['v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDshop'],
  '_dmarc.shop.example': ['v=DMARC1; p=reject'],
  'partner.example': ['v=spf1 include:other-relay.example ~all'],
};

export type CheckStatus = 'pass' | 'warn' | 'fail';
export interface Check {
  check: 'spf' | 'dkim' | 'dmarc';
  status: CheckStatus;
  /** the name looked up */
  name: string;
  /** the record found, or null */
  record: string | null;
  /** what it means and, unless it passed, what to do */
  detail: string;
}

const txt = (zone: Record<string, string[]>, name: string, prefix: string) => (zone[name] ?? []).find((r) => r.toLowerCase().startsWith(prefix.toLowerCase())) ?? null;

/** The three checks of one domain against a zone. Pure. */
export function checkDomain(domain: string, zone: Record<string, string[]> = ZONE): Check[] {
  const spf = txt(zone, domain, 'v=spf1');
  const dkimName = `${DKIM_SELECTOR}._domainkey.${domain}`;
  const dkim = txt(zone, dkimName, 'v=DKIM1');
  const dmarcName = `_dmarc.${domain}`;
  const dmarc = txt(zone, dmarcName, 'v=DMARC1');
  const policy = dmarc ? (/;\s*p=(\w+)/i.exec(dmarc)?.[1] ?? '').toLowerCase() : '';
  return [
    !spf
      ? { check: 'spf', status: 'fail', name: domain, record: null, detail: `No SPF record: add a TXT record "v=spf1 ${SPF_INCLUDE} ~all" to ${domain}.` }
      : spf.split(/\s+/).includes(SPF_INCLUDE)
        ? { check: 'spf', status: 'pass', name: domain, record: spf, detail: 'The SPF record lets the mail relay send for this domain.' }
        : { check: 'spf', status: 'fail', name: domain, record: spf, detail: `The SPF record does not name the mail relay: add ${SPF_INCLUDE} to it.` },
    dkim && /;\s*p=[^;\s]+/.test(dkim)
      ? { check: 'dkim', status: 'pass', name: dkimName, record: dkim, detail: 'Messages are signed with a key the domain publishes.' }
      : { check: 'dkim', status: 'fail', name: dkimName, record: dkim, detail: `No DKIM key at ${dkimName}: publish the key the mail provider gives you there.` },
    !dmarc
      ? { check: 'dmarc', status: 'fail', name: dmarcName, record: null, detail: `No DMARC record: add a TXT record at ${dmarcName}, starting with "v=DMARC1; p=none" to watch, then quarantine.` }
      : policy === 'reject' || policy === 'quarantine'
        ? { check: 'dmarc', status: 'pass', name: dmarcName, record: dmarc, detail: `DMARC asks receivers to ${policy} mail that fails the checks.` }
        : { check: 'dmarc', status: 'warn', name: dmarcName, record: dmarc, detail: 'DMARC only watches (p=none): once the reports look clean, move to p=quarantine.' },
  ] as Check[];
}

const worst = (checks: { status: CheckStatus }[]): CheckStatus => (checks.some((c) => c.status === 'fail') ? 'fail' : checks.some((c) => c.status === 'warn') ? 'warn' : 'pass');

/** The domains the site mails from: the site's From, and each list's own, with who uses them. */
export function fromDomains(store: MailerStore, siteFrom: string) {
  const domains = new Map<string, { site: boolean; lists: number[] }>();
  const add = (email: string | null, list: number | null) => {
    const d = email?.split('@')[1]?.toLowerCase();
    if (!d) return;
    const u = domains.get(d) ?? { site: false, lists: [] };
    if (list === null) u.site = true;
    else u.lists.push(list);
    domains.set(d, u);
  };
  add(siteFrom, null);
  for (const l of store.lists()) add(l.from_email, l.id);
  return domains;
}

export function lookUp(store: MailerStore, siteFrom: string, nowSec: number) {
  const domains = [...fromDomains(store, siteFrom)].map(([domain, used_by]) => {
    const checks = checkDomain(domain);
    return { domain, used_by, status: worst(checks), checks };
  });
  const all = domains.flatMap((d) => d.checks);
  return { checked_at: nowSec, status: worst(all), summary: { pass: all.filter((c) => c.status === 'pass').length, warn: all.filter((c) => c.status === 'warn').length, fail: all.filter((c) => c.status === 'fail').length }, domains };
}

type Report = ReturnType<typeof lookUp>;

/** The kept answer when it is younger than ten minutes, else a fresh one (kept); `recheck` always looks up again. */
export function deliverability(store: MailerStore, siteFrom: string, nowSec: number, recheck: boolean) {
  const kept = store.prep("SELECT value FROM meta WHERE key = 'deliverability'").get() as { value: string } | undefined;
  let report: Report | null = kept ? (JSON.parse(kept.value) as Report) : null;
  const cached = !recheck && report !== null && nowSec - report.checked_at < CACHE_SECONDS && report.checked_at <= nowSec;
  if (!cached) {
    report = lookUp(store, siteFrom, nowSec);
    store.prep("INSERT OR REPLACE INTO meta (key, value) VALUES ('deliverability', ?)").run(JSON.stringify(report));
  }
  return { ...report!, cached, fresh_until: report!.checked_at + CACHE_SECONDS };
}

// ---- providers

/** Providers whose API can create the webhook (SES reports through an SNS subscription made by hand). */
export const SETUP_BY_API = new Set(['mailgun', 'postmark', 'sendgrid']);

export interface ProviderRow {
  name: string;
  secret_hash: string | null;
  secret_set_at: number | null;
  webhook_id: string | null;
  setup_at: number | null;
  /** the secret's hash the webhook was made with (a new secret means setting it up again) */
  setup_secret_hash: string | null;
}

export const providerNamed = (name: string | undefined) => {
  const p = PROVIDERS.find((x) => x.name === name);
  if (!p) throw refuse(404, 'unknown_provider', `There is no provider ${JSON.stringify(name ?? '')}: it is one of ${PROVIDERS.map((x) => x.name).join(', ')}.`);
  return p;
};

export const providerRow = (store: MailerStore, name: string): ProviderRow | null => (store.prep('SELECT * FROM providers WHERE name = ?').get(name) as ProviderRow | undefined) ?? null;

export const webhookPath = (name: string) => `/mailer/webhooks/${name}`;

/** Mints a secret and keeps its hash; the secret itself leaves nowhere (the setup hands it to the provider). */
export function mintSecret(store: MailerStore, name: string, nowSec: number): { rotated: boolean; hash: string } {
  const before = providerRow(store, name);
  const hash = createHash('sha256').update(randomBytes(32)).digest('hex');
  store
    .prep('INSERT INTO providers (name, secret_hash, secret_set_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET secret_hash = excluded.secret_hash, secret_set_at = excluded.secret_set_at')
    .run(name, hash, nowSec);
  return { rotated: Boolean(before?.secret_hash), hash };
}

/** Creates (or, set up with this secret already, keeps) the provider's webhook. */
export function setUp(store: MailerStore, name: string, nowSec: number): { created: boolean; row: ProviderRow } {
  const row = providerRow(store, name);
  if (!row?.secret_hash) throw refuse(409, 'secret_missing', `${name} has no webhook secret yet: mint one first (POST mailer/providers/${name}/secret), then set up.`, { provider: name });
  if (!SETUP_BY_API.has(name)) throw refuse(409, 'setup_not_allowed', `${name}'s API cannot create the webhook: subscribe the webhook URL to its bounce and complaint notifications by hand (an SNS subscription in the AWS console).`, { provider: name });
  if (row.webhook_id && row.setup_secret_hash === row.secret_hash) return { created: false, row };
  const n = (store.prep("SELECT coalesce(max(CAST(substr(webhook_id, length(name) + 5) AS INTEGER)), 0) + 1 AS n FROM providers WHERE webhook_id IS NOT NULL").get() as { n: number }).n;
  store.prep('UPDATE providers SET webhook_id = ?, setup_at = ?, setup_secret_hash = secret_hash WHERE name = ?').run(`${name}_wh_${n}`, nowSec, name);
  return { created: true, row: providerRow(store, name)! };
}

export function providerWire(name: string, row: ProviderRow | null, webhookUrl: string) {
  return {
    provider: name,
    webhook_url: webhookUrl,
    secret_set: Boolean(row?.secret_hash),
    secret_set_at: row?.secret_set_at ?? null,
    setup_by_api: SETUP_BY_API.has(name),
    webhook_id: row?.webhook_id ?? null,
    setup_at: row?.setup_at ?? null,
    // a secret minted after the setup: the provider still signs with the old one
    setup_needed: Boolean(row?.secret_hash) && row?.setup_secret_hash !== row?.secret_hash,
    events: ['bounce', 'complaint'],
  };
}
