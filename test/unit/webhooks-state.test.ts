/**
 * The Webhooks area's state without a browser: the list with the first hook chosen and its
 * deliveries read page by page, shown newest first, failed first or failed only; a test's delivery
 * joining them (a receiver's failure too) with the hook as the site has it after; on and off;
 * delete moving the choice on. The dialog's form: every event or a choice (none chosen is said
 * before anything is sent), the core upgrade under the hook's own name, a create's secret held
 * until the dialog forgets it, an edit sending only what changed, a refusal under its field, a
 * conflict saying what changed on the site, applied again on top of it or the site's taken.
 * The Host is a small stand-in behind the renderer's transport; the real one is in webhooks.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Webhook, WebhookDelivery } from '../../electron/contract/index';
import { deliveryOutcome, describeChanges, eventsSummary, receiverAnswer, hookChanges, orderDeliveries, WebhookForm, WebhooksState } from '../../renderer/views/webhooks/webhooks.svelte';
import { FakeHost, settle, type Handler } from './support/fake-host';

const hook = (id: string, extra: Partial<Webhook> = {}): Webhook => ({
  id,
  url: `https://hooks.example.com/${id}`,
  events: ['*'],
  secret: 'whsec_****abcd',
  enabled: true,
  created: null,
  failureCount: null,
  disabledReason: null,
  headerNames: [],
  ...extra,
});
const delivery = (id: string, success: boolean, extra: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id,
  event: 'page.updated',
  url: 'u',
  statusCode: success ? 200 : 500,
  success,
  durationMs: 5,
  at: '2026-11-23T20:00:00.000Z',
  error: null,
  response: null,
  ...extra,
});

class HooksHost extends FakeHost {
  hooks: Webhook[] = [hook('a'), hook('b', { events: ['page.created', 'grav.upgraded'], enabled: false })];
  deliveries: Record<string, WebhookDelivery[]> = {
    a: Array.from({ length: 120 }, (_, i) => delivery(`d${i}`, i % 3 !== 0)),
    b: [],
  };
  etag = '"v1"';
  /** the next update answers a conflict with this hook */
  conflictWith: Webhook | null = null;
  handlers: Record<string, Handler> = {
    'webhooks.list': () => ({ hooks: this.hooks, copiedAt: null }),
    'webhooks.get': (i) => ({ hook: this.hooks.find((h) => h.id === i.id)!, etag: this.etag }),
    'webhooks.deliveries': (i) => {
      const all = this.deliveries[String(i.id)] ?? [];
      const page = Number(i.page);
      const per = Number(i.perPage);
      return { items: all.slice((page - 1) * per, page * per), total: all.length, page, perPage: per, next: page * per < all.length ? page + 1 : null };
    },
    'webhooks.create': (i) => {
      if (String(i.url).includes('127.0.0.1')) throw { code: 'invalid_input', message: 'Webhook URL must not target a private or reserved address', fields: { url: 'Webhook URL must not target a private or reserved address' } };
      const h = hook('new', { url: String(i.url), events: i.events as string[] });
      this.hooks.push(h);
      return { hook: h, secret: 'whsec_full_secret_0123456789', ownSecretIgnored: false, replacedLost: 0 };
    },
    'webhooks.update': (i) => {
      const c = i.changes as Partial<Webhook>;
      if (this.conflictWith) {
        const theirs = this.conflictWith;
        this.conflictWith = null;
        this.etag = '"v2"';
        return { outcome: 'conflict', theirs, etag: this.etag };
      }
      const h = { ...this.hooks.find((x) => x.id === i.id)!, ...c, secret: c.secret ? 'given*****cret' : 'whsec_****abcd' };
      this.hooks = this.hooks.map((x) => (x.id === h.id ? h : x));
      return { outcome: 'saved', hook: h, etag: '"v3"', secretIgnored: false };
    },
    'webhooks.test': (i) => {
      const d = delivery('t1', false, { event: 'webhook.test', statusCode: 503, response: 'down' });
      this.deliveries[String(i.id)]!.unshift(d);
      return { delivery: d, earlier: false, hook: { ...this.hooks.find((h) => h.id === i.id)!, failureCount: 1 } };
    },
    'webhooks.delete': (i) => {
      this.hooks = this.hooks.filter((h) => h.id !== i.id);
      return { id: i.id };
    },
  };
}

