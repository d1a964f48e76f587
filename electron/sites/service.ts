import { randomUUID } from 'node:crypto';
import { plainHttpToAnotherComputer, type ChannelParsed, type ConnectionReport, type Site, type SiteKind } from '../contract';
import type { SitesRepo } from '../db/repos/sites';
import { AppError } from '../base/app-error';
import { siteAccount, type SecretStore } from '../secrets/secret-store';
import type { FetchLike } from '../api/http';
import { checkBaseUrl, checkEnvironment, secretsStayWith } from './url';
import { probeSite } from './probe';

type Draft = ChannelParsed<'sites.add'>;

export interface SitesDeps {
  repo: SitesRepo;
  secrets: SecretStore;
  fetch: FetchLike;
  /** Called after every change with the whole list (the Host turns it into the `sites.changed` event). */
  changed: (sites: Site[]) => void;
  /** Drops whatever is cached for a site (later issues add pages, drafts…; the FK cascade does most). */
  purgeCache?: (siteId: string) => void;
  /** After an add (the new site's session announces itself). */
  added?: (site: Site) => void;
  /** After an edit (sessions reset when the address or sign-in mode changed). */
  edited?: (before: Site, after: Site) => Promise<void>;
}

export function sitesService(deps: SitesDeps) {
  const { repo, secrets } = deps;

  /** All rules at once, so the form can show every problem in one go. */
  function checkDraft(d: Draft, selfId?: string) {
    const fields: Record<string, string> = {};
    const url = checkBaseUrl(d.baseUrl, d.kind, d.allowPlainHttp === true);
    if (!url.ok) fields.baseUrl = url.message;
    const env = d.kind === 'cms' ? checkEnvironment(d.environment) : ({ ok: true, value: null } as const);
    if (!env.ok) fields.environment = env.message;
    const clash = repo.findByName(d.name);
    if (clash && clash.id !== selfId) fields.name = `A site named “${clash.name}” already exists.`;
    if (d.authMode === 'apikey' && d.apiKey !== undefined && d.apiKey.trim() === '' && !selfId) {
      fields.apiKey = 'Enter the API key, or choose password sign-in.';
    }
    if (Object.keys(fields).length) {
      throw new AppError({
        code: clash && clash.id !== selfId && Object.keys(fields).length === 1 ? 'duplicate' : 'invalid_input',
        message: 'Some fields need attention.',
        fields,
      });
    }
    const baseUrl = (url as { value: string }).value;
    // stored only where it means something: the site shows it as a site on plain HTTP
    const allowPlainHttp = d.allowPlainHttp === true && plainHttpToAnotherComputer(baseUrl);
    return { baseUrl, environment: (env as { value: string | null }).value, allowPlainHttp };
  }

  const must = (id: string): Site => {
    const site = repo.get(id);
    if (!site) throw new AppError({ code: 'not_found', message: 'That site no longer exists.' });
    return site;
  };

  const emit = () => deps.changed(repo.list());

  return {
    list: (): Site[] => repo.list(),
    get: must,

    async add(d: Draft): Promise<Site> {
      const { baseUrl, environment, allowPlainHttp } = checkDraft(d);
      const id = randomUUID();
      const key = d.authMode === 'apikey' ? d.apiKey?.trim() : undefined;
      // the secret first: if the keychain refuses, nothing has been written anywhere
      if (key) await secrets.set(siteAccount.apiKey(id), key);
      let site: Site;
      try {
        site = repo.insert({ id, name: d.name, kind: d.kind, baseUrl, environment, authMode: d.authMode, hasApiKey: Boolean(key), allowPlainHttp });
      } catch (err) {
        if (key) await secrets.delete(siteAccount.apiKey(id)).catch(() => {});
        throw err;
      }
      deps.added?.(site);
      emit();
      return site;
    },

    async update(u: ChannelParsed<'sites.update'>): Promise<Site> {
      const before = must(u.id);
      const { baseUrl, environment, allowPlainHttp } = checkDraft(u, u.id);
      let hasApiKey = before.hasApiKey;
      const account = siteAccount.apiKey(u.id);
      if (secretsStayWith(before, { baseUrl, kind: u.kind })) {
        if (u.authMode !== 'apikey' && before.hasApiKey) {
          await secrets.delete(account); // no key left behind for a mode that no longer uses it
          hasApiKey = false;
        }
      } else {
        // Another origin or kind: every secret of the site (key, tokens, store session) was given for
        // the old one and goes, here at the Host, whatever the renderer sent; only a key given in
        // this same call goes to the new address.
        await secrets.deleteByPrefix(siteAccount.prefix(u.id));
        hasApiKey = false;
      }
      if (u.authMode === 'apikey' && u.apiKey !== undefined) {
        const key = u.apiKey.trim();
        if (key) await secrets.set(account, key);
        else await secrets.delete(account);
        hasApiKey = Boolean(key);
      }
      const site = repo.update({ id: u.id, name: u.name, kind: u.kind, baseUrl, environment, authMode: u.authMode, hasApiKey, allowPlainHttp });
      if (!site) throw new AppError({ code: 'not_found', message: 'That site no longer exists.' });
      await deps.edited?.(before, site);
      emit();
      return site;
    },

    async remove(id: string): Promise<{ id: string }> {
      must(id);
      // secrets before the row: if the keychain refuses, the site stays and says why
      await secrets.deleteByPrefix(siteAccount.prefix(id));
      deps.purgeCache?.(id);
      repo.remove(id);
      emit();
      return { id };
    },

    reorder(ids: string[]): Site[] {
      const current = repo.list().map((s) => s.id);
      const given = new Set(ids);
      if (given.size !== ids.length || ids.length !== current.length || current.some((id) => !given.has(id))) {
        throw new AppError({
          code: 'conflict',
          message: 'The list of sites changed while you were reordering it. Try again.',
        });
      }
      repo.reorder(ids);
      const sites = repo.list();
      deps.changed(sites);
      return sites;
    },

    async test(input: ChannelParsed<'sites.test'>): Promise<ConnectionReport> {
      if ('id' in input) {
        const site = must(input.id);
        return probeSite(deps.fetch, site);
      }
      const t = input.target;
      const url = checkBaseUrl(t.baseUrl, t.kind, t.allowPlainHttp === true);
      const env = t.kind === 'cms' ? checkEnvironment(t.environment) : ({ ok: true, value: null } as const);
      const fields: Record<string, string> = {};
      if (!url.ok) fields.baseUrl = url.message;
      if (!env.ok) fields.environment = env.message;
      if (!url.ok || !env.ok) throw AppError.fields(fields, 'Fix the address before testing it.');
      return probeSite(deps.fetch, { kind: t.kind as SiteKind, baseUrl: url.value, environment: env.value });
    },
  };
}

export type SitesService = ReturnType<typeof sitesService>;
