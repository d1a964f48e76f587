/**
 * Test-only control routes, outside the API prefix under `/__sandbox`, so a sandbox running in
 * another process (Playwright's) can be steered the way in-process tests steer the handle:
 *
 *   /__sandbox/faults and /__sandbox/clock (../control.ts, shared with the store sandbox)
 *   GET|POST        /__sandbox/settings  token lifetimes, reported versions, twofaAvailable (false: 2FA routes answer 500)
 *   GET|DELETE      /__sandbox/mail      the mails "sent" (reset links with their tokens)
 *   POST            /__sandbox/accounts  create or change an account ({username, …fields})
 *   POST            /__sandbox/api-keys  create an API key ({username, scopes?, name?, expiry_days?})
 *   GET|POST        /__sandbox/user-list  the Users-list demo plugins: {plugins?, defaultFilter?, showAll?}
 *   GET|DELETE      /__sandbox/events    the events fired so far (`?name=onApiPageUpdated` filters)
 *   GET             /__sandbox/content   {pages, languages, default_language, root}
 *   POST            /__sandbox/pages/edit  change a page file behind the app's back (its ETag changes):
 *                                        {route, lang?, title?, content?, header? (merged), raw? (the
 *                                        whole file as text, e.g. invalid front matter)} → {route, file, etag}
 *   POST            /__sandbox/content/fail-moves  {after: n}: the nth folder move from now fails
 *                                        (exercises rollbacks); {after: null} disarms
 *   GET|POST        /__sandbox/packages  the package world's knobs; /packages/release publishes a
 *                                        new version; /packages/{slug}.zip serves a package zip for
 *                                        direct install (packages/controls.ts)
 *   GET|POST|DELETE /__sandbox/audit     the audit trail's knobs; /audit/seed fills it (a million
 *                                        events in seconds), /audit/prune applies the retention;
 *   GET|POST        /__sandbox/webhooks  {allowPrivate}; /webhooks/settled waits for deliveries (trail/controls.ts)
 *   GET|POST        /__sandbox/ops       the scheduler's and demo mode's knobs; /ops/jobs adds or changes
 *                                        a job; /ops/views adds page views (ops/controls.ts)
 *   GET|POST        /__sandbox/mailer    the mailer's knobs; /mailer/seed, /mailer/worker, /mailer/campaigns,
 *                                        /mailer/act, /mailer/messages (mailer/controls.ts)
 *
 * Bodies are `{data: …}`; a bad request is a 400 problem. The ETag `pages/edit` answers is the
 * one the sandbox's flavour sends for a plain read of the page.
 */
import { badControl, CONTROL_PREFIX, registerClockControls, registerFaultControls } from '../control';
import type { Faults } from '../faults';
import { HttpProblem, json, readBody, Router } from '../http';
import type { Account } from './accounts';
import type { CmsContext, CmsSettings } from './context';
import { mergeHeader } from './content/common';
import { serializePageFile } from './content/frontmatter';
import { etagOf } from './content/etag';
import { pageWire } from './content/page-wire';
import { loadPage } from './content/serialize';
import { registerPackageControls } from './packages/controls';
import { registerTrailControls } from './trail/controls';
import { registerOpsControls } from './ops/controls';
import { registerMailerControls } from './mailer/controls';

export { CONTROL_PREFIX };

const publicAccount = ({ hashed_password: _h, twofa_secret, reset, ...rest }: Account) => ({
  ...rest,
  twofa_secret: twofa_secret ? true : false,
  reset_pending: Boolean(reset),
});

