/**
 * The mailer's template routes, spec flavour only (document 2 "Templates"; docs/mailer-campaigns.md,
 * "Templates"); the real flavour (Mailroom) is left answering 404. Reads need `mailer.view`,
 * writes and the unsaved preview `mailer.manage`.
 *
 *   GET    templates               every template by name; active=1|0; meta {total, active}
 *   POST   templates               name (required), subject, preheader, body_md, layout, is_active (201, Location)
 *   GET    templates/{id}          one, with how many campaigns were written from it
 *   PATCH  templates/{id}          edit; campaigns written from it keep their copy
 *   DELETE templates/{id}          204; campaigns written from it keep their copy
 *   GET    templates/{id}/preview  rendered as a campaign's email is (render.ts); POST: unsaved content over the saved
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { renderEmail } from './render';
import type { RawTemplate } from './store';
import { checkTemplate, deleteTemplate, insertTemplate, TEMPLATE_CONTENT, templateById, templateTable, templateWire, updateTemplate } from './templates';
import { invalid, notFound } from './wire';

type Handler = (req: IncomingMessage, res: ServerResponse, params: Record<string, string>, url: URL) => void | Promise<void>;

export function registerTemplateRoutes(router: Router, ctx: CmsContext): void {
  const world = ctx.mailer;
  const B = '/mailer/templates';
  const on = (method: string, path: string, handler: Handler) => router.on(method, `${B}${path}`, handler);
  const allow = (req: IncomingMessage, url: URL, level: 'view' | 'manage') => authorize(ctx, req, url, `mailer.${level}`);
  const need = (raw: string | undefined): RawTemplate => {
    const t = raw && /^\d{1,15}$/.test(raw) ? templateById(world.store, Number(raw)) : null;
    if (!t) throw notFound('template');
    return t;
  };
  const answer = (res: ServerResponse, id: number, status = 200, headers: Record<string, string> = {}) => json(res, status, { data: templateWire(world.store, templateById(world.store, id)!) }, headers);

  on('GET', '', (req, res, _p, url) => {
    allow(req, url, 'view');
    const raw = url.searchParams.get('active');
    if (raw !== null && raw !== '' && raw !== '1' && raw !== '0') throw invalid('active', 'active must be 1 (the templates offered) or 0 (those switched off).', 'filter_invalid');
    const rows = templateTable(world.store, raw === '1' ? true : raw === '0' ? false : null);
    const all = templateTable(world.store, null);
    // few, like lists and segments: answered whole, not paged
    json(res, 200, { data: rows.map((t) => templateWire(world.store, t)), meta: { total: all.length, active: all.filter((t) => t.is_active === 1).length } });
  });

  on('POST', '', async (req, res, _p, url) => {
    allow(req, url, 'manage');
    const id = insertTemplate(world.store, checkTemplate(await readBody(req), true), world.nowSec());
    answer(res, id, 201, { Location: `${ctx.prefix}${B}/${id}` });
  });

  on('GET', '/{id}', (req, res, params, url) => {
    allow(req, url, 'view');
    answer(res, need(params.id).id);
  });

  on('PATCH', '/{id}', async (req, res, params, url) => {
    allow(req, url, 'manage');
    const t = need(params.id);
    updateTemplate(world.store, t, checkTemplate(await readBody(req), false), world.nowSec());
    answer(res, t.id);
  });

  on('DELETE', '/{id}', (req, res, params, url) => {
    allow(req, url, 'manage');
    deleteTemplate(world.store, need(params.id).id);
    res.writeHead(204).end();
  });

  const preview = (t: RawTemplate, over: ReturnType<typeof checkTemplate>) => {
    const f = { subject: t.subject, preheader: t.preheader, body_md: t.body_md, layout: t.layout, ...over };
    return { ...renderEmail(f, { name: world.siteName }), missing: (['subject', 'body_md'] as const).filter((k) => !f[k]) };
  };
  on('GET', '/{id}/preview', (req, res, params, url) => {
    allow(req, url, 'view');
    json(res, 200, { data: preview(need(params.id), {}) });
  });
  on('POST', '/{id}/preview', async (req, res, params, url) => {
    allow(req, url, 'manage');
    const t = need(params.id);
    const body = await readBody(req);
    // the content a preview renders, checked as an edit checks it; name and is_active are not its business
    const picked = Object.fromEntries(TEMPLATE_CONTENT.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
    const { name: _n, is_active: _a, ...over } = checkTemplate(picked, false);
    json(res, 200, { data: preview(t, over) });
  });
}
