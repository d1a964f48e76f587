/**
 * The mailer's templates, spec flavour (document 2 "Templates"; docs/mailer-campaigns.md,
 * "Templates"): a name and the content a campaign starts from (`subject`, `preheader`, `body_md`,
 * `layout`), and whether it is offered (`is_active`). A campaign created with `template_id` copies
 * those fields once (`copyTemplate`); it never follows later edits, and deleting the template
 * leaves it its copy.
 */
import type { CampaignFields } from './campaigns';
import type { MailerStore, RawTemplate } from './store';
import { invalid, refuse } from './wire';

/** The fields a template gives a campaign: what its content is, nothing about who or how it is sent. */
export const TEMPLATE_CONTENT = ['subject', 'preheader', 'body_md', 'layout'] as const;
const READ_ONLY = ['id', 'created_at', 'updated_at', 'campaigns'];
const LIMITS = { subject: 998, preheader: 255, body_md: 200_000 } as const;

export interface TemplateFields {
  name?: string;
  subject?: string | null;
  preheader?: string | null;
  body_md?: string | null;
  layout?: 'store' | 'plain';
  is_active?: boolean;
}

/** A create (`creating`: name required) or PATCH body, checked; fields it does not name are not its business. */
export function checkTemplate(body: Record<string, unknown>, creating: boolean): TemplateFields {
  for (const k of READ_ONLY) if (k in body) throw invalid(k, `${k} is kept by the server.`, 'field_read_only');
  const out: TemplateFields = {};
  if (creating || body.name !== undefined) {
    if (typeof body.name !== 'string' || !body.name.trim() || body.name.length > 200) throw invalid('name', 'name is required: text of at most 200 characters.');
    out.name = body.name.trim();
  }
  for (const [k, max] of Object.entries(LIMITS) as [keyof typeof LIMITS, number][]) {
    const v = body[k];
    if (v === undefined) continue;
    if (v !== null && (typeof v !== 'string' || v.length > max)) throw invalid(k, `${k} must be text of at most ${max} characters.`);
    out[k] = v === '' ? null : (v as string | null);
  }
  if (body.layout !== undefined) {
    if (body.layout !== 'store' && body.layout !== 'plain') throw invalid('layout', 'layout must be store (the branded layout) or plain.');
    out.layout = body.layout;
  }
  if (body.is_active !== undefined) {
    if (typeof body.is_active !== 'boolean') throw invalid('is_active', 'is_active must be true or false.');
    out.is_active = body.is_active;
  }
  return out;
}

/**
 * What a campaign created from `t` starts with: the template's content, under the fields the
 * create body gives itself (a subject written with the create wins over the template's). Pure.
 */
export function copyTemplate(t: Pick<RawTemplate, (typeof TEMPLATE_CONTENT)[number]>, given: CampaignFields): CampaignFields {
  const copy: CampaignFields = { subject: t.subject, preheader: t.preheader, body_md: t.body_md, layout: t.layout };
  return { ...copy, ...given };
}

/** A create's `template_id`: the template it names, offered (`is_active`), or the refusal. */
export function templateForCampaign(store: MailerStore, raw: unknown): RawTemplate {
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1) throw invalid('template_id', 'template_id must be the id of a template (GET mailer/templates names them).', 'unknown_template');
  const t = templateById(store, raw);
  if (!t) throw invalid('template_id', `template_id: there is no template ${raw}; GET mailer/templates names them.`, 'unknown_template');
  if (!t.is_active) throw refuse(409, 'template_inactive', 'That template is switched off (is_active: false): switch it on, or start from another template.', { template_id: t.id });
  return t;
}

export const templateById = (store: MailerStore, id: number): RawTemplate | null => (store.prep('SELECT * FROM templates WHERE id = ?').get(id) as RawTemplate | undefined) ?? null;

/** Every template, by name (as a picker shows them), `active` alone when asked. */
export function templateTable(store: MailerStore, active: boolean | null): RawTemplate[] {
  const where = active === null ? '' : 'WHERE is_active = ?';
  return store.prep(`SELECT * FROM templates ${where} ORDER BY name COLLATE NOCASE, id`).all(...(active === null ? [] : [active ? 1 : 0])) as RawTemplate[];
}

export function insertTemplate(store: MailerStore, f: TemplateFields, nowSec: number): number {
  const info = store
    .prep('INSERT INTO templates (name, subject, preheader, body_md, layout, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(f.name!, f.subject ?? null, f.preheader ?? null, f.body_md ?? null, f.layout ?? 'store', f.is_active === false ? 0 : 1, nowSec, nowSec);
  return Number(info.lastInsertRowid);
}

export function updateTemplate(store: MailerStore, t: RawTemplate, f: TemplateFields, nowSec: number): void {
  const next = { ...t, ...f, is_active: f.is_active === undefined ? t.is_active : f.is_active ? 1 : 0 };
  store.prep('UPDATE templates SET name = ?, subject = ?, preheader = ?, body_md = ?, layout = ?, is_active = ?, updated_at = ? WHERE id = ?').run(next.name, next.subject, next.preheader, next.body_md, next.layout, next.is_active, nowSec, t.id);
}

/** Deletes the template; campaigns written from it keep their copy and their `template_id` (ids are never given again). */
export const deleteTemplate = (store: MailerStore, id: number): void => void store.prep('DELETE FROM templates WHERE id = ?').run(id);

export function templateWire(store: MailerStore, t: RawTemplate) {
  return {
    id: t.id,
    name: t.name,
    subject: t.subject,
    preheader: t.preheader,
    body_md: t.body_md,
    layout: t.layout,
    is_active: t.is_active === 1,
    // how many campaigns were written from it (each has its own copy)
    campaigns: (store.prep('SELECT count(*) AS n FROM campaigns WHERE template_id = ?').get(t.id) as { n: number }).n,
    missing: (['subject', 'body_md'] as const).filter((k) => !t[k]),
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}
