/**
 * What the page routes answer differently per flavour, picked once per sandbox (`pageWire`):
 * the page JSON (serialize.ts / serialize-real.ts), which pages a list holds (list-spec.ts /
 * list-real.ts), conditional requests and the headers of write replies.
 *
 * The real flavour follows getgrav/grav-plugin-api:classes/Api/Controllers/AbstractApiController.php
 * and PagesController.php:
 *   - a page read sends an ETag but never answers 304 (respondWithEtag() ignores If-None-Match);
 *   - If-Match is one value (validateEtag() normalises the whole header), so a list or `*` never
 *     matches: 409 (recordings 14–16);
 *   - writes add `X-Invalidates` (create `pages:create:{route}`, update and translations
 *     `pages:update:/{route}`, delete `pages:delete:/{route}`, move `pages:move:/{route}` and
 *     `pages:update:{new}`, reorder `pages:reorder:/{route}`, each with `pages:list`);
 *   - a Location is `{prefix}/pages{route}` with the route as it is, not percent-encoded;
 *   - a page the language has no file for is read through Grav's content fallback, and a missing
 *     page is "Page not found at route: /{route}" (recording 24).
 */
import type { Flavor } from '../../flavor';
import { invalidates, rawHeader } from '../real-wire';
import { pageLocation } from './common';
import { etagMatches, normalizeEtag } from './etag';
import { realLocate, realSelect } from './list-real';
import { specLocate, specSelect } from './list-spec';
import { realSerializer } from './serialize-real';
import { specSerializer, type LoadedPage, type PageSerializer } from './serialize';
import type { PageFiles, ContentTree } from './page-files';

export type WriteKind = 'create' | 'update' | 'delete' | 'move' | 'reorder';

export interface PageWire {
  serializer: PageSerializer;
  /** GET /pages: the rows the query keeps, in its order */
  select(store: PageFiles, tree: ContentTree, rows: LoadedPage[], q: URLSearchParams, lang: string | null): LoadedPage[];
  /** GET /pages `locate`: the index of that route in the rows, -1 when absent */
  locate(store: PageFiles, rows: LoadedPage[], locate: string): number;
  /** whether a read answers 304 to a matching If-None-Match */
  notModified: boolean;
  /** whether PATCH's If-Match names this ETag */
  ifMatch(header: string, etag: string): boolean;
  /** the Location of a created page (`route` as the client named it) */
  location(prefix: string, route: string, suffix?: string): string;
  /** extra headers of a write reply: `tags` are [kind, route] pairs */
  writeHeaders(tags: [WriteKind, string][]): Record<string, string>;
}

const specWire: PageWire = {
  serializer: specSerializer,
  select: specSelect,
  locate: (_store, rows, locate) => specLocate(rows, locate),
  notModified: true,
  ifMatch: (header, etag) => etagMatches(header, etag),
  location: pageLocation,
  writeHeaders: () => ({}),
};

const realWire: PageWire = {
  serializer: realSerializer,
  select: (store, tree, rows, q) => realSelect(store, tree, rows, q),
  locate: realLocate,
  notModified: false,
  ifMatch: (header, etag) => normalizeEtag(header) === normalizeEtag(etag),
  location: (prefix, route, suffix = '') => rawHeader(`${prefix}/pages${route}${suffix}`),
  writeHeaders: (tags) => invalidates([...tags.map(([kind, route]) => `pages:${kind}:${route}`), 'pages:list']),
};

export function pageWire(flavor: Flavor): PageWire {
  return flavor === 'real' ? realWire : specWire;
}
