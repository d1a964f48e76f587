/**
 * What every CMS sandbox reply shares, per flavour, over real HTTP: the headers the real Grav API
 * plugin adds to every reply (recordings 01–25), the environment header it reads and checks
 * (ApiRouter::applyEnvironment()), its problem bodies and 422s, the bare-prefix `parent` filter.
 * Both flavours run; each asserts its own answers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

const REAL_HEADERS = {
  expires: 'Thu, 19 Nov 1981 08:52:00 GMT',
  pragma: 'no-cache',
  'cache-control': 'no-store, max-age=0',
  'content-encoding': 'none',
};

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, content: 'single' });
    api = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());

  const headersOf = (r: Reply) => Object.fromEntries(Object.keys(REAL_HEADERS).map((k) => [k, r.headers.get(k)]));

  test('every reply carries the real service’s cache and encoding headers (real); the documents name none', async () => {
    const replies = [
      await api.as({ none: true }).get('/ping'),
      await api.get('/pages/about'),
      await api.get('/pages?per_page=2'),
      await api.as({ none: true }).get('/me'),
      await api.get('/pages/nope'),
      await api.as({ none: true }).post('/auth/token', { username: 'admin', password: 'demo-admin-pass' }),
      await api.delete('/pages/contact/media/nothing.png'),
    ];
    for (const r of replies) {
      if (real) expect(headersOf(r), `${r.status} ${r.text.slice(0, 60)}`).toEqual(REAL_HEADERS);
      else {
        expect(r.headers.get('expires')).toBeNull();
        expect(r.headers.get('content-encoding')).toBeNull();
      }
    }
    // a 204 too
    const created = await api.post('/pages', { route: '/gone-soon', title: 'Gone soon' });
    expect(created.status).toBe(201);
    const deleted = await api.delete('/pages/gone-soon');
    expect(deleted.status).toBe(204);
    if (real) expect(headersOf(deleted)).toEqual(REAL_HEADERS);
  });

  test('X-Grav-Environment: a hostname-like name passes, anything else is a 400 on every route (real); X-Cms-Environment is ignored by it', async () => {
    for (const name of ['localhost', 'mysite.com', 'staging_2', 'a-b.c']) {
      expect((await api.get('/pages/about', { 'X-Grav-Environment': name })).status, name).toBe(200);
    }
    for (const name of ['bad env', '-leading', '.dot', 'host:8080', 'b@d']) {
      const env = { 'X-Grav-Environment': name };
      const priv = await api.get('/pages/about', env);
      const pub = await api.as({ none: true }).get('/ping', env);
      const unauth = await api.as({ none: true }).get('/me', env);
      if (real) {
        for (const r of [priv, pub, unauth]) {
          expect(r.status, name).toBe(400);
          expect(r.type).toBe('application/problem+json');
          expect(r.body).toEqual({ status: 400, title: 'Bad Request', detail: 'Invalid environment name. Use a valid hostname (e.g., localhost, mysite.com).' });
        }
      } else {
        expect([priv.status, pub.status, unauth.status], name).toEqual([200, 200, 401]);
      }
    }
    // the documents' header name means nothing to the real service, whatever its value
    expect((await api.get('/pages/about', { 'X-Cms-Environment': 'bad env' })).status).toBe(200);
    expect((await api.get('/pages/about', { 'X-Grav-Environment': '' })).status).toBe(200);
  });

  test('problem bodies: {status, title, detail, errors?}; a 401 says Bearer (real); malformed JSON is a 422 (real) or 400', async () => {
    const missing = await api.post('/pages', { content: 'x' });
    expect(missing.type).toBe('application/problem+json');
    expect(missing.body).toEqual({
      status: 422,
      title: 'Unprocessable Entity',
      detail: 'Missing required fields: route, title',
      errors: [
        { field: 'route', message: "The 'route' field is required." },
        { field: 'title', message: "The 'title' field is required." },
      ],
    });
    const badJson = await api.post('/pages', '{not json', { 'content-type': 'application/json' });
    expect(badJson.status).toBe(real ? 422 : 400);
    expect(badJson.body).toMatchObject({ status: badJson.status, title: real ? 'Unprocessable Entity' : 'Bad Request' });
    const unauth = await api.as({ none: true }).get('/pages');
    expect(unauth.headers.get('www-authenticate')).toBe(real ? 'Bearer' : null);
    // recording 24
    const nf = await api.get('/pages/does-not-exist');
    expect(nf.body).toEqual({ status: 404, title: 'Not Found', detail: 'Page not found at route: /does-not-exist' });
  });

  test('the parent filter: the documents list descendants; the real service every route with that prefix (/blog-archive too)', async () => {
    expect((await api.post('/pages', { route: '/blog-archive', title: 'Blog archive' })).status).toBe(201);
    const rows = (await api.get('/pages?parent=/blog&per_page=100')).body.data as Json[];
    const routes = rows.map((r) => r.route as string).sort();
    if (real) expect(routes).toEqual(['/blog', '/blog-archive', '/blog/post-1', '/blog/post-2', '/blog/post-3']);
    else expect(routes).toEqual(['/blog/post-1', '/blog/post-2', '/blog/post-3']);
  });

  test('the single-language site: translated_languages is an empty list `[]` in both (the real service’s empty PHP array)', async () => {
    const r = await api.get('/pages/about?translations=true');
    expect(r.body.data).toMatchObject({ translated_languages: [], untranslated_languages: [] });
    // the real service names home `/`, also here
    expect((await api.get('/pages/home')).body.data.route).toBe(real ? '/' : '/home');
  });
});
