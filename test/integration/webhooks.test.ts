/**
 * A site's webhooks through the Host against the sandbox (both flavours), with a receiver on
 * loopback (the real flavour lets hooks reach it through `webhookPrivateTargets`, as the real
 * service would reach a public address): create with the full secret once (never in Sitedesk's
 * database), a page made through the Host delivered signed with that secret, the deliveries, a test
 * the receiver fails read as its delivery (the site's 502), an edit after a change behind the app's
 * back answered as a conflict and applied again, the secret changed where the site allows it,
 * the core upgrade's event under the site's own name, refusals under their field, on and off,
 * delete, the health for the sites' overview, and the list from the copy while the site is away
 * with every write refused, nothing queued.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { adminApi } from '../support/host-calls';
import { UNHURRIED } from '../support/limits';
import { signed, startReceiver, type Receiver } from '../support/webhook-receiver';

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let fx: DemoHost;
  let rx: Receiver;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor, webhookPrivateTargets: true, ...UNHURRIED } });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await rx?.close();
    await fx?.close();
  });
  beforeEach(() => {
    rx.got.length = 0;
    rx.status = 200;
  });
  afterEach(async () => {
    // every test starts without hooks
    for (const h of fx.cms.webhooks.list()) await adminApi(fx.cms).call({ method: 'DELETE', path: `/webhooks/${h.id}` });
  });
  const siteId = () => fx.site.id;

  test('create: the full secret once, redacted in the list and never in the database; a page made through the Host arrives signed with it', async () => {
    expect(await fx.call('webhooks.list', { siteId: siteId() })).toEqual({ hooks: [], copiedAt: null });
    const given = 'my-own-secret-0123456789';
    const made = await fx.call('webhooks.create', { siteId: siteId(), url: rx.url, events: ['page.created'], secret: given });
    // the document takes the secret asked for; the real service always makes its own
    expect(made.secret).toEqual(real ? expect.stringMatching(/^whsec_[0-9a-f]{48}$/) : given);
    expect(made.ownSecretIgnored).toBe(real);
    expect(made.hook).toMatchObject({ url: rx.url, events: ['page.created'], enabled: true, secret: `${made.secret!.slice(0, 6)}${'*'.repeat(made.secret!.length - 10)}${made.secret!.slice(-4)}` });

    const { hooks } = await fx.call('webhooks.list', { siteId: siteId() });
    expect(hooks).toEqual([expect.objectContaining({ id: made.hook.id, secret: made.hook.secret })]);

    await fx.call('pages.create', { siteId: siteId(), route: `/hooked-${flavor}`, title: 'Hooked', content: 'hello' });
    await fx.cms.webhooks.settled();
    expect(rx.got).toHaveLength(1);
    expect(rx.got[0]!.json).toMatchObject({ event: 'page.created', webhook_id: made.hook.id });
    expect(signed(rx.got[0]!, made.secret!)).toBe(true);
    expect(signed(rx.got[0]!, 'another-secret-0123456789')).toBe(false);

    const page = await fx.call('webhooks.deliveries', { siteId: siteId(), id: made.hook.id });
    expect(page.items).toEqual([expect.objectContaining({ event: 'page.created', statusCode: 200, success: true, durationMs: expect.any(Number), at: expect.any(String) })]);
    expect(page.total).toBe(1);

    // the secret is in no file of the data folder (the database, its WAL)
    for (const f of readdirSync(fx.dir.path)) {
      if (!f.startsWith('sitedesk.db')) continue;
      expect(readFileSync(join(fx.dir.path, f)).includes(Buffer.from(made.secret!)), f).toBe(false);
    }
  });

  test('a test the receiver fails: the site’s 502 read as its delivery with the receiver’s status; the hook after it', async () => {
    const made = await fx.call('webhooks.create', { siteId: siteId(), url: rx.url, events: ['*'] });
    rx.status = 503;
    const r = await fx.call('webhooks.test', { siteId: siteId(), id: made.hook.id });
    expect(r.earlier).toBe(false);
    expect(r.delivery).toMatchObject({ event: real ? 'test' : 'webhook.test', statusCode: 503, success: false });
    if (real) expect(r.delivery.response).toBe('receiver says no');
    expect(signed(rx.got[0]!, made.secret!)).toBe(true);
    expect(r.hook?.failureCount ?? null).toBe(real ? 1 : null);

    rx.status = 204;
    expect((await fx.call('webhooks.test', { siteId: siteId(), id: made.hook.id })).delivery).toMatchObject({ statusCode: 204, success: true });
    const page = await fx.call('webhooks.deliveries', { siteId: siteId(), id: made.hook.id, perPage: 1 });
    expect(page.items.map((d) => d.statusCode)).toEqual([204]);
    expect(page.next).toBe(2);
    expect((await fx.call('webhooks.deliveries', { siteId: siteId(), id: made.hook.id, page: 2, perPage: 1 })).items.map((d) => d.statusCode)).toEqual([503]);
  });

  test('an edit after a change behind the app’s back: a conflict with the site’s hook, then applied on top of it', async () => {
    const made = await fx.call('webhooks.create', { siteId: siteId(), url: rx.url, events: ['page.created'] });
    const opened = await fx.call('webhooks.get', { siteId: siteId(), id: made.hook.id });
    expect(opened.etag).toEqual(expect.any(String));
    // someone else adds an event on the site
    await adminApi(fx.cms).call({ method: 'PATCH', path: `/webhooks/${made.hook.id}`, body: { events: ['page.created', 'page.deleted'] } });
    const stale = await fx.call('webhooks.update', { siteId: siteId(), id: made.hook.id, etag: opened.etag, changes: { url: `${rx.url}?v=2` } });
    expect(stale).toMatchObject({ outcome: 'conflict', theirs: { url: rx.url, events: ['page.created', 'page.deleted'] }, etag: expect.any(String) });
    if (stale.outcome !== 'conflict') throw new Error('a conflict');
    expect(fx.cms.webhooks.get(made.hook.id)?.url).toBe(rx.url); // nothing written

    const again = await fx.call('webhooks.update', { siteId: siteId(), id: made.hook.id, etag: stale.etag, changes: { url: `${rx.url}?v=2` } });
    expect(again).toMatchObject({ outcome: 'saved', hook: { url: `${rx.url}?v=2`, events: ['page.created', 'page.deleted'] }, secretIgnored: false });
    // the copy follows
    expect((await fx.call('webhooks.list', { siteId: siteId() })).hooks[0]).toMatchObject({ url: `${rx.url}?v=2` });
  });

  test('a new secret: taken by the document’s site and used to sign; the real service keeps its own and the answer says so', async () => {
    const made = await fx.call('webhooks.create', { siteId: siteId(), url: rx.url, events: ['*'] });
    const opened = await fx.call('webhooks.get', { siteId: siteId(), id: made.hook.id });
    const fresh = 'a-brand-new-secret-987654321';
    const r = await fx.call('webhooks.update', { siteId: siteId(), id: made.hook.id, etag: opened.etag, changes: { secret: fresh } });
    expect(r).toMatchObject({ outcome: 'saved', secretIgnored: real });
    await fx.call('webhooks.test', { siteId: siteId(), id: made.hook.id });
    expect(signed(rx.got.at(-1)!, real ? made.secret! : fresh)).toBe(true);
  });

  test('the core upgrade under the site’s own name; refusals under their field', async () => {
    const made = await fx.call('webhooks.create', { siteId: siteId(), url: rx.url, events: ['page.updated', 'cms.upgraded'] });
    expect(made.hook.events).toEqual(['page.updated', real ? 'grav.upgraded' : 'cms.upgraded']);

    // an address the site cannot read
    const bad = await fx.fails('webhooks.create', { siteId: siteId(), url: 'http://:80/hook', events: ['*'] });
    expect(bad.code).toBe('invalid_input');
    expect(bad.fields?.url).toMatch(/Invalid webhook URL/);
    if (real) {
      // the real service refuses this computer's addresses (recording 77)
      fx.cms.webhooks.allowPrivate = false;
      try {
        const err = await fx.fails('webhooks.create', { siteId: siteId(), url: 'http://127.0.0.1:9/hook', events: ['page.updated'] });
        expect(err.fields?.url).toMatch(/must not target a private or reserved address.*only to public addresses/);
        const edit = await fx.fails('webhooks.update', { siteId: siteId(), id: made.hook.id, etag: null, changes: { url: 'http://10.0.0.1/hook' } });
        expect(edit.fields?.['changes.url']).toMatch(/private or reserved/);
      } finally {
        fx.cms.webhooks.allowPrivate = true;
      }
    }
    // the contract's own check, before anything is sent
    expect((await fx.fails('webhooks.create', { siteId: siteId(), url: 'ftp://example.com/x', events: ['*'] })).fields?.url).toMatch(/http:\/\/ or https:\/\//);
    expect(fx.cms.webhooks.list()).toHaveLength(1);
  });

  test('off and on without an ETag; a hook that is off gets nothing; delete takes its history; the health counts', async () => {
    const a = await fx.call('webhooks.create', { siteId: siteId(), url: rx.url, events: ['*'] });
    const b = await fx.call('webhooks.create', { siteId: siteId(), url: `${rx.url}?b`, events: ['page.created'] });
    expect(await fx.call('webhooks.update', { siteId: siteId(), id: b.hook.id, etag: null, changes: { enabled: false } })).toMatchObject({ outcome: 'saved', hook: { enabled: false } });
    await fx.call('pages.create', { siteId: siteId(), route: `/onoff-${flavor}`, title: 'On and off' });
    await fx.cms.webhooks.settled();
    expect(rx.got.map((r) => r.json.webhook_id)).toEqual([a.hook.id]);

    rx.status = 500;
    await fx.call('webhooks.test', { siteId: siteId(), id: a.hook.id });
    await fx.call('webhooks.test', { siteId: siteId(), id: a.hook.id });
    const health = await fx.call('webhooks.health', { siteId: siteId() });
    expect(health).toMatchObject({ hooks: 2, enabled: 1, failed24h: 2, delivered24h: 3, partial: false, unread: [], copiedAt: null });
    expect(Date.parse(health.since)).toBeGreaterThan(Date.now() - 24 * 3600_000 - 60_000);

    expect(await fx.call('webhooks.delete', { siteId: siteId(), id: a.hook.id })).toEqual({ id: a.hook.id });
    expect(fx.cms.webhooks.deliveriesOf(a.hook.id)).toEqual([]);
    const gone = await fx.fails('webhooks.deliveries', { siteId: siteId(), id: a.hook.id });
    expect(gone).toMatchObject({ code: 'not_found', message: expect.stringMatching(/no webhook .* any more/) });
    // deleting it again is what was asked: it is gone
    expect(await fx.call('webhooks.delete', { siteId: siteId(), id: a.hook.id })).toEqual({ id: a.hook.id });
    expect((await fx.call('webhooks.list', { siteId: siteId() })).hooks.map((h) => h.id)).toEqual([b.hook.id]);
  });

  test('the site away: the list and the health from the copy with its time; every write refused, nothing queued', async () => {
    const made = await fx.call('webhooks.create', { siteId: siteId(), url: rx.url, events: ['*'] });
    await fx.call('webhooks.list', { siteId: siteId() });
    await fx.call('webhooks.health', { siteId: siteId() });
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const copy = await fx.call('webhooks.list', { siteId: siteId() });
      expect(copy.copiedAt).toEqual(expect.any(String));
      expect(copy.hooks.map((h) => h.id)).toEqual([made.hook.id]);
      expect((await fx.call('webhooks.health', { siteId: siteId() })).copiedAt).toEqual(expect.any(String));
      expect((await fx.fails('webhooks.create', { siteId: siteId(), url: `${rx.url}?x`, events: ['*'] })).message).toMatch(/No webhook was made; it is never sent later/);
      expect((await fx.fails('webhooks.update', { siteId: siteId(), id: made.hook.id, etag: null, changes: { enabled: false } })).message).toMatch(/The webhook was not changed; it is never sent later/);
      expect((await fx.fails('webhooks.delete', { siteId: siteId(), id: made.hook.id })).message).toMatch(/The webhook was not deleted; it is never sent later/);
      expect((await fx.fails('webhooks.test', { siteId: siteId(), id: made.hook.id })).message).toMatch(/No test was sent; it is never sent later/);
      expect(await fx.call('sync.outbox', { siteId: siteId() })).toEqual([]);
    } finally {
      fx.cms.faults.clear();
    }
    expect(fx.cms.webhooks.list().map((h) => [h.id, h.enabled])).toEqual([[made.hook.id, true]]);
  });
});
