/**
 * The mailing plugin's audience routes (document 2, "Mailing plugin routes"; the shapes it leaves
 * "not shown" are docs/mailer-audience.md's), both flavours: under `/mailer/` with `mailer.*`
 * permissions (`spec`) or under `/mailroom/` with `mailroom.*` (`real`: Grav's Mailroom plugin,
 * whose REST API document 2 describes). Every route needs `api.access` and the plugin permission
 * (`view` reads, `manage` writes and exports); `api.super` counts as all; a scoped API key is capped
 * by its scopes; an API key in `X-API-Key` or a JWT in `X-API-Token` (credentials.ts).
 *
 *   GET    subscribers                    the table, newest first; meta.status_counts, meta.list_counts
 *   POST   subscribers                    add one: outcome added | invited | already_on | already_invited
 *   POST   subscribers/bulk               one action over ids, a filter (walked 500 at a time) or pasted addresses
 *   GET    subscribers/export             the table as CSV, the same filters, streamed (manage)
 *   GET    subscribers/{id}               one person: consent, lists, tags, import, suppression, sends, consent_log
 *   PATCH  subscribers/{id}               name, language, lists (only held lists move), tags; the address never changes
 *   DELETE subscribers/{id}               204; a suppression stays
 *   POST   subscribers/{id}/unsubscribe | resubscribe | confirm
 *   GET    subscribers/{id}/export        everything held about them, one JSON document (manage)
 *   POST   imports/preview                multipart file (+ mapping, list_id): columns, preset, first rows, dry run
 *   POST   imports                        multipart file, mapping, list_id, as_confirmed, tag, basis: 202 queued
 *   GET    imports, imports/{id}          runs with their counts and progress
 *   GET    lists, POST lists, PATCH lists/{id}   (DELETE: 405, lists are never deleted)
 *   GET    tags, POST tags, DELETE tags/{id}
 *   GET    segments/vocabulary, POST segments/preview, GET|POST segments, GET|PATCH|DELETE segments/{id}, POST segments/{id}/count
 *   GET    suppressions, POST suppressions, DELETE suppressions/{hash}
 *   POST   erase                          {erased, counts}
 *
 * Spec flavour only: campaigns (campaign-routes.ts), templates (template-routes.ts), overview,
 * settings and labels (overview-routes.ts), automations (flow-routes.ts), deliverability
 * and providers, reports (deliverability-routes.ts).
 */
import { rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize, type Principal } from '../credentials';
import { BULK_BATCH, isObj } from './audience';
import { registerCampaignRoutes } from './campaign-routes';
import { registerDeliverabilityRoutes, registerReportRoutes } from './deliverability-routes';
import { registerFlowRoutes } from './flow-routes';
import { registerOverviewRoutes } from './overview-routes';
import { registerTemplateRoutes } from './template-routes';
import { csvCell, csvLine } from './csv';
import { countRows, layoutOf, previewImport } from './imports';
import { normaliseEmail, normaliseTag } from './presets';
import { checkDefinition, DefinitionError, SOURCES, STATUSES, vocabulary } from './segments';
import { spoolMultipart } from './spool';
import { labelOf, suppressionWire, type RawList, type Status, type SubscriberFilters } from './store';
import { importWire, invalid, listWire, notFound, paged, pagingOf, refuse, segmentWire, subscriberDetail, subscriberExport, subscriberRows, tagWire, wireOf } from './wire';

const LIST_CODE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const HASH = /^[0-9a-f]{64}$/;
const BULK_ACTIONS_REAL = ['add_to_list', 'remove_from_list', 'add_tag', 'remove_tag', 'unsubscribe', 'delete'] as const;
const BULK_ACTIONS_SPEC = [...BULK_ACTIONS_REAL, 'confirm'] as const;

