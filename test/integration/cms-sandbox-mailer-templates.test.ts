/**
 * The mailer's templates over real HTTP, spec flavour (document 2 "Templates";
 * docs/mailer-campaigns.md, "Templates"): the seeded templates answered whole by name, create,
 * one, PATCH, DELETE, preview through the campaigns' render; a campaign created with
 * `template_id` copies the content once and keeps it through the template's edits and deletion;
 * unknown and switched-off templates refused; view reads, manage writes. The real flavour has no
 * template routes and answers 404.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { data, expectCode, mailerAccount } from '../support/mailer';

describe('spec flavour', () => {
  let sb: CmsSandbox;
  let api: SandboxClient;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'spec', content: 'empty', mailer: { subscribers: 300 } });
    api = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());

  test('the seeded templates: whole, by name, the switched-off one among them; active filters', async () => {
    const r = await api.get('/mailer/templates');
    const rows = data(r);
    expect(rows.map((t: Json) => t.name)).toEqual(['Event invitation', 'Monthly newsletter', 'Old announcement', 'Personal note']);
    expect(r.body.meta).toEqual({ total: 4, active: 3 });
    expect(Object.keys(rows[0]).sort()).toEqual(['body_md', 'campaigns', 'created_at', 'id', 'is_active', 'layout', 'missing', 'name', 'preheader', 'subject', 'updated_at']);
    expect(rows.find((t: Json) => t.name === 'Personal note')).toMatchObject({ layout: 'plain', subject: null, missing: ['subject'], is_active: true });
    expect(data(await api.get('/mailer/templates?active=0')).map((t: Json) => t.name)).toEqual(['Old announcement']);
    expect(data(await api.get('/mailer/templates?active=1'))).toHaveLength(3);
    expectCode(await api.get('/mailer/templates?active=yes'), 422, 'filter_invalid');
  });

  test('create (201, Location), one, PATCH, DELETE (204); the fields checked', async () => {
    const r = await api.post('/mailer/templates', { name: ' Welcome ', subject: 'Welcome aboard', body_md: 'Hello [start here](https://site.example/start)' });
    const t = data(r, 201);
    expect(r.headers.get('location')).toMatch(new RegExp(`/mailer/templates/${t.id}$`));
    expect(t).toMatchObject({ name: 'Welcome', subject: 'Welcome aboard', preheader: null, layout: 'store', is_active: true, campaigns: 0, missing: [] });
    expect(data(await api.get(`/mailer/templates/${t.id}`))).toEqual(t);
    expect(data(await api.patch(`/mailer/templates/${t.id}`, { preheader: 'Glad you are here', is_active: false }))).toMatchObject({ name: 'Welcome', preheader: 'Glad you are here', is_active: false });
    expectCode(await api.post('/mailer/templates', {}), 422, 'invalid_field');
    expectCode(await api.post('/mailer/templates', { name: 'x', layout: 'fancy' }), 422, 'invalid_field');
    expectCode(await api.post('/mailer/templates', { name: 'x', is_active: 'no' }), 422, 'invalid_field');
    expectCode(await api.patch(`/mailer/templates/${t.id}`, { id: 9 }), 422, 'field_read_only');
    expectCode(await api.patch(`/mailer/templates/${t.id}`, { subject: 'x'.repeat(999) }), 422, 'invalid_field');
    expect((await api.delete(`/mailer/templates/${t.id}`)).status).toBe(204);
    expectCode(await api.get(`/mailer/templates/${t.id}`), 404, 'not_found');
    expectCode(await api.delete(`/mailer/templates/${t.id}`), 404, 'not_found');
    expectCode(await api.get('/mailer/templates/abc'), 404, 'not_found');
  });

  test('preview: the saved template through the campaigns’ render; unsaved content over it, saving nothing', async () => {
    const p = data(await api.get('/mailer/templates/1/preview'));
    expect(p).toMatchObject({ subject: "This month's news", layout: 'store', links: ['https://site.example/news', 'https://site.example/events'], missing: [] });
    expect(p.html).toContain('Sitedesk Sandbox');
    expect(p.html).toContain('What happened this month');
    expect(p.text).toContain('Unsubscribe: {{ unsubscribe_url }}');
    const over = data(await api.post('/mailer/templates/1/preview', { subject: 'Trying', layout: 'plain', body_md: '', name: 'ignored' }));
    expect(over).toMatchObject({ subject: 'Trying', layout: 'plain', links: [], missing: ['body_md'] });
    expect(over.html).not.toContain('Sitedesk Sandbox');
    expect(data(await api.get('/mailer/templates/1'))).toMatchObject({ name: 'Monthly newsletter', subject: "This month's news", layout: 'store' });
    expectCode(await api.post('/mailer/templates/1/preview', { layout: 'fancy' }), 422, 'invalid_field');
    expectCode(await api.get('/mailer/templates/999/preview'), 404, 'not_found');
  });

  test('a campaign from a template: the content copied once, the create’s own fields winning; kept through the template’s edit and deletion', async () => {
    const t = data(await api.post('/mailer/templates', { name: 'Source', subject: 'From the template', preheader: 'Template preheader', body_md: '# Template body', layout: 'plain' }), 201);
    const c = data(await api.post('/mailer/campaigns', { name: 'Written from it', template_id: t.id, preheader: 'My own', list_ids: [1] }), 201);
    expect(c).toMatchObject({ template_id: t.id, subject: 'From the template', preheader: 'My own', body_md: '# Template body', layout: 'plain', missing: [] });
    expect(data(await api.get(`/mailer/templates/${t.id}`)).campaigns).toBe(1);
    data(await api.patch(`/mailer/templates/${t.id}`, { subject: 'Edited later', body_md: 'Other body' }));
    expect(data(await api.get(`/mailer/campaigns/${c.id}`))).toMatchObject({ subject: 'From the template', body_md: '# Template body' });
    expect((await api.delete(`/mailer/templates/${t.id}`)).status).toBe(204);
    expect(data(await api.get(`/mailer/campaigns/${c.id}`))).toMatchObject({ template_id: t.id, subject: 'From the template', body_md: '# Template body', layout: 'plain' });
    // the copy is the campaign's own: it edits as any draft
    expect(data(await api.patch(`/mailer/campaigns/${c.id}`, { subject: 'Mine now' })).subject).toBe('Mine now');
    const gone = expectCode(await api.post('/mailer/campaigns', { name: 'x', template_id: t.id }), 422, 'unknown_template');
    expect(gone.errors[0].field).toBe('template_id');
    expectCode(await api.post('/mailer/campaigns', { name: 'x', template_id: 'one' }), 422, 'unknown_template');
    const old = data(await api.get('/mailer/templates?active=0'))[0];
    const off = expectCode(await api.post('/mailer/campaigns', { name: 'x', template_id: old.id }), 409, 'template_inactive');
    expect(off.detail).toMatch(/switch it on/);
    expectCode(await api.patch(`/mailer/campaigns/${c.id}`, { template_id: 1 }), 422, 'field_read_only');
  });

  test('permissions: view reads and previews, manage writes and previews unsaved content', async () => {
    const viewer = await mailerAccount(api, 'tpl-viewer', ['view']);
    const manager = await mailerAccount(api, 'tpl-manager', ['view', 'manage']);
    const nobody = await mailerAccount(api, 'tpl-nobody', []);
    expect((await viewer.get('/mailer/templates')).status).toBe(200);
    expect((await viewer.get('/mailer/templates/1')).status).toBe(200);
    expect((await viewer.get('/mailer/templates/1/preview')).status).toBe(200);
    expectCode(await nobody.get('/mailer/templates'), 403);
    expectCode(await viewer.post('/mailer/templates', { name: 'x' }), 403);
    expectCode(await viewer.patch('/mailer/templates/1', { name: 'x' }), 403);
    expectCode(await viewer.delete('/mailer/templates/1'), 403);
    expectCode(await viewer.post('/mailer/templates/1/preview', {}), 403);
    const made = data(await manager.post('/mailer/templates', { name: 'By the manager' }), 201);
    expect((await manager.post(`/mailer/templates/${made.id}/preview`, { subject: 'x' })).status).toBe(200);
    expect((await manager.delete(`/mailer/templates/${made.id}`)).status).toBe(204);
  });
});

describe('real flavour', () => {
  let sb: CmsSandbox;
  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'real', content: 'empty', mailer: { subscribers: 50 } });
  });
  afterAll(() => sb?.close());

  test('no template routes: 404', async () => {
    const api = new SandboxClient(sb);
    expect((await api.get('/mailroom/templates')).status).toBe(404);
    expect((await api.post('/mailroom/templates', { name: 'x' })).status).toBe(404);
    expect((await api.get('/mailer/templates')).status).toBe(404);
  });
});
