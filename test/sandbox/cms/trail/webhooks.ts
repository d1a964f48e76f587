/**
 * Outgoing webhooks (document 2 §2, §3, §6; real: getgrav/grav-plugin-api:classes/Api/Webhooks/
 * WebhookManager.php and WebhookDispatcher.php): the registered hooks, their delivery records, and
 * the dispatcher that really POSTs a signed payload to a hook's URL whenever a mapped API event is
 * recorded (document 1's mapping).
 *
 * Where the flavours differ:
 * - signature: spec `X-Hub-Signature-256: sha256=<hex>`; real `X-Grav-Signature: <hex>` with
 *   `X-Grav-Event`, `X-Grav-Delivery` and `User-Agent: Grav-Webhook/1.0`
 * - the core upgrade: spec `onApiCmsUpgraded` → `cms.upgraded`; real `onApiGravUpgraded` → `grav.upgraded`
 * - the test event: spec `webhook.test`; real `test`
 * - secret: spec takes one from the request (random if omitted); real always makes `whsec_…`
 * - delivery record: spec {id, event, url, status_code, success, duration_ms, delivered_at}; real
 *   {id, event, url, request_headers, request_body, created, status_code, response_body?, error?,
 *   duration_ms, success}, the newest 50 kept, and a hook disabled after 5 failures in a row
 *
 * Hooks and deliveries are kept in the data folder (`webhooks.json`), as the real service keeps
 * them under user/data/api, so a sandbox started on a kept folder still has them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CmsContext } from '../context';
import type { RecordedEvent } from '../content/events';

export const SPEC_EVENT_MAP: Record<string, string> = {
  onApiPageCreated: 'page.created',
  onApiPageUpdated: 'page.updated',
  onApiPageDeleted: 'page.deleted',
  onApiPageMoved: 'page.moved',
  onApiPageTranslated: 'page.translated',
  onApiPagesReordered: 'pages.reordered',
  onApiMediaUploaded: 'media.uploaded',
  onApiMediaDeleted: 'media.deleted',
  onApiUserCreated: 'user.created',
  onApiUserUpdated: 'user.updated',
  onApiUserDeleted: 'user.deleted',
  onApiConfigUpdated: 'config.updated',
  onApiPackageInstalled: 'gpm.installed',
  onApiPackageRemoved: 'gpm.removed',
  onApiCmsUpgraded: 'cms.upgraded',
};

export function eventMap(flavor: CmsContext['flavor']): Record<string, string> {
  if (flavor === 'spec') return SPEC_EVENT_MAP;
  const { onApiCmsUpgraded: _c, ...rest } = SPEC_EVENT_MAP;
  return { ...rest, onApiGravUpgraded: 'grav.upgraded' };
}

export function validEvents(flavor: CmsContext['flavor']): string[] {
  return ['*', ...Object.values(eventMap(flavor))];
}

export interface Webhook {
  id: string;
  url: string;
  secret: string;
  events: string[];
  enabled: boolean;
  /** real only: extra request headers, creation time (epoch s), consecutive failures */
  headers?: Record<string, string>;
  created?: number;
  failure_count?: number;
  disabled_reason?: string;
}

export type Delivery = Record<string, unknown> & { id: string; success: boolean };

/** The middle of a secret masked, first 6 and last 4 visible (all masked up to 10 characters). */
export function redactSecret(secret: string): string {
  if (secret.length <= 10) return '*'.repeat(secret.length);
  return secret.slice(0, 6) + '*'.repeat(secret.length - 10) + secret.slice(-4);
}

export function redacted(hook: Webhook): Webhook {
  return { ...hook, secret: redactSecret(hook.secret) };
}

/** Milliseconds a receiver gets before a delivery counts as failed (the real service's cURL timeout is 10 s). */
const TIMEOUT_MS = 10_000;
const REAL_KEEP = 50;

