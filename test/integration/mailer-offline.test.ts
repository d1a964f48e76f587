/**
 * The offline copy of a site's subscribers (personal data: only by the person's choice, per site),
 * through the Host against the CMS sandbox on both flavours: turned on it is filled in the
 * background with its progress (200 people a request); while the site is away the table is read
 * from it with the filters a copy can apply and the status and list counts, a person's page with
 * what was read of them; a person deleted or erased on the site leaves it at once (and the
 * database file); turned off, or the site removed, it is gone from the file.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MailerOfflineState } from '../../electron/contract';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';
import { until } from '../support/until';

const PEOPLE = 1500;

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  const requests: string[] = [];
  const siteId = () => fx.site.id;
  const world = () => fx.cms.mailer;
  const base = flavor === 'real' ? 'mailroom' : 'mailer';

  beforeAll(async () => {
    fx = await withHost({
      sandbox: { flavor, ...UNHURRIED, mailer: { subscribers: PEOPLE } },
      host: {
        fetch: (input, init) => {
          requests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
          return fetch(input, init);
        },
      },
    });
  });
  afterAll(async () => {
    await fx?.close();
  });

  /** The database file and its WAL as text (the Host closed meanwhile). */
  const dbBytes = async (): Promise<string> => {
    await fx.host.close();
    const text = ['sitedesk.db', 'sitedesk.db-wal'].map((f) => (existsSync(join(fx.dir.path, f)) ? readFileSync(join(fx.dir.path, f)).toString('latin1') : '')).join('');
    await fx.open();
    return text;
  };
  const away = async <T>(fn: () => Promise<T>): Promise<T> => {
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      return await fn();
    } finally {
      fx.cms.faults.clear();
    }
  };
  const filled = () => until(() => fx.call('mailer.offline', { siteId: siteId() }), (s) => s.keep && s.keeping === null && s.copiedAt !== null, 20_000);

  test('turned on: filled in the background with its progress, 200 people a request; read while the site is away with the filters and counts a copy can give', async () => {
    const store = world().store;
    const opened = store.query({ status: 'subscribed' }, 1, 0).rows[0]!;
    // a page opened before the copy is not kept
    await fx.call('mailer.subscriber', { siteId: siteId(), id: opened.id });
    expect(await fx.call('mailer.offline', { siteId: siteId() })).toMatchObject({ keep: false, count: 0, copiedAt: null });

    requests.length = 0;
    fx.events.length = 0;
    const on = await fx.call('mailer.setOffline', { siteId: siteId(), keep: true });
    expect(on).toMatchObject({ keep: true, keeping: { done: 0 } });
    const state = await filled();
    expect(state).toMatchObject({ keep: true, count: store.count({}), total: store.count({}), complete: true, problem: null });
    expect(requests.filter((r) => r === `GET /api/v1/${base}/subscribers`)).toHaveLength(Math.ceil(PEOPLE / 200));
    const announced = fx.events.filter((e) => e.name === 'mailer.offlineChanged').map((e) => e.payload as MailerOfflineState);
    expect(announced.at(-1)).toMatchObject({ keeping: null, count: store.count({}) });

    // a person's page read now is kept whole
    await fx.call('mailer.subscriber', { siteId: siteId(), id: opened.id });
    const list = store.listByCode('events')!;
    const tag = store.tags()[1]!;
    const campaign = store.campaigns().find((c) => c.status === 'sent')!;
    const online = await fx.call('mailer.subscribers', { siteId: siteId(), filter: { list: list.id, listStatus: 'pending' }, perPage: 10 });

    await away(async () => {
      const all = await fx.call('mailer.subscribers', { siteId: siteId(), perPage: 50 });
      expect(all).toMatchObject({ total: store.count({}), copiedAt: state.copiedAt, filterIgnored: [], statusCounts: store.statusCounts() });
      expect(all.items[0]!.id).toBeGreaterThan(all.items[1]!.id);
      const standing = await fx.call('mailer.subscribers', { siteId: siteId(), filter: { list: list.id, listStatus: 'pending' }, perPage: 10 });
      expect(standing.total).toBe(online.total);
      expect(standing.listCounts).toEqual(online.listCounts);
      expect(standing.items.map((r) => r.id)).toEqual(online.items.map((r) => r.id));
      for (const [filter, raw] of [
        [{ status: 'unsubscribed' }, { status: 'unsubscribed' }],
        [{ source: 'form' }, { source: 'form' }],
        [{ tag: tag.id }, { tag: tag.id }],
        [{ q: opened.email.slice(0, 6).toUpperCase() }, { q: opened.email.slice(0, 6) }],
      ] as const) {
        expect((await fx.call('mailer.subscribers', { siteId: siteId(), filter, perPage: 5 })).total, JSON.stringify(filter)).toBe(store.count(raw as never));
      }
      // a campaign's reach is the site's to know: said, not guessed
      const reach = await fx.call('mailer.subscribers', { siteId: siteId(), filter: { campaignId: campaign.id }, perPage: 5 });
      expect(reach).toMatchObject({ filterIgnored: ['campaignId'], total: store.count({}) });
      const page = await fx.call('mailer.subscriber', { siteId: siteId(), id: opened.id });
      expect(page).toMatchObject({ partial: false, copiedAt: state.copiedAt, subscriber: { id: opened.id, email: opened.email } });
      expect(page.subscriber.consentLog.length).toBeGreaterThan(0);
      const other = all.items.find((r) => r.id !== opened.id)!;
      expect(await fx.call('mailer.subscriber', { siteId: siteId(), id: other.id })).toMatchObject({ partial: true, subscriber: { id: other.id, consentLog: [] } });
      // writes stay refused while away: the copy is for reading
      expect((await fx.fails('mailer.unsubscribe', { siteId: siteId(), id: other.id })).message).toMatch(/nothing waits to be sent/);
    });
  });

  test('a person deleted or erased on the site leaves the copy and the file at once; turned off, the copy is gone from the file', async () => {
    const store = world().store;
    const [a, b, c] = store.query({ status: 'subscribed' }, 3, 0).rows;
    expect(await dbBytes()).toContain(a!.email);
    await fx.call('mailer.delete', { siteId: siteId(), id: a!.id });
    const erased = await fx.call('mailer.erase', { siteId: siteId(), email: b!.email.toUpperCase() });
    expect(erased).toMatchObject({ erased: true, removedHere: 1 });
    const bytes = await dbBytes();
    expect(bytes).not.toContain(a!.email);
    expect(bytes).not.toContain(b!.email);
    expect(bytes).toContain(c!.email);
    await away(async () => {
      const gone = await fx.fails('mailer.subscriber', { siteId: siteId(), id: a!.id });
      expect(gone.code).toMatch(/network|timeout/);
      expect(gone.message).toMatch(/not in the offline copy/);
      expect((await fx.call('mailer.subscribers', { siteId: siteId(), filter: { q: b!.email }, perPage: 5 })).total).toBe(0);
    });

    expect(await fx.call('mailer.setOffline', { siteId: siteId(), keep: false })).toMatchObject({ keep: false, count: 0, copiedAt: null, keeping: null });
    expect(await dbBytes()).not.toContain(c!.email);
    await away(async () => {
      expect((await fx.fails('mailer.subscribers', { siteId: siteId(), perPage: 5 })).message).toMatch(/offline copy/);
    });
  });

  test('a site removed takes its copy with it', async () => {
    const other = await fx.call('sites.add', { name: `Second ${flavor}`, kind: 'cms', baseUrl: fx.cms.url, environment: null, authMode: 'apikey', apiKey: fx.cms.seeded!.adminApiKey! });
    await fx.call('mailer.setOffline', { siteId: other.id, keep: true });
    await until(() => fx.call('mailer.offline', { siteId: other.id }), (s) => s.keeping === null && s.count > 0, 20_000);
    await fx.call('sites.remove', { id: other.id });
    await fx.host.close();
    const db = new Database(join(fx.dir.path, 'sitedesk.db'), { readonly: true });
    const left = (db.prepare('SELECT count(*) AS n FROM mailer_people WHERE site_id = ?').get(other.id) as { n: number }).n;
    const cache = (db.prepare("SELECT count(*) AS n FROM site_cache WHERE site_id = ? AND key LIKE 'mailer:%'").get(other.id) as { n: number }).n;
    db.close();
    await fx.open();
    expect(left).toBe(0);
    expect(cache).toBe(0);
  });
});