export function controlRouter(ctx: CmsContext, faults: Faults): Router {
  const router = new Router(CONTROL_PREFIX);
  const bad = badControl;

  registerFaultControls(router, faults);
  registerClockControls(router, ctx.clock);

  router.on('GET', '/settings', (_req, res) => json(res, 200, { data: ctx.settings }));
  router.on('POST', '/settings', async (req, res) => {
    const body = await readBody(req);
    const numbers = ['accessTtl', 'refreshTtl', 'challengeTtl', 'resetTtl', 'batchMax', 'uploadMax'] as const;
    for (const k of numbers) {
      if (body[k] === undefined) continue;
      if (typeof body[k] !== 'number' || !(body[k] > 0)) throw bad(`${k} must be a positive number.`);
      ctx.settings[k] = body[k];
    }
    if (typeof body.cmsVersion === 'string') ctx.settings.cmsVersion = body.cmsVersion;
    if (typeof body.adminVersion === 'string' || body.adminVersion === null) ctx.settings.adminVersion = body.adminVersion as CmsSettings['adminVersion'];
    if (body.twofaAvailable !== undefined) {
      if (typeof body.twofaAvailable !== 'boolean') throw bad('twofaAvailable must be true or false.');
      ctx.settings.twofaAvailable = body.twofaAvailable;
    }
    json(res, 200, { data: ctx.settings });
  });

  router.on('GET', '/user-list', (_req, res) => json(res, 200, { data: ctx.userList }));
  router.on('POST', '/user-list', async (req, res) => {
    const body = await readBody(req);
    if (body.plugins !== undefined && typeof body.plugins !== 'boolean') throw bad('plugins must be true or false.');
    if (body.showAll !== undefined && typeof body.showAll !== 'boolean') throw bad('showAll must be true or false.');
    if (body.defaultFilter !== undefined && body.defaultFilter !== null && typeof body.defaultFilter !== 'string') throw bad('defaultFilter must be a tab id or null.');
    Object.assign(ctx.userList, pick(body, ['plugins', 'showAll', 'defaultFilter']));
    json(res, 200, { data: ctx.userList });
  });

  router.on('GET', '/mail', (_req, res) => json(res, 200, { data: ctx.mail.messages }));
  router.on('DELETE', '/mail', (_req, res) => {
    ctx.mail.clear();
    res.writeHead(204).end();
  });

  router.on('POST', '/accounts', async (req, res) => {
    const body = await readBody(req);
    const username = typeof body.username === 'string' ? body.username : '';
    const fields = pick(body, ['password', 'email', 'fullname', 'title', 'state', 'access', 'twofa_enabled', 'twofa_secret', 'content_editor', 'groups', 'language']);
    try {
      const existing = ctx.accounts.get(username);
      const account = existing
        ? await ctx.accounts.update(username, fields)
        : await ctx.accounts.create({ username, password: 'sandbox-pass', email: `${username}@example.test`, ...fields } as Parameters<typeof ctx.accounts.create>[0]);
      json(res, existing ? 200 : 201, { data: publicAccount(account!) });
    } catch (err) {
      throw bad(err);
    }
  });

  router.on('POST', '/api-keys', async (req, res) => {
    const body = await readBody(req);
    const username = typeof body.username === 'string' ? body.username : '';
    if (!ctx.accounts.get(username)) throw bad(`No account ${username}.`);
    const scopes = Array.isArray(body.scopes) ? body.scopes.filter((s): s is string => typeof s === 'string') : [];
    const { record, api_key } = ctx.apiKeys.create({
      username,
      scopes,
      name: typeof body.name === 'string' ? body.name : 'Sandbox key',
      expiry_days: typeof body.expiry_days === 'number' ? body.expiry_days : null,
    });
    const { hash: _hash, ...shown } = record;
    json(res, 201, { data: { ...shown, api_key } });
  });

  router.on('GET', '/events', (_req, res, _p, url) => {
    const name = url.searchParams.get('name');
    json(res, 200, { data: ctx.events.list(name ?? undefined) });
  });
  router.on('DELETE', '/events', (_req, res) => {
    ctx.events.clear();
    res.writeHead(204).end();
  });

  router.on('GET', '/content', (_req, res) => {
    const { site } = ctx.content;
    json(res, 200, { data: { pages: ctx.content.tree().pages.length, languages: site.languages, default_language: site.defaultLanguage, root: ctx.content.root } });
  });

  router.on('POST', '/content/fail-moves', async (req, res) => {
    const body = await readBody(req);
    if (body.after !== null && !(Number.isInteger(body.after) && (body.after as number) > 0)) throw bad('Send {"after": n} (n ≥ 1) or {"after": null}.');
    ctx.content.failMoveAfter(body.after as number | null);
    json(res, 200, { data: { after: body.after } });
  });

  router.on('POST', '/pages/edit', async (req, res) => {
    const body = await readBody(req);
    const result = editPage(ctx, body);
    json(res, 200, { data: result });
  });

  registerPackageControls(router, ctx);
  registerTrailControls(router, ctx);
  registerOpsControls(router, ctx);
  registerMailerControls(router, ctx);

  return router;
}

/**
 * Changes a page file the way another editor (or a person with a text editor) would: the file is
 * rewritten and its modification time moves forward by at least a second, so its ETag changes even
 * when the text does not.
 */
export function editPage(
  ctx: CmsContext,
  edit: { route?: unknown; lang?: unknown; title?: unknown; content?: unknown; header?: unknown; raw?: unknown },
): { route: string; file: string; etag: string | null } {
  const bad = (m: string) => new HttpProblem(400, 'Bad Request', m);
  if (typeof edit.route !== 'string' || edit.route === '') throw bad('route is required.');
  const store = ctx.content;
  const node = store.find(edit.route);
  if (!node) throw new HttpProblem(404, 'Not Found', `Page not found at route: ${edit.route}`);
  const lang = typeof edit.lang === 'string' && edit.lang !== '' ? edit.lang : null;
  const r = store.resolve(node, lang);
  if (!r) throw new HttpProblem(404, 'Not Found', `Page ${edit.route} has no file for language ${lang}.`);
  const path = `${node.dir}/${r.file.name}`;
  const parsed = store.read(node, r.file);
  const next = Math.max(ctx.clock.now(), parsed.mtimeMs + 1000);
  if (typeof edit.raw === 'string') {
    store.writeFile(path, edit.raw, next);
  } else {
    if (!parsed.ok) throw bad(`The file has invalid front matter; send raw text instead: ${parsed.error.message}`);
    let header: Record<string, unknown> = parsed.header;
    if (edit.header !== undefined) {
      if (typeof edit.header !== 'object' || edit.header === null || Array.isArray(edit.header)) throw bad('header must be an object.');
      header = mergeHeader(header, edit.header as Record<string, unknown>);
    }
    if (typeof edit.title === 'string') header = { ...header, title: edit.title };
    const content = typeof edit.content === 'string' ? edit.content : parsed.content;
    store.writeFile(path, serializePageFile(header, content), next);
  }
  const fresh = store.find(node.route)!;
  let etag: string | null = null;
  try {
    // the ETag the sandbox's flavour sends for a plain read of this page
    etag = etagOf(pageWire(ctx.flavor).serializer.page(store, loadPage(store, fresh, lang)));
  } catch {
    etag = null; // unreadable now (e.g. invalid front matter written on purpose)
  }
  return { route: node.route, file: store.relPath(path), etag };
}

function pick(body: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
}