export class Webhooks {
  private hooks: Webhook[] = [];
  /** newest first, per hook */
  private deliveries = new Map<string, Delivery[]>();
  /** deliveries under way, so tests can wait for them (`settled()`) */
  private pending = new Set<Promise<void>>();
  /** the real service refuses private and unresolvable targets; true lets it reach loopback receivers */
  allowPrivate = false;

  private readonly file: string;

  constructor(private readonly ctx: Pick<CmsContext, 'flavor' | 'clock' | 'dataDir'>) {
    this.file = join(ctx.dataDir, 'webhooks.json');
    if (existsSync(this.file)) {
      const saved = JSON.parse(readFileSync(this.file, 'utf8')) as { webhooks: Webhook[]; deliveries: Record<string, Delivery[]> };
      this.hooks = saved.webhooks;
      this.deliveries = new Map(Object.entries(saved.deliveries));
    }
  }

  private save(): void {
    writeFileSync(this.file, JSON.stringify({ webhooks: this.hooks, deliveries: Object.fromEntries(this.deliveries) }, null, 2));
  }

  list(): Webhook[] {
    return this.hooks.map((h) => structuredClone(h));
  }

  get(id: string): Webhook | null {
    const h = this.hooks.find((x) => x.id === id);
    return h ? structuredClone(h) : null;
  }

  create(input: { url: string; events?: string[]; secret?: string; enabled?: boolean; headers?: Record<string, string> }): Webhook {
    const real = this.ctx.flavor === 'real';
    const hook: Webhook = real
      ? {
          id: `wh_${randomBytes(12).toString('hex')}`,
          url: input.url,
          secret: `whsec_${randomBytes(24).toString('hex')}`,
          events: input.events ?? ['*'],
          enabled: input.enabled ?? true,
          headers: input.headers ?? {},
          created: Math.floor(this.ctx.clock.now() / 1000),
          failure_count: 0,
        }
      : {
          id: `wh_${randomBytes(12).toString('hex')}`,
          url: input.url,
          events: input.events ?? ['*'],
          secret: input.secret ?? `whsec_${randomBytes(24).toString('hex')}`,
          enabled: input.enabled ?? true,
        };
    this.hooks.push(hook);
    this.save();
    return structuredClone(hook);
  }

  update(id: string, patch: Partial<Pick<Webhook, 'url' | 'events' | 'secret' | 'enabled' | 'headers'>>): Webhook | null {
    const hook = this.hooks.find((x) => x.id === id);
    if (!hook) return null;
    if (patch.url !== undefined) hook.url = patch.url;
    if (patch.events !== undefined) hook.events = patch.events;
    if (patch.enabled !== undefined) hook.enabled = patch.enabled;
    // the real service's update never changes the secret
    if (patch.secret !== undefined && this.ctx.flavor === 'spec') hook.secret = patch.secret;
    if (patch.headers !== undefined && this.ctx.flavor === 'real') hook.headers = patch.headers;
    this.save();
    return structuredClone(hook);
  }

  /** Removes the hook and its delivery history. */
  remove(id: string): boolean {
    const before = this.hooks.length;
    this.hooks = this.hooks.filter((h) => h.id !== id);
    this.deliveries.delete(id);
    if (this.hooks.length === before) return false;
    this.save();
    return true;
  }

  deliveriesOf(id: string): Delivery[] {
    return structuredClone(this.deliveries.get(id) ?? []);
  }

  /** Resolves once every delivery started so far has finished. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** The EventLog listener: every enabled hook whose filter matches the mapped event gets a delivery. */
  onEvent(event: RecordedEvent): void {
    const name = eventMap(this.ctx.flavor)[event.name];
    if (!name) return;
    for (const hook of this.hooks) {
      if (!hook.enabled || !(hook.events.includes('*') || hook.events.includes(name))) continue;
      const p = this.send(hook, name, event.data).then(() => undefined);
      this.pending.add(p);
      void p.finally(() => this.pending.delete(p));
    }
  }

