/**
 * The webhooks client over the real service's recorded replies (54: the empty list; 77, 78: a
 * create refused for a private or unresolvable target) and over replies shaped as the document and
 * the real WebhookManager/WebhookDispatcher make them: hooks in both shapes, the secret once with
 * the id from `Location` when the body lacks one, the ETag, deliveries in both shapes (epoch or ISO
 * times, the request's headers and body not read), the test's 502 read as its delivery, refusals
 * put under their field; the service's pure helpers (redaction, ETags, the upgrade's twin name).
 */
import { describe, expect, test } from 'vitest';
import { cmsWebhooks } from '../../electron/api/cms/webhooks';
import { AppError } from '../../electron/base/app-error';
import { plainEtag, redactSecret, upgradeTwin } from '../../electron/webhooks/service';
import { recorded, reply, transport } from './support/recorded-replies';

const REAL_HOOK = {
  id: 'wh_0123456789abcdef01234567',
  url: 'https://hooks.example.com/grav',
  secret: 'whsec_******************************************************0f1e',
  events: ['page.updated', 'grav.upgraded'],
  enabled: false,
  headers: { Authorization: 'Bearer receiver-token-1234567890' },
  created: 1795464603,
  failure_count: 5,
  disabled_reason: 'Auto-disabled after 5 consecutive failures',
};
const SPEC_HOOK = { id: 'wh_aaaaaaaaaaaaaaaaaaaaaaaa', url: 'http://127.0.0.1:9000/hook', events: ['*'], secret: 'mysecr**************abcd', enabled: true };