const inputs = (host: FakeHost, channel: string) => host.calls.filter((c) => c.channel === channel).map((c) => c.input);

describe('the pure parts', () => {
  it('orders deliveries: newest as the site sends them, failed first (each group in the site’s order), failed only', () => {
    const ds = [delivery('1', true), delivery('2', false), delivery('3', true), delivery('4', false)];
    expect(orderDeliveries(ds, 'newest').map((d) => d.id)).toEqual(['1', '2', '3', '4']);
    expect(orderDeliveries(ds, 'failed-first').map((d) => d.id)).toEqual(['2', '4', '1', '3']);
    expect(orderDeliveries(ds, 'failed-only').map((d) => d.id)).toEqual(['2', '4']);
  });
  it('says events and outcomes in words', () => {
    expect(eventsSummary(['*'])).toBe('Every event');
    expect(eventsSummary(['grav.upgraded'])).toBe('The CMS core is upgraded');
    expect(eventsSummary(['page.created', 'user.deleted'])).toBe('2 events');
    expect(deliveryOutcome(delivery('x', false, { statusCode: 503 }))).toBe('Refused: the receiver answered HTTP 503');
    expect(deliveryOutcome(delivery('x', false, { statusCode: 0, error: 'Connection refused' }))).toBe('Not delivered: Connection refused');
    expect(receiverAnswer(delivery('x', false, { statusCode: 502 }))).toBe('the receiver answered HTTP 502');
    expect(receiverAnswer(delivery('x', false, { statusCode: 0, error: 'Webhook request failed: Connection refused.' }))).toBe('the receiver gave no answer (Webhook request failed: Connection refused)');
    expect(hookChanges(hook('a'), hook('a', { url: 'https://b.example/x', events: ['page.created'], enabled: false }))).toEqual([
      { field: 'address', before: 'https://hooks.example.com/a', after: 'https://b.example/x' },
      { field: 'events', before: 'Every event', after: 'A page is created' },
      { field: 'on or off', before: 'On', after: 'Off' },
    ]);
  });
});

describe('WebhooksState', () => {
  it('lists the hooks, chooses the first and reads its deliveries page by page; another hook has its own', async () => {
    const host = new HooksHost();
    const s = new WebhooksState('s1');
    await s.load();
    expect(s.selected?.id).toBe('a');
    expect(s.deliveries).toHaveLength(50);
    expect(s.deliveriesTotal).toBe(120);
    expect(s.deliveriesNext).toBe(2);
    // failed first among those read
    expect(s.shownDeliveries.slice(0, 17).every((d) => !d.success)).toBe(true);
    expect(s.shownDeliveries[17]!.success).toBe(true);
    s.order = 'failed-only';
    expect(s.shownDeliveries).toHaveLength(s.failedLoaded);
    await s.moreDeliveries();
    await s.moreDeliveries();
    expect(s.deliveries).toHaveLength(120);
    expect(s.deliveriesNext).toBeNull();
    await s.moreDeliveries(); // nothing more to ask
    expect(inputs(host, 'webhooks.deliveries')).toHaveLength(3);

    await s.select('b');
    expect(s.deliveries).toEqual([]);
    expect(s.deliveriesOf).toBe('b');
  });

  it('a test: its failed delivery on top, the hook as the site has it after; on and off; delete moves the choice on', async () => {
    const host = new HooksHost();
    const s = new WebhooksState('s1');
    await s.load();
    const r = await s.test(s.selected!);
    expect(r.delivery).toMatchObject({ statusCode: 503, success: false });
    expect(s.deliveries[0]!.id).toBe('t1');
    expect(s.deliveriesTotal).toBe(121);
    expect(s.tests.a?.delivery.id).toBe('t1');
    expect(s.selected?.failureCount).toBe(1);
    expect(s.busy).toBeNull();

    const off = await s.toggle(s.selected!);
    expect(off.enabled).toBe(false);
    expect(inputs(host, 'webhooks.update').at(-1)).toEqual({ siteId: 's1', id: 'a', etag: null, changes: { enabled: false } });
    expect(s.selected?.enabled).toBe(false);

    await s.remove(s.selected!);
    expect(s.hooks?.map((h) => h.id)).toEqual(['b']);
    expect(s.selected?.id).toBe('b');
    expect(s.tests.a).toBeUndefined();
  });

  it('an answer for a hook no longer chosen is dropped', async () => {
    const host = new HooksHost();
    const s = new WebhooksState('s1');
    await s.load();
    host.hold = true;
    const slow = s.select('b');
    await settle();
    host.hold = false;
    const fast = s.select('a');
    await settle();
    host.held.forEach((go) => go());
    await Promise.all([slow, fast]);
    expect(s.deliveriesOf).toBe('a');
    expect(s.deliveries[0]!.id).toBe('d0');
  });
});

