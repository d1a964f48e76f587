/** How a site's kind and way of signing in are named on screen. */
import type { SiteKind } from '../../electron/contract/index';

export const KIND_LABEL: Record<SiteKind, string> = { cms: 'CMS site', store: 'Store' };
export const AUTH_LABEL = { password: 'Password', apikey: 'API key' } as const;
