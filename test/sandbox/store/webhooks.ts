/**
 * Outgoing webhooks (document 3, section 6). When a pet is created, every registered URL receives
 * a POST with `{event: "pet.created", data: {id, name, status}, timestamp}` (ISO 8601 UTC).
 * The document shows no registration route and no signature, so (chosen here):
 * - URLs are registered on the sandbox (option `webhooks`, `sandbox.webhooks.register`, or
 *   POST /__sandbox/webhooks);
 * - each POST carries `X-Webhook-Event`, `X-Webhook-Delivery` (a uuid) and, for a target with a
 *   secret, `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the body>`;
 * - a delivery that fails (network, non-2xx) is tried again twice, after 0.5 s and 2 s.
 * Deliveries run after the answer is sent and never delay it; `settled()` waits for them.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { Clock } from '../clock';

export interface WebhookTarget {
  id: string;
  url: string;
  secret: string | null;
}

export interface Delivery {
  id: string;
  targetId: string;
  url: string;
  event: string;
  /** the exact JSON body sent */
  body: string;
  attempts: number;
  /** HTTP status of the last attempt, null when it never got an answer */
  status: number | null;
  error: string | null;
  ok: boolean;
  /** ISO, of the last attempt */
  at: string | null;
}

const RETRY_DELAYS_MS = [500, 2000];

export class Webhooks {
  private readonly targets: WebhookTarget[] = [];
  private readonly log: Delivery[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly clock: Clock) {}

  register(target: { url: string; secret?: string | null }): WebhookTarget {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      throw new Error(`Not a URL: ${target.url}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('A webhook URL must be http or https.');
    const t = { id: randomUUID(), url: url.toString(), secret: target.secret ?? null };
    this.targets.push(t);
    return t;
  }

  unregister(id: string): boolean {
    const i = this.targets.findIndex((t) => t.id === id);
    if (i < 0) return false;
    this.targets.splice(i, 1);
    return true;
  }

  list(): WebhookTarget[] {
    return this.targets.map((t) => ({ ...t }));
  }

  deliveries(): Delivery[] {
    return this.log.map((d) => ({ ...d }));
  }

  /** Forgets targets and deliveries. */
  clear(): void {
    this.targets.length = 0;
    this.log.length = 0;
  }

  /** Sends `event` to every target (in the background). */
  emit(event: string, data: Record<string, unknown>): void {
    const body = JSON.stringify({ event, data, timestamp: new Date(this.clock.now()).toISOString() });
    for (const target of this.targets) {
      const d: Delivery = { id: randomUUID(), targetId: target.id, url: target.url, event, body, attempts: 0, status: null, error: null, ok: false, at: null };
      this.log.push(d);
      const p = this.deliver(target, d).finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
  }

  /** Resolves when every delivery started so far has succeeded or given up. */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  private async deliver(target: WebhookTarget, d: Delivery): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      d.attempts = attempt + 1;
      d.at = new Date(this.clock.now()).toISOString();
      try {
        const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Webhook-Event': d.event, 'X-Webhook-Delivery': d.id };
        if (target.secret) headers['X-Webhook-Signature'] = `sha256=${createHmac('sha256', target.secret).update(d.body).digest('hex')}`;
        const res = await fetch(target.url, { method: 'POST', headers, body: d.body, signal: AbortSignal.timeout(5000), redirect: 'manual' });
        await res.arrayBuffer().catch(() => undefined);
        d.status = res.status;
        d.error = null;
        d.ok = res.status >= 200 && res.status < 300;
      } catch (err) {
        d.status = null;
        d.error = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
        d.ok = false;
      }
      if (d.ok || attempt >= RETRY_DELAYS_MS.length) return;
      await new Promise((r) => setTimeout(r, RETRY_DELAYS_MS[attempt]));
    }
  }
}