describe('WebhookForm', () => {
  it('create: every event or a choice (none said before sending), the secret held until forgotten, a refusal under its field', async () => {
    const host = new HooksHost();
    const f = new WebhookForm('s1', 'create');
    f.url = ' https://hooks.example.com/mine ';
    f.every = false;
    f.toggle('page.created', false);
    f.toggle('page.updated', false);
    f.toggle('page.deleted', false);
    expect(await f.submit()).toBeNull();
    expect(f.action.fields.events).toMatch(/Choose at least one event/);
    expect(inputs(host, 'webhooks.create')).toHaveLength(0);

    f.toggle('cms.upgraded', true);
    f.toggle('page.updated', true);
    expect(f.events).toEqual(['page.updated', 'cms.upgraded']);
    f.secret = '  my-own-secret-123 ';
    const made = await f.submit();
    expect(made?.id).toBe('new');
    expect(inputs(host, 'webhooks.create')[0]).toEqual({ siteId: 's1', url: 'https://hooks.example.com/mine', events: ['page.updated', 'cms.upgraded'], enabled: true, secret: 'my-own-secret-123' });
    expect(f.created?.secret).toBe('whsec_full_secret_0123456789');
    expect(f.secret).toBe('');
    f.forgetSecret();
    expect(f.created).toBeNull();

    const g = new WebhookForm('s1', 'create');
    g.url = 'http://127.0.0.1:9/hook';
    expect(await g.submit()).toBeNull();
    expect(g.action.fields.url).toMatch(/private or reserved/);
  });

  it('edit: the hook read with its ETag, only what changed sent, the core upgrade under the hook’s own name', async () => {
    const host = new HooksHost();
    const f = new WebhookForm('s1', 'edit');
    await f.open('b');
    expect(f.url).toBe('https://hooks.example.com/b');
    expect(f.every).toBe(false);
    expect(f.has('cms.upgraded')).toBe(true);
    expect(f.enabled).toBe(false);
    expect(await f.submit()).toBeNull();
    expect(f.action.error).toBe('Nothing was changed.');

    f.toggle('page.deleted', true);
    const saved = await f.submit();
    expect(saved?.events).toEqual(['page.created', 'page.deleted', 'grav.upgraded']);
    expect(inputs(host, 'webhooks.update')[0]).toEqual({ siteId: 's1', id: 'b', etag: '"v1"', changes: { events: ['page.created', 'page.deleted', 'grav.upgraded'] } });
    expect(f.etag).toBe('"v3"');
  });

  it('a conflict: what changed on the site; applied again on top of the site’s hook with its ETag, or the site’s taken', async () => {
    const host = new HooksHost();
    const f = new WebhookForm('s1', 'edit');
    await f.open('a');
    f.url = 'https://mine.example/x';
    host.conflictWith = hook('a', { events: ['page.created'] });
    expect(await f.submit()).toBeNull();
    expect(f.conflict?.changed).toEqual([{ field: 'events', before: 'Every event', after: 'A page is created' }]);
    // the person's edit is what they changed, not the form's whole state (the site's events stay)
    expect(describeChanges(f.conflict!.mine)).toEqual(['address: https://mine.example/x']);

    const saved = await f.applyAgain();
    expect(saved).toMatchObject({ url: 'https://mine.example/x' });
    expect(inputs(host, 'webhooks.update').at(-1)).toEqual({ siteId: 's1', id: 'a', etag: '"v2"', changes: { url: 'https://mine.example/x' } });
    expect(f.conflict).toBeNull();

    const g = new WebhookForm('s1', 'edit');
    await g.open('a');
    g.url = 'https://other.example/y';
    host.conflictWith = hook('a', { url: 'https://theirs.example/z' });
    await g.submit();
    g.takeTheirs();
    expect(g.url).toBe('https://theirs.example/z');
    expect(g.etag).toBe('"v2"');
    expect(g.conflict).toBeNull();
  });
});
