/**
 * Page media (document 1, "Media": the page rows): list with filter and sort, upload, delete. An
 * answer that cannot be read names the call, like every CMS answer.
 */
import * as v from 'valibot';
import type { PageMediaItem } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { multipartFile } from '../multipart';
import { callName, request } from './envelope';
import { routePath, segment } from '../url-path';

const Item = v.object({
  filename: v.string(),
  url: v.optional(v.nullable(v.string()), null),
  type: v.optional(v.string(), 'application/octet-stream'),
  size: v.optional(v.number(), 0),
  modified: v.optional(v.unknown()),
  meta: v.optional(v.record(v.string(), v.unknown())),
  alt: v.optional(v.string()),
  title: v.optional(v.string()),
  dimensions: v.optional(v.unknown()),
});

const toItem = (m: v.InferOutput<typeof Item>): PageMediaItem => {
  const meta: Record<string, unknown> = { ...(m.meta ?? {}) };
  if (m.alt !== undefined) meta.alt = m.alt;
  if (m.title !== undefined) meta.title = m.title;
  if (m.dimensions !== undefined) meta.dimensions = m.dimensions;
  return { filename: m.filename, url: m.url ?? null, type: m.type, size: m.size, ...(Object.keys(meta).length ? { meta } : {}) };
};

export const cmsMedia = {
  /** `filter` clauses as the site takes them (`field:op:value`), at most 10. */
  async list(t: Transport, route: string, o: { filter?: string[]; sort?: string; order?: 'asc' | 'desc' } = {}): Promise<PageMediaItem[]> {
    const call: CallOptions = { path: `/pages/${routePath(route)}/media`, query: { sort: o.sort, order: o.order, 'filter[]': o.filter } };
    const r = await request(t, call);
    return parseAnswer(v.array(Item), r.data, t, 'a media list', callName(call)).map(toItem);
  },

  async upload(
    t: Transport,
    route: string,
    file: { name: string; type: string; bytes: Uint8Array },
    o: { avoidOverwriting?: boolean; onProgress?: (sent: number, total: number) => void } = {},
  ): Promise<PageMediaItem[]> {
    const body = multipartFile('file', file, o.avoidOverwriting ? { avoid_overwriting: 'true' } : {});
    const call: CallOptions = {
      method: 'POST',
      path: `/pages/${routePath(route)}/media`,
      raw: { ...body, ...(o.onProgress ? { onProgress: o.onProgress } : {}) },
      timeoutMs: 10 * 60_000,
      reply: 'media',
    };
    const r = await request(t, call);
    return parseAnswer(v.array(Item), r.data, t, 'a media list', callName(call)).map(toItem);
  },

  async remove(t: Transport, route: string, filename: string): Promise<void> {
    await t.call({ method: 'DELETE', path: `/pages/${routePath(route)}/media/${segment(filename, 'file name')}` });
  },
};
