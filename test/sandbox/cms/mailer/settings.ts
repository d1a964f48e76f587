/**
 * The mailer's settings as `GET mailer/settings` answers them (document 2: transport, worker, From
 * address, providers; docs/mailer-campaigns.md, "Settings"). Read only: document 2 has no route
 * that writes them (the site's plugin configuration does). Secrets are never answered, only
 * whether one is set.
 */
import type { MailerStore } from './store';
import type { MailerKnobs } from './world';

/** The mail providers whose bounce and complaint reports the plugin can take (document 2 leaves the names "not shown"). */
export const PROVIDERS = [
  { name: 'mailgun', label: 'Mailgun' },
  { name: 'postmark', label: 'Postmark' },
  { name: 'sendgrid', label: 'SendGrid' },
  { name: 'ses', label: 'Amazon SES' },
] as const;

/** The sandbox's made-up transport: SMTP to a relay of the reserved `.example` names, its password set and never shown. */
const TRANSPORT = { driver: 'smtp', host: 'smtp.mail.example', port: 587, encryption: 'starttls', username: 'sitedesk' } as const;

export interface SettingsFacts {
  knobs: MailerKnobs;
  siteName: string;
  workerLastRunAt: number | null;
  /** the webhook URL a provider posts its reports to, once it has a secret (deliverability.ts) */
  webhookUrl?: (name: string) => string;
}

export function settingsOf(store: MailerStore, f: SettingsFacts) {
  const count = (sql: string) => (store.prep(sql).get() as { n: number }).n;
  const fallback = store.prep('SELECT from_name, from_email FROM lists WHERE is_default = 1').get() as { from_name: string | null; from_email: string | null } | undefined;
  return {
    transport: { ...TRANSPORT, password_set: true, send_rate_per_second: f.knobs.sendRate },
    worker: {
      running: f.knobs.worker,
      every_seconds: f.knobs.workerEverySeconds,
      last_run_at: f.workerLastRunAt,
      imports_queued: count("SELECT count(*) AS n FROM imports WHERE status IN ('queued', 'running')"),
      campaigns_sending: count("SELECT count(*) AS n FROM campaigns WHERE status = 'sending'"),
      campaigns_scheduled: count("SELECT count(*) AS n FROM campaigns WHERE status = 'scheduled'"),
      stop_bounce_percent: f.knobs.stopBouncePercent,
    },
    // the site's From; a list's own from_name/from_email overrides it for that list's campaigns
    from: { name: fallback?.from_name ?? f.siteName, email: fallback?.from_email ?? 'newsletter@site.example', reply_to: null },
    providers: PROVIDERS.map((p) => {
      const set = Boolean((store.prep('SELECT secret_hash FROM providers WHERE name = ?').get(p.name) as { secret_hash: string | null } | undefined)?.secret_hash);
      return { ...p, secret_set: set, webhook_url: set && f.webhookUrl ? f.webhookUrl(p.name) : null, reports: ['bounce', 'complaint'] };
    }),
  };
}

/** The site's From address (the default list's own when it has one), as `settingsOf` answers it. */
export function siteFromEmail(store: MailerStore): string {
  const d = store.prep('SELECT from_email FROM lists WHERE is_default = 1').get() as { from_email: string | null } | undefined;
  return d?.from_email ?? 'newsletter@site.example';
}