const fails = async (p: Promise<unknown>): Promise<AppError> => {
  try {
    await p;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a refusal');
};

describe('the webhooks client', () => {
  test('the recorded empty list; hooks in both shapes (header values never read)', async () => {
    expect(await cmsWebhooks.list(transport(() => recorded('54-webhooks')).t)).toEqual([]);
    const both = await cmsWebhooks.list(transport(() => reply({ data: [REAL_HOOK, SPEC_HOOK, { id: 'broken' }] })).t);
    expect(both).toEqual([
      {
        id: REAL_HOOK.id,
        url: REAL_HOOK.url,
        events: ['page.updated', 'grav.upgraded'],
        secret: REAL_HOOK.secret,
        enabled: false,
        created: '2026-11-23T20:10:03.000Z',
        failureCount: 5,
        disabledReason: 'Auto-disabled after 5 consecutive failures',
        headerNames: ['Authorization'],
      },
      { id: SPEC_HOOK.id, url: SPEC_HOOK.url, events: ['*'], secret: SPEC_HOOK.secret, enabled: true, created: null, failureCount: null, disabledReason: null, headerNames: [] },
    ]);
    expect(JSON.stringify(both)).not.toContain('receiver-token');
  });

  test('the recorded refusals of a private and an unresolvable target, said under the address', async () => {
    for (const name of ['77-webhook-create-private', '78-webhook-create']) {
      const { t } = transport(() => recorded(name));
      const err = await fails(cmsWebhooks.create(t, { url: 'http://127.0.0.1:9/hook', events: ['page.updated'] }));
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe('invalid_input');
      expect(err.info.fields?.url).toMatch(/^Webhook URL must not target a private or reserved address: .*The site sends only to public addresses/);
    }
    const events = transport(() => reply({ status: 400, title: 'Bad Request', detail: "Invalid event 'page.exploded'. Valid events: *, page.created" }, 400));
    expect((await fails(cmsWebhooks.create(events.t, { url: 'https://x.example/h', events: ['page.created'] }))).info.fields).toEqual({ events: "Invalid event 'page.exploded'. Valid events: *, page.created" });
    const edit = transport(() => reply({ status: 422, title: 'Unprocessable Entity', detail: 'Invalid webhook URL: nope' }, 422));
    expect((await fails(cmsWebhooks.update(edit.t, 'wh_1', { url: 'nope' }, null))).info.fields).toEqual({ 'changes.url': 'Invalid webhook URL: nope' });
  });

  test('a create: the full secret once, the id from Location when the body has none', async () => {
    const made = transport(() => reply({ data: { ...REAL_HOOK, secret: 'whsec_' + 'ab'.repeat(24), enabled: true, failure_count: 0 } }, 201, { Location: `/api/v1/webhooks/${REAL_HOOK.id}` }));
    const r = await cmsWebhooks.create(made.t, { url: REAL_HOOK.url, events: ['page.updated'], secret: 'ignored-by-real' });
    expect(r.secret).toBe('whsec_' + 'ab'.repeat(24));
    expect(r.hook).toMatchObject({ id: REAL_HOOK.id, enabled: true, failureCount: 0 });
    expect(made.seen[0]).toMatchObject({ method: 'POST', path: '/webhooks', body: { url: REAL_HOOK.url, events: ['page.updated'], secret: 'ignored-by-real' } });

    const noId = transport(() => reply({ data: { url: 'https://x.example/h', events: ['*'], secret: 'given-secret-123', enabled: true } }, 201, { Location: 'https://cms.example.com/api/v1/webhooks/wh_fromlocation' }));
    expect((await cmsWebhooks.create(noId.t, { url: 'https://x.example/h', events: ['*'] })).hook.id).toBe('wh_fromlocation');

    // a site that masks the secret even in its create answer made the hook all the same: no secret to show
    const masked = transport(() => reply({ data: SPEC_HOOK }, 201));
    expect(await cmsWebhooks.create(masked.t, { url: SPEC_HOOK.url, events: ['*'] })).toMatchObject({ hook: { id: SPEC_HOOK.id }, secret: null });
    const unreadable = transport(() => reply({ data: { url: 'https://x.example/h' } }, 201));
    expect((await fails(cmsWebhooks.create(unreadable.t, { url: 'https://x.example/h', events: ['*'] }))).code).toBe('bad_response');
  });

  test('a read and an edit carry the ETag; the edit sends If-Match', async () => {
    const { t, seen } = transport((req) => reply({ data: SPEC_HOOK }, 200, { ETag: req.method === 'GET' ? '"v1"' : '"v2"' }));
    expect(await cmsWebhooks.get(t, SPEC_HOOK.id)).toMatchObject({ hook: { id: SPEC_HOOK.id }, etag: '"v1"' });
    expect(await cmsWebhooks.update(t, SPEC_HOOK.id, { enabled: false }, '"v1"')).toMatchObject({ etag: '"v2"' });
    expect(seen[1]).toMatchObject({ method: 'PATCH', path: `/webhooks/${SPEC_HOOK.id}`, body: { enabled: false }, headers: { 'if-match': '"v1"' } });
    const stale = transport(() => reply({ status: 412, title: 'Precondition Failed', detail: 'The webhook was changed since it was read; reload it and try again.' }, 412));
    expect((await fails(cmsWebhooks.update(stale.t, SPEC_HOOK.id, { enabled: false }, '"v0"'))).code).toBe('conflict');
  });

  test('deliveries in both shapes, paged; the request body and headers of the real record not read', async () => {
    const real = transport(() =>
      reply({
        data: [
          { id: 'dlv_1', event: 'page.updated', url: REAL_HOOK.url, request_headers: { 'X-Grav-Signature': 'f'.repeat(64) }, request_body: { data: { email: 'someone@example.com' } }, created: 1795464603, status_code: 500, response_body: 'receiver broke', duration_ms: 12, success: false },
          { id: 'dlv_2', event: 'test', url: REAL_HOOK.url, created: 1795464600, status_code: 0, error: 'Webhook request failed: Connection refused', duration_ms: 3, success: false },
        ],
        meta: { pagination: { page: 1, per_page: 2, total: 3, total_pages: 2 } },
        links: { self: '/x?page=1', next: '/api/v1/webhooks/wh/deliveries?page=2&per_page=2' },
      }),
    );
    const page = await cmsWebhooks.deliveries(real.t, 'wh_1', { page: 1, perPage: 2 });
    expect(page).toEqual({
      items: [
        { id: 'dlv_1', event: 'page.updated', url: REAL_HOOK.url, statusCode: 500, success: false, durationMs: 12, at: '2026-11-23T20:10:03.000Z', error: null, response: 'receiver broke' },
        { id: 'dlv_2', event: 'test', url: REAL_HOOK.url, statusCode: 0, success: false, durationMs: 3, at: '2026-11-23T20:10:00.000Z', error: 'Webhook request failed: Connection refused', response: null },
      ],
      total: 3,
      page: 1,
      perPage: 2,
      next: 2,
    });
    expect(JSON.stringify(page)).not.toContain('someone@example.com');
    expect(real.seen[0]!.path).toBe('/webhooks/wh_1/deliveries?page=1&per_page=2');

    const spec = transport(() => reply({ data: [{ id: 'dlv_3', event: 'webhook.test', url: 'u', status_code: 204, success: true, duration_ms: 4, delivered_at: '2026-11-23T20:00:00.000Z' }], meta: { page: 1, per_page: 20, total: 1 } }));
    expect(await cmsWebhooks.deliveries(spec.t, 'wh_1', { page: 1, perPage: 20 })).toMatchObject({ items: [{ id: 'dlv_3', statusCode: 204, success: true, at: '2026-11-23T20:00:00.000Z' }], next: null });
  });

  test('a test: 200 with its delivery, 502 with the failed one read as the answer, a 502 without one an error', async () => {
    const ok = transport(() => reply({ data: { id: 'dlv_ok', event: 'webhook.test', url: 'u', status_code: 200, success: true, duration_ms: 5, delivered_at: '2026-11-23T20:00:00Z' } }));
    expect(await cmsWebhooks.test(ok.t, 'wh_1')).toMatchObject({ id: 'dlv_ok', success: true, statusCode: 200 });
    expect(ok.seen[0]).toMatchObject({ method: 'POST', path: '/webhooks/wh_1/test' });

    const bad = transport(() => reply({ data: { id: 'dlv_bad', event: 'test', url: 'u', created: 1795464603, status_code: 503, response_body: 'down for maintenance', duration_ms: 9, success: false } }, 502));
    expect(await cmsWebhooks.test(bad.t, 'wh_1')).toMatchObject({ id: 'dlv_bad', success: false, statusCode: 503, response: 'down for maintenance' });

    const proxy = transport(() => ({ status: 502, text: '<html>Bad Gateway</html>' }));
    const err = await fails(cmsWebhooks.test(proxy.t, 'wh_1'));
    expect(err.code).toBe('http');
    expect(err.info.status).toBe(502);
    expect(err.message).toMatch(/cms\.example\.com had a problem \(HTTP 502\)/);
  });

  test('the service’s helpers: the sites’ redaction, ETags as sent back, the core upgrade’s other name', () => {
    expect(redactSecret('whsec_' + '0'.repeat(44) + 'abcd')).toBe('whsec_' + '*'.repeat(44) + 'abcd');
    expect(redactSecret('short')).toBe('*****');
    expect(plainEtag('W/"abc-gzip"')).toBe('abc');
    expect(plainEtag('"abc"')).toBe(plainEtag('abc'));
    const refused = (event: string) => new AppError({ code: 'invalid_input', message: `Invalid event '${event}'. Valid events: *, page.created` });
    expect(upgradeTwin(['page.updated', 'cms.upgraded'], refused('cms.upgraded'))).toEqual(['page.updated', 'grav.upgraded']);
    expect(upgradeTwin(['grav.upgraded'], refused('grav.upgraded'))).toEqual(['cms.upgraded']);
    expect(upgradeTwin(['cms.upgraded', 'grav.upgraded'], refused('cms.upgraded'))).toEqual(['grav.upgraded']);
    expect(upgradeTwin(['page.updated'], refused('page.exploded'))).toBeNull();
    expect(upgradeTwin(['cms.upgraded'], new AppError({ code: 'network', message: 'gone' }))).toBeNull();
  });
});