export function registerMailerRoutes(router: Router, ctx: CmsContext): void {
  const world = ctx.mailer;
  const wire = wireOf(ctx.flavor);
  const real = ctx.flavor === 'real';
  const B = `/${wire.base}`;
  const on = (method: string, path: string, handler: (req: IncomingMessage, res: ServerResponse, params: Record<string, string>, url: URL) => void | Promise<void>) => router.on(method, `${B}${path}`, handler);
  const allow = (req: IncomingMessage, url: URL, level: 'view' | 'manage'): Principal => authorize(ctx, req, url, `${wire.perm}.${level}`);
  const actor = (p: Principal) => ({ username: p.account.username });
  const selfPath = (path: string) => `${ctx.prefix}${B}${path}`;
  // campaigns, templates, overview, settings, labels: the documents' routes only, for now (the real flavour answers as it did)
  if (!real) {
    registerCampaignRoutes(router, ctx);
    registerTemplateRoutes(router, ctx);
    registerOverviewRoutes(router, ctx);
    registerFlowRoutes(router, ctx);
    registerDeliverabilityRoutes(router, ctx);
    registerReportRoutes(router, ctx);
  }
  const idOf = (raw: string | undefined, what: string): number => {
    if (!raw || !/^\d{1,15}$/.test(raw)) throw notFound(what);
    return Number(raw);
  };

  // ---- filters of the subscribers table (query string, or a bulk body's `filter` object)

  const parseFilters = (get: (key: string) => unknown): SubscriberFilters => {
    const f: SubscriberFilters = {};
    const text = (key: string): string | undefined => {
      const v = get(key);
      if (v === undefined || v === null || v === '') return undefined;
      if (typeof v !== 'string' && typeof v !== 'number') throw invalid(key, `${key} must be text.`, 'filter_invalid');
      return String(v).trim();
    };
    const int = (key: string): number | undefined => {
      const v = text(key);
      if (v === undefined) return undefined;
      if (!/^\d{1,15}$/.test(v)) throw invalid(key, `${key} must be an id.`, 'filter_invalid');
      return Number(v);
    };
    const q = text('q');
    if (q) f.q = q.slice(0, 200);
    const status = text('status');
    if (status !== undefined) {
      if (!(STATUSES as readonly string[]).includes(status)) throw invalid('status', `status must be one of ${STATUSES.join(', ')}.`, 'filter_invalid');
      f.status = status as Status;
    }
    const source = text('source');
    if (source !== undefined) {
      if (!(SOURCES as readonly string[]).includes(source)) throw invalid('source', `source must be one of ${SOURCES.join(', ')}.`, 'filter_invalid');
      f.source = source as SubscriberFilters['source'];
    }
    const list = int('list');
    if (list !== undefined) {
      if (!world.store.list(list)) throw invalid('list', `list: there is no list ${list}; GET ${wire.base}/lists names them.`, 'unknown_list');
      f.list = list;
    }
    const listStatus = text('list_status');
    if (listStatus !== undefined) {
      if (f.list === undefined) throw invalid('list_status', 'list_status needs list: where they stand on which list.', 'filter_invalid');
      if (!['pending', 'subscribed', 'unsubscribed', 'any'].includes(listStatus)) throw invalid('list_status', 'list_status must be pending, subscribed, unsubscribed or any.', 'filter_invalid');
      f.list_status = listStatus as SubscriberFilters['list_status'];
    }
    const tag = text('tag');
    if (tag !== undefined) {
      const t = /^\d+$/.test(tag) ? world.store.tag(Number(tag)) : world.store.tagByCode(normaliseTag(tag));
      if (!t) throw invalid('tag', `tag: there is no such tag; GET ${wire.base}/tags names them.`, 'unknown_tag');
      f.tag = t.id;
    }
    const campaign = int('campaign_id');
    const received = text('campaign_received');
    if (campaign !== undefined) {
      if (!world.store.campaign(campaign)) throw invalid('campaign_id', `campaign_id: there is no campaign ${campaign}.`, 'filter_invalid');
      f.campaign_id = campaign;
      if (received !== undefined && received !== 'yes' && received !== 'no') throw invalid('campaign_received', 'campaign_received must be yes (the people it reached) or no (the people it did not).', 'filter_invalid');
      f.campaign_received = (received as 'yes' | 'no' | undefined) ?? 'yes';
    } else if (received !== undefined) throw invalid('campaign_received', 'campaign_received needs campaign_id.', 'filter_invalid');
    return f;
  };
  const filtersOfUrl = (url: URL) => parseFilters((k) => url.searchParams.get(k) ?? undefined);
  const filtersOfBody = (value: unknown) => {
    if (!isObj(value)) throw invalid('filter', "filter must be an object of the table's filters (q, status, source, list, list_status, tag, campaign_id, campaign_received).", 'bulk_target');
    return parseFilters((k) => value[k]);
  };

  // ---- subscribers

  on('GET', '/subscribers', (req, res, _p, url) => {
    allow(req, url, 'view');
    const filters = filtersOfUrl(url);
    const { page, perPage } = pagingOf(ctx.flavor, url);
    const { rows, total } = world.store.query(filters, perPage, (page - 1) * perPage);
    const extra: Record<string, unknown> = { status_counts: world.store.statusCounts() };
    if (filters.list !== undefined) extra.list_counts = world.store.listCounts(filters.list);
    json(res, 200, paged(ctx.flavor, selfPath('/subscribers'), subscriberRows(world.store, rows), total, page, perPage, extra));
  });

  on('POST', '/subscribers', async (req, res, _p, url) => {
    const who = allow(req, url, 'manage');
    const body = await readBody(req);
    const r = world.audience.add(body, actor(who));
    json(res, r.status, { data: world.audience.addAnswer(r) }, r.created ? { Location: selfPath(`/subscribers/${r.subscriber.id}`) } : {});
  });

  on('POST', '/subscribers/bulk', async (req, res, _p, url) => {
    const who = allow(req, url, 'manage');
    const body = await readBody(req);
    const out = world.audience.bulk(body, actor(who), { actions: real ? BULK_ACTIONS_REAL : BULK_ACTIONS_SPEC, parseFilter: filtersOfBody });
    json(res, 200, { data: out });
  });

  on('GET', '/subscribers/export', async (req, res, _p, url) => {
    allow(req, url, 'manage');
    const filters = filtersOfUrl(url);
    res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="subscribers.csv"', 'Cache-Control': 'no-store' });
    res.write('\ufeff' + csvLine(['email', 'name', 'status', 'lists', 'tags', 'source', 'consent_at', 'confirmed_at', 'unsubscribed_at', 'language']));
    const iso = (t: number | null) => (t === null ? '' : new Date(t * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    let before: number | null = null;
    for (;;) {
      const rows = world.store.chunk(filters, before, BULK_BATCH);
      if (!rows.length) break;
      before = rows[rows.length - 1]!.id;
      const lists = world.store.membershipsOf(rows.map((r) => r.id));
      const tags = world.store.tagsOf(rows.map((r) => r.id));
      let text = '';
      for (const r of rows) {
        const l = (lists.get(r.id) ?? []).filter((m) => m.status !== 'unsubscribed').map((m) => (m.status === 'pending' ? `${m.code} (pending)` : m.code));
        text += csvLine([r.email, r.name, r.status, l.join('; '), (tags.get(r.id) ?? []).map((t) => t.code).join('; '), r.source, iso(r.consent_at), iso(r.confirmed_at), iso(r.unsubscribed_at), r.language ?? ''].map(csvCell));
      }
      if (!res.write(text)) await new Promise((r) => res.once('drain', r));
      if (res.destroyed) return;
    }
    res.end();
  });

  on('GET', '/subscribers/{id}', (req, res, params, url) => {
    allow(req, url, 'view');
    const d = subscriberDetail(world.store, idOf(params.id, 'subscriber'));
    if (!d) throw notFound('subscriber');
    json(res, 200, { data: d });
  });

  on('PATCH', '/subscribers/{id}', async (req, res, params, url) => {
    const who = allow(req, url, 'manage');
    const id = idOf(params.id, 'subscriber');
    world.audience.need(id);
    const body = await readBody(req);
    json(res, 200, { data: world.audience.patch(id, body, actor(who)) });
  });

  on('DELETE', '/subscribers/{id}', (req, res, params, url) => {
    allow(req, url, 'manage');
    world.audience.remove(idOf(params.id, 'subscriber'));
    res.writeHead(204).end();
  });

  const change = (fn: (id: number, body: Record<string, unknown>, who: Principal) => boolean) => async (req: IncomingMessage, res: ServerResponse, params: Record<string, string>, url: URL) => {
    const who = allow(req, url, 'manage');
    const id = idOf(params.id, 'subscriber');
    world.audience.need(id);
    const body = await readBody(req);
    const changed = fn(id, body, who);
    json(res, 200, { data: { changed, subscriber: subscriberRows(world.store, [world.store.subscriber(id)!])[0] } });
  };
  on('POST', '/subscribers/{id}/unsubscribe', change((id, _b, who) => world.audience.unsubscribe(id, actor(who))));
  on('POST', '/subscribers/{id}/resubscribe', change((id, body, who) => world.audience.resubscribe(id, body, actor(who))));
  on('POST', '/subscribers/{id}/confirm', change((id, _b, who) => world.audience.confirm(id, actor(who))));

  on('GET', '/subscribers/{id}/export', (req, res, params, url) => {
    allow(req, url, 'manage');
    const id = idOf(params.id, 'subscriber');
    const doc = subscriberExport(world.store, id, world.nowSec());
    if (!doc) throw notFound('subscriber');
    // the file is named by id: an address would end up in logs of whatever carries the header
    json(res, 200, doc, { 'Content-Disposition': `attachment; filename="subscriber-${id}-data.json"`, 'Cache-Control': 'no-store' });
  });

  // ---- imports

  const readUpload = async (req: IncomingMessage) => {
    const up = await spoolMultipart(req, world.uploadDir, ctx.settings.uploadMax);
    world.peakUploadBuffered = Math.max(world.peakUploadBuffered, up.peakBuffered);
    if (!up.file) throw refuse(422, 'file_required', 'Send the CSV file in a multipart part named file.', { errors: [{ field: 'file', message: 'required' }] });
    return up as typeof up & { file: NonNullable<typeof up.file> };
  };
  const listField = (value: string | undefined): RawList | null => {
    if (value === undefined || value.trim() === '') return null;
    return world.audience.listById(value.trim());
  };

  on('POST', '/imports/preview', async (req, res, _p, url) => {
    allow(req, url, 'manage');
    const up = await readUpload(req);
    try {
      const list = listField(up.fields.list_id);
      const data = await previewImport({ store: world.store, flavor: ctx.flavor, path: up.file.path, fileName: up.file.filename, bytes: up.file.bytes, mapping: up.fields.mapping, list });
      json(res, 200, { data });
    } finally {
      rmSync(up.file.path, { force: true });
    }
  });

  on('POST', '/imports', async (req, res, _p, url) => {
    const who = allow(req, url, 'manage');
    if (!world.knobs.worker) {
      req.resume();
      throw refuse(503, 'worker_unavailable', 'This site has no job queue running, so an import cannot be started. Start the worker (cron) and try again.');
    }
    const up = await readUpload(req);
    let queued = false;
    try {
      const f = up.fields;
      const list = listField(f.list_id);
      const asConfirmed = f.as_confirmed === undefined || f.as_confirmed === '' ? true : /^(1|true|yes|on)$/i.test(f.as_confirmed) ? true : /^(0|false|no|off)$/i.test(f.as_confirmed) ? false : null;
      if (asConfirmed === null) throw invalid('as_confirmed', 'as_confirmed must be true (they confirmed at the other tool) or false (ask everybody to confirm).');
      const tag = f.tag && f.tag.trim() ? normaliseTag(f.tag) : null;
      if (f.tag && f.tag.trim() && !tag) throw invalid('tag', 'tag has no letters or digits to make a tag code of.');
      if (f.mapping === undefined || f.mapping.trim() === '') throw invalid('mapping', 'mapping is required: an object from field to column, with an email column, e.g. {"email": "Email Address"}.', 'mapping_invalid');
      const layout = await layoutOf(up.file.path, f.mapping, ctx.flavor, true);
      const rows = await countRows(up.file.path);
      const basis = f.basis && f.basis.trim() ? f.basis.trim().slice(0, 500) : up.file.filename;
      const mapping: Record<string, string> = {};
      for (const [field, idx] of Object.entries(layout.map)) mapping[field] = layout.headers[idx!]!;
      const now = world.nowSec();
      const info = world.store
        .prep(
          `INSERT INTO imports (file_name, status, list_id, tag, basis, as_confirmed, preset, mapping, rows_total, rows_done, counts, reasons, created_by, queued_at, spool)
           VALUES (?, 'queued', ?, ?, ?, ?, ?, ?, ?, 0, ?, '{}', ?, ?, ?)`,
        )
        .run(up.file.filename.slice(0, 255), list?.id ?? null, tag, basis, asConfirmed ? 1 : 0, layout.preset?.key ?? null, JSON.stringify(mapping), rows, JSON.stringify({ new: 0, updated: 0, invalid: 0, duplicates: 0, suppressed: 0, unsubscribed: 0, skipped: 0 }), who.account.username, now, up.file.path);
      queued = true;
      const id = Number(info.lastInsertRowid);
      json(res, 202, { data: importWire(world.store.import(id)!) }, { Location: selfPath(`/imports/${id}`) });
    } finally {
      if (!queued) rmSync(up.file.path, { force: true });
    }
  });

  on('GET', '/imports', (req, res, _p, url) => {
    allow(req, url, 'view');
    const { page, perPage } = pagingOf(ctx.flavor, url);
    const { rows, total } = world.store.imports(perPage, (page - 1) * perPage);
    json(res, 200, paged(ctx.flavor, selfPath('/imports'), rows.map(importWire), total, page, perPage));
  });

  on('GET', '/imports/{id}', (req, res, params, url) => {
    allow(req, url, 'view');
    const i = world.store.import(idOf(params.id, 'import'));
    if (!i) throw notFound('import');
    json(res, 200, { data: importWire(i) });
  });

  // ---- lists

  const listOut = (l: RawList) => listWire(l, world.store.listCounts(l.id));
  const listFields = (body: Record<string, unknown>, creating: boolean) => {
    const out: Partial<RawList> = {};
    const text = (k: 'name' | 'description' | 'from_name', max: number, required = false) => {
      const v = body[k];
      if (v === undefined) {
        if (required) throw invalid(k, `${k} is required.`);
        return;
      }
      if (v === null && !required) {
        if (k === 'name') throw invalid(k, 'name cannot be emptied.');
        (out as Record<string, unknown>)[k] = null;
        return;
      }
      if (typeof v !== 'string' || !v.trim() || v.length > max) throw invalid(k, `${k} must be text of 1 to ${max} characters${required ? '' : ', or null'}.`);
      out[k] = v.trim();
    };
    text('name', 120, creating);
    text('description', 1000);
    text('from_name', 120);
    if (body.from_email !== undefined) {
      if (body.from_email === null) out.from_email = null;
      else {
        const e = normaliseEmail(body.from_email);
        if (!e) throw invalid('from_email', 'from_email must be an email address, or null for the site’s own.', 'invalid_email');
        out.from_email = e;
      }
    }
    for (const k of ['double_opt_in', 'public', 'is_default'] as const) {
      if (body[k] === undefined) continue;
      if (typeof body[k] !== 'boolean') throw invalid(k, `${k} must be true or false.`);
      out[k] = body[k] ? 1 : 0;
    }
    if (body.position !== undefined) {
      if (!Number.isInteger(body.position)) throw invalid('position', 'position must be a whole number.');
      out.position = body.position as number;
    }
    return out;
  };

  on('GET', '/lists', (req, res, _p, url) => {
    allow(req, url, 'view');
    const counts = world.store.listCountsAll();
    json(res, 200, { data: world.store.lists().map((l) => listWire(l, counts.get(l.id)!)) });
  });

  on('POST', '/lists', async (req, res, _p, url) => {
    allow(req, url, 'manage');
    const body = await readBody(req);
    if (typeof body.code !== 'string' || !LIST_CODE.test(body.code)) throw invalid('code', 'code must be lower case letters, digits, hyphens or underscores (up to 64), starting with a letter or digit: it is what forms, imports and campaigns name, and it never changes.', 'list_code_invalid');
    const fields = listFields(body, true);
    if (world.store.listByCode(body.code)) throw refuse(409, 'list_code_taken', 'A list with this code exists already: pick another code, or edit that list.', { errors: [{ field: 'code', message: 'taken' }] });
    const now = world.nowSec();
    const id = world.store.tx(() => {
      const position = fields.position ?? (world.store.lists().reduce((m, l) => Math.max(m, l.position), 0) + 1);
      const hasDefault = world.store.lists().some((l) => l.is_default === 1);
      const isDefault = fields.is_default ?? (hasDefault ? 0 : 1);
      if (isDefault) world.store.prep('UPDATE lists SET is_default = 0').run();
      const info = world.store
        .prep('INSERT INTO lists (code, name, description, double_opt_in, public, is_default, position, from_name, from_email, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(body.code, fields.name, fields.description ?? null, fields.double_opt_in ?? 1, fields.public ?? 0, isDefault, position, fields.from_name ?? null, fields.from_email ?? null, now, now);
      return Number(info.lastInsertRowid);
    });
    json(res, 201, { data: listOut(world.store.list(id)!) }, { Location: selfPath(`/lists/${id}`) });
  });

  on('PATCH', '/lists/{id}', async (req, res, params, url) => {
    allow(req, url, 'manage');
    const list = world.store.list(idOf(params.id, 'list'));
    if (!list) throw notFound('list');
    const body = await readBody(req);
    if (body.code !== undefined && body.code !== list.code) {
      throw invalid('code', "A list's code cannot change: every signup form, import and campaign finds the list by it. Make a new list with the new code instead.", 'list_code_immutable');
    }
    const fields = listFields(body, false);
    if (fields.is_default === 0 && list.is_default === 1) throw refuse(409, 'default_list_required', 'One list is always the default (where a signup naming no list goes): make another list the default instead.');
    world.store.tx(() => {
      if (fields.is_default === 1) world.store.prep('UPDATE lists SET is_default = 0 WHERE id <> ?').run(list.id);
      const keys = Object.keys(fields);
      if (keys.length) world.store.prep(`UPDATE lists SET ${keys.map((k) => `${k} = @${k}`).join(', ')}, updated_at = @updated_at WHERE id = @id`).run({ ...fields, id: list.id, updated_at: world.nowSec() });
    });
    json(res, 200, { data: listOut(world.store.list(list.id)!) });
  });

  on('DELETE', '/lists/{id}', (req, _res, _params, url) => {
    allow(req, url, 'manage');
    throw refuse(405, 'lists_not_deletable', 'Lists cannot be deleted. Take it off the preference centre (public: false) and out of your forms instead.', {}, { Allow: 'GET, PATCH' });
  });

  // ---- tags

  on('GET', '/tags', (req, res, _p, url) => {
    allow(req, url, 'view');
    json(res, 200, { data: world.store.tags().map((t) => tagWire(t, t.count)) });
  });

  on('POST', '/tags', async (req, res, _p, url) => {
    allow(req, url, 'manage');
    const body = await readBody(req);
    for (const k of ['code', 'label'] as const) if (body[k] !== undefined && body[k] !== null && typeof body[k] !== 'string') throw invalid(k, `${k} must be text.`);
    const source = (typeof body.code === 'string' && body.code.trim()) || (typeof body.label === 'string' && body.label.trim()) || '';
    const code = normaliseTag(source);
    if (!code) throw invalid(body.code !== undefined ? 'code' : 'label', 'Send a code or a label with at least one letter or digit: the code is made from it (lower case, hyphens for spaces).', 'tag_invalid');
    const label = typeof body.label === 'string' && body.label.trim() ? body.label.trim().slice(0, 120) : labelOf(code);
    const { tag, created } = world.store.ensureTag(code, label, world.nowSec());
    json(res, created ? 201 : 200, { data: tagWire(tag, world.store.tagCount(tag.id)) }, created ? { Location: selfPath(`/tags/${tag.id}`) } : {});
  });

  on('DELETE', '/tags/{id}', (req, res, params, url) => {
    allow(req, url, 'manage');
    const tag = world.store.tag(idOf(params.id, 'tag'));
    if (!tag) throw notFound('tag');
    const removed = world.store.tx(() => world.store.deleteTag(tag.id));
    json(res, 200, { data: { removed_from: removed } });
  });

  // ---- segments

  const definitionOf = (value: unknown, lenient: boolean) => {
    try {
      return checkDefinition(value, { flavor: ctx.flavor, lenient, known: world.knownIds() });
    } catch (e) {
      if (e instanceof DefinitionError) throw refuse(422, e.code, e.message, { errors: [{ field: e.path, message: e.message }] });
      throw e;
    }
  };
  const segmentListOf = (value: unknown): number | null => {
    if (value === undefined || value === null || value === '') return null;
    return world.audience.listById(value).id;
  };

  on('GET', '/segments/vocabulary', (req, res, _p, url) => {
    allow(req, url, 'view');
    const s = world.store;
    json(res, 200, { data: vocabulary({ lists: s.lists(), tags: s.tags(), campaigns: s.campaigns() }) });
  });

  on('POST', '/segments/preview', async (req, res, _p, url) => {
    allow(req, url, 'view');
    const body = await readBody(req);
    if (body.definition === undefined) throw invalid('definition', 'definition is required: {all, any, none} lists of conditions.', 'definition_invalid');
    const checked = definitionOf(body.definition, true);
    const r = world.countDefinition(checked.group, segmentListOf(body.list_id));
    json(res, 200, { data: { ...r, ignored: checked.ignored } });
  });

  on('GET', '/segments', (req, res, _p, url) => {
    allow(req, url, 'view');
    json(res, 200, { data: world.store.segments().map((s) => segmentWire(world.store, s)) });
  });

  const segmentText = (body: Record<string, unknown>, k: 'name' | 'description', required: boolean): string | null | undefined => {
    const v = body[k];
    if (v === undefined) {
      if (required) throw invalid(k, `${k} is required.`);
      return undefined;
    }
    if (v === null && !required) return null;
    if (typeof v !== 'string' || !v.trim() || v.length > (k === 'name' ? 120 : 1000)) throw invalid(k, `${k} must be text${required ? '' : ', or null'}.`);
    return v.trim();
  };

  on('POST', '/segments', async (req, res, _p, url) => {
    allow(req, url, 'manage');
    const body = await readBody(req);
    const name = segmentText(body, 'name', true)!;
    const description = segmentText(body, 'description', false) ?? null;
    const listId = segmentListOf(body.list_id);
    if (body.definition === undefined) throw invalid('definition', 'definition is required: {all, any, none} lists of conditions.', 'definition_invalid');
    definitionOf(body.definition, false);
    const now = world.nowSec();
    const info = world.store.prep('INSERT INTO segments (name, description, list_id, definition, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(name, description, listId, JSON.stringify(body.definition), now, now);
    const id = Number(info.lastInsertRowid);
    json(res, 201, { data: segmentWire(world.store, world.store.segment(id)!) }, { Location: selfPath(`/segments/${id}`) });
  });

  on('GET', '/segments/{id}', (req, res, params, url) => {
    allow(req, url, 'view');
    const s = world.store.segment(idOf(params.id, 'segment'));
    if (!s) throw notFound('segment');
    json(res, 200, { data: segmentWire(world.store, s) });
  });

  on('PATCH', '/segments/{id}', async (req, res, params, url) => {
    allow(req, url, 'manage');
    const seg = world.store.segment(idOf(params.id, 'segment'));
    if (!seg) throw notFound('segment');
    const body = await readBody(req);
    const patch: Record<string, unknown> = {};
    const name = segmentText(body, 'name', false);
    if (name !== undefined && name !== null) patch.name = name;
    if (name === null) throw invalid('name', 'name cannot be emptied.');
    const description = segmentText(body, 'description', false);
    if (description !== undefined) patch.description = description;
    let clears = false;
    if (body.list_id !== undefined) {
      const listId = segmentListOf(body.list_id);
      if (listId !== seg.list_id) clears = true;
      patch.list_id = listId;
    }
    if (body.definition !== undefined) {
      definitionOf(body.definition, false);
      const text = JSON.stringify(body.definition);
      if (text !== seg.definition) clears = true;
      patch.definition = text;
    }
    if (clears) Object.assign(patch, { count: null, left_out: null, counted_at: null });
    const keys = Object.keys(patch);
    if (keys.length) world.store.prep(`UPDATE segments SET ${keys.map((k) => `${k} = @${k}`).join(', ')}, updated_at = @updated_at WHERE id = @id`).run({ ...patch, id: seg.id, updated_at: world.nowSec() });
    json(res, 200, { data: segmentWire(world.store, world.store.segment(seg.id)!) });
  });

  on('DELETE', '/segments/{id}', (req, res, params, url) => {
    allow(req, url, 'manage');
    const seg = world.store.segment(idOf(params.id, 'segment'));
    if (!seg) throw notFound('segment');
    const using = world.store.campaignsUsingSegment(seg.id);
    if (using.length) {
      throw refuse(409, 'segment_in_use', `${using.length === 1 ? 'A draft or scheduled campaign uses' : `${using.length} draft or scheduled campaigns use`} this segment (${using.map((c) => c.name).join(', ')}): point ${using.length === 1 ? 'it' : 'them'} at another segment or none first.`, {
        // the real plugin's problem bodies carry only `code` and `errors`: there the names are in the detail alone
        campaigns: using.map((c) => ({ id: c.id, name: c.name, status: c.status })),
      });
    }
    world.store.prep('DELETE FROM segments WHERE id = ?').run(seg.id);
    res.writeHead(204).end();
  });

  on('POST', '/segments/{id}/count', (req, res, params, url) => {
    allow(req, url, 'manage');
    const seg = world.store.segment(idOf(params.id, 'segment'));
    if (!seg) throw notFound('segment');
    world.recount(seg.id);
    json(res, 200, { data: segmentWire(world.store, world.store.segment(seg.id)!) });
  });

  // ---- suppressions

  const REASONS = ['hard_bounce', 'complaint', 'manual', 'invalid'];

  on('GET', '/suppressions', (req, res, _p, url) => {
    allow(req, url, 'view');
    const reason = url.searchParams.get('reason');
    if (reason !== null && reason !== '' && !REASONS.includes(reason)) throw invalid('reason', `reason must be one of ${REASONS.join(', ')}.`, 'filter_invalid');
    const { page, perPage } = pagingOf(ctx.flavor, url);
    const { rows, total } = world.store.suppressions(reason || null, perPage, (page - 1) * perPage);
    json(res, 200, paged(ctx.flavor, selfPath('/suppressions'), rows.map(suppressionWire), total, page, perPage));
  });

  on('POST', '/suppressions', async (req, res, _p, url) => {
    allow(req, url, 'manage');
    const body = await readBody(req);
    const email = normaliseEmail(body.email);
    if (!email) throw invalid('email', body.email === undefined ? 'email is required.' : 'email is not an email address.', 'invalid_email');
    const reason = body.reason ?? 'manual';
    if (reason !== 'manual' && reason !== 'invalid') {
      throw invalid('reason', REASONS.includes(String(reason)) ? 'Bounces and complaints are recorded from the mail provider’s reports: add manual or invalid.' : 'reason must be manual (the default) or invalid.', 'reason_not_allowed');
    }
    if (body.note !== undefined && body.note !== null && (typeof body.note !== 'string' || body.note.length > 1000)) throw invalid('note', 'note must be text of at most 1000 characters.');
    const note = typeof body.note === 'string' && body.note.trim() ? body.note.trim() : null;
    const { created, hash } = world.store.tx(() => world.store.addSuppression(email, reason, note, world.nowSec()));
    json(res, created ? 201 : 200, { data: world.store.suppressionOut(hash) }, created ? { Location: selfPath(`/suppressions/${hash}`) } : {});
  });

  on('DELETE', '/suppressions/{hash}', (req, res, params, url) => {
    allow(req, url, 'manage');
    const hash = (params.hash ?? '').toLowerCase();
    if (!HASH.test(hash)) throw refuse(422, 'hash_invalid', 'The path takes the SHA-256 of the trimmed, lower-cased address, as 64 hex characters.');
    if (!world.store.tx(() => world.store.removeSuppression(hash))) throw refuse(404, 'not_found', 'No suppression has that hash.');
    res.writeHead(204).end();
  });

  // ---- erasure

  on('POST', '/erase', async (req, res, _p, url) => {
    allow(req, url, 'manage');
    const body = await readBody(req);
    const email = normaliseEmail(body.email);
    if (!email) throw invalid('email', body.email === undefined ? 'email is required: the address to forget.' : 'email is not an email address.', 'invalid_email');
    json(res, 200, { data: world.audience.erase(email) });
  });
}