  /** The synthetic delivery of POST /webhooks/{id}/test, awaited. */
  sendTest(hook: Webhook): Promise<Delivery> {
    const real = this.ctx.flavor === 'real';
    return this.send(hook, real ? 'test' : 'webhook.test', { message: 'This is a test webhook delivery.' });
  }

  private async send(hook: Webhook, event: string, data: Record<string, unknown>): Promise<Delivery> {
    const real = this.ctx.flavor === 'real';
    const payload = { event, timestamp: new Date(this.ctx.clock.now()).toISOString().replace(/\.\d{3}Z$/, '+00:00'), data, webhook_id: hook.id };
    const body = JSON.stringify(payload);
    const signature = createHmac('sha256', hook.secret).update(body).digest('hex');
    const id = `dlv_${randomBytes(8).toString('hex')}`;
    const headers: Record<string, string> = real
      ? { 'Content-Type': 'application/json', 'X-Grav-Signature': signature, 'X-Grav-Event': event, 'X-Grav-Delivery': id, 'User-Agent': 'Grav-Webhook/1.0', ...(hook.headers ?? {}) }
      : { 'Content-Type': 'application/json', 'X-Hub-Signature-256': `sha256=${signature}`, 'X-Webhook-Event': event, 'X-Webhook-Delivery': id };
    const started = performance.now();
    let status = 0;
    let responseBody = '';
    let error: string | null = null;
    try {
      if (real && !this.allowPrivate && !targetIsPublic(hook.url)) throw new Error('Webhook URL targets a private or reserved address.');
      const res = await fetch(hook.url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
      status = res.status;
      responseBody = (await res.text()).slice(0, 1000);
    } catch (e) {
      error = e instanceof Error ? `Webhook request failed: ${e.message}` : 'Webhook request failed.';
    }
    const duration = Math.round(performance.now() - started);
    const success = error === null && status >= 200 && status < 300;
    const delivery: Delivery = real
      ? {
          id,
          event,
          url: hook.url,
          request_headers: headers,
          request_body: payload,
          created: Math.floor(this.ctx.clock.now() / 1000),
          status_code: status,
          ...(error === null ? { response_body: responseBody } : { error }),
          duration_ms: duration,
          success,
        }
      : { id, event, url: hook.url, status_code: status, success, duration_ms: duration, delivered_at: new Date(this.ctx.clock.now()).toISOString() };
    const list = this.deliveries.get(hook.id);
    // a hook removed while its delivery ran keeps no history
    const live = this.hooks.find((h) => h.id === hook.id);
    if (live) {
      const next = [delivery, ...(list ?? [])];
      this.deliveries.set(hook.id, real ? next.slice(0, REAL_KEEP) : next);
      if (real) {
        if (success) {
          live.failure_count = 0;
          delete live.disabled_reason;
        } else {
          live.failure_count = (live.failure_count ?? 0) + 1;
          if (live.failure_count >= 5) {
            live.enabled = false;
            live.disabled_reason = 'Auto-disabled after 5 consecutive failures';
          }
        }
      }
      this.save();
    }
    return structuredClone(delivery);
  }
}

/**
 * The real service's SSRF guard, offline: a literal IP must be public; the sandbox resolves no
 * names, so every host name is unresolvable and refused (as recording 78 shows for
 * hooks.example.com on a machine without that name).
 */
export function targetIsPublic(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
    if (a === 169 && b === 254) return false;
    if (a === 172 && b >= 16 && b <= 31) return false;
    if (a === 192 && b === 168) return false;
    if (a === 100 && b >= 64 && b <= 127) return false;
    return true;
  }
  if (host.includes(':')) {
    const h = host.toLowerCase();
    return !(h === '::' || h === '::1' || h.startsWith('fc') || h.startsWith('fd') || h.startsWith('fe80') || h.startsWith('::ffff:'));
  }
  return false;
}
