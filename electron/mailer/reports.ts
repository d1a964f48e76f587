/**
 * The mailer's deliverability, providers and reports (contract/mailer-reports.ts) through the
 * site's base. Kept on this computer with their time, read while the site is away: the last
 * deliverability answer (a recheck replaces it), the providers as settings list them, and each
 * report over its default period (the last 30 days). Nothing here holds an address: the reports
 * are figures only, and a provider's secret is never answered by the site, so never kept.
 *
 * Writes (the recheck, a secret, a setup) need `manage`, refused here as the site would; sent now
 * or refused, never queued. A secret minted twice replaces the first: a mint whose answer was lost
 * is found out from settings (a provider without a secret before has one now: that was it), and
 * where one was set before, asked again it is refused saying so unless the person asks once more.
 * A report's CSV is streamed from the site into a file the person chose (export-file.ts).
 */
import { AppError, mayHaveArrived } from '../base/app-error';
import { timeOfDay, UncertainWrites } from '../base/uncertain';
import type { Transport } from '../api/transport';
import { cmsMailerReports } from '../api/cms/mailer-reports';
import { routeMissing, type MailerBases } from './base';
import { csvRecords, exportToFile } from './export-file';
import { MAILER_REPORT_WORDS, type ChannelParsed, type MailerBase, type MailerDeliverability, type MailerExportOutcome, type MailerExportProgress, type MailerProvider, type MailerReport, type MailerReportType, type ProviderChange, type SaveFileChoice } from '../contract';

export interface ReportDeps {
  t: (siteId: string) => Transport;
  bases: MailerBases;
  reading: <T>(siteId: string, call: (b: MailerBase) => Promise<T>) => Promise<T>;
  writing: <T>(siteId: string, refused: string, call: (b: MailerBase, transport: Transport) => Promise<T>) => Promise<T>;
  copied: <T>(siteId: string, key: string, call: (t: Transport, b: MailerBase) => Promise<T>) => Promise<{ value: T; copiedAt: string | null }>;
  /** A kept copy replaced by a fresh answer (its time now). */
  putCopy: <T>(siteId: string, key: string, value: T) => void;
  keepCopy: <T>(siteId: string, key: string, change: (value: T) => T) => void;
  /** Why this account may not manage the site's mailer (its permission, a demo account), or null. */
  manageBlocked: (siteId: string, b: MailerBase) => string | null;
  said: (err: unknown) => never;
  emitProgress: (p: MailerExportProgress) => void;
  chooseSaveFile?: (o: { title: string; defaultName: string; format: 'csv' | 'json' }) => Promise<string | null>;
  now?: () => number;
}

export const DELIVERABILITY_KEY = 'mailer:deliverability';
export const PROVIDERS_KEY = 'mailer:providers';
export const reportKey = (type: MailerReportType) => `mailer:report:${type}`;

/** A plugin without these routes (the real flavour's Mailroom so far), said as such. */
const withoutRoute = (what: string, err: unknown): unknown =>
  routeMissing(err) ? new AppError({ code: 'not_found', status: 404, reason: 'no_reports', message: `This site’s mailing plugin has no ${what} (it answers no such route).` }, { cause: err }) : err;
const noRoute = (what: string) => (err: unknown): never => {
  throw withoutRoute(what, err);
};

export function mailerReports(deps: ReportDeps) {
  const t = deps.t;
  const lostSecrets = new UncertainWrites<{ hadSecret: boolean }>(deps.now);
  const exports = new Map<string, AbortController>();

  /** A write after the Host's own permission check (the site refuses it too). */
  const managing = <T>(siteId: string, refused: string, call: (b: MailerBase, transport: Transport) => Promise<T>) =>
    deps.writing(siteId, refused, (b, transport) => {
      const blocked = deps.manageBlocked(siteId, b);
      if (blocked) throw new AppError({ code: 'forbidden', status: 403, message: `${refused}: ${blocked.charAt(0).toLowerCase()}${blocked.slice(1)}` });
      return call(b, transport);
    });

  const keepProvider = (siteId: string, p: MailerProvider) =>
    deps.keepCopy<MailerProvider[]>(siteId, PROVIDERS_KEY, (all) => all.map((x) => (x.name === p.name ? { ...p, label: x.label, reports: p.reports.length ? p.reports : x.reports } : x)));

  const providersNow = (siteId: string) => deps.reading(siteId, (b) => cmsMailerReports.providers(t(siteId), b));

  return {
    async deliverability(siteId: string): Promise<MailerDeliverability> {
      const { value, copiedAt } = await deps.copied(siteId, DELIVERABILITY_KEY, (transport, b) => cmsMailerReports.deliverability(transport, b, false)).catch(noRoute('deliverability checks'));
      return { ...value, copiedAt };
    },

    async recheck(siteId: string): Promise<MailerDeliverability> {
      const value = await managing(siteId, 'The domains were not checked again', (b, transport) => cmsMailerReports.deliverability(transport, b, true)).catch(noRoute('deliverability checks'));
      deps.putCopy(siteId, DELIVERABILITY_KEY, value);
      return { ...value, copiedAt: null };
    },

    async providers(siteId: string): Promise<{ providers: MailerProvider[]; copiedAt: string | null }> {
      const { value, copiedAt } = await deps.copied(siteId, PROVIDERS_KEY, (transport, b) => cmsMailerReports.providers(transport, b)).catch(noRoute('provider settings'));
      return { providers: value, copiedAt };
    },

    async secret(input: ChannelParsed<'mailer.providerSecret'>): Promise<ProviderChange> {
      const { siteId, provider, again } = input;
      const key = `${siteId}\nsecret\n${provider}`;
      const earlier = lostSecrets.get(key);
      if (earlier && !again) {
        const now = (await providersNow(siteId)).find((p) => p.name === provider);
        if (!earlier.value.hadSecret && now?.secretSet) {
          // the lost mint made it: that one stands (a second would only replace it)
          lostSecrets.forget(key);
          keepProvider(siteId, now);
          return { provider: now, rotated: false };
        }
        if (earlier.value.hadSecret) {
          throw new AppError({ code: 'conflict', status: 409, reason: 'may_have_arrived', message: `The secret may already have been replaced at ${timeOfDay(earlier.at)} (its answer was lost). Set the webhook up again to be sure the provider has the one the site keeps, or replace it once more.` });
        }
      }
      // whether it has one now, so a lost answer can be told apart later (not known: asked again, it is minted)
      const before = await providersNow(siteId).then(
        (all) => all.find((p) => p.name === provider)?.secretSet ?? false,
        () => null,
      );
      try {
        const r = await managing(siteId, 'No secret was made', (b, transport) => cmsMailerReports.providerWrite(transport, b, provider, 'secret')).catch(noRoute('providers'));
        lostSecrets.forget(key);
        keepProvider(siteId, r.provider);
        return { provider: r.provider, rotated: r.rotated };
      } catch (err) {
        if (mayHaveArrived(err) && before !== null) lostSecrets.remember(key, { hadSecret: before });
        throw err;
      }
    },

    /** A setup asked again with the same secret is the same webhook (the site answers `created: false`). */
    async setup(siteId: string, provider: string): Promise<ProviderChange> {
      const r = await managing(siteId, 'The webhook was not set up', (b, transport) => cmsMailerReports.providerWrite(transport, b, provider, 'setup')).catch(noRoute('providers'));
      keepProvider(siteId, r.provider);
      return { provider: r.provider, created: r.created };
    },

    /** A report; over the default period (none given) it is kept as a copy. */
    async report(input: ChannelParsed<'mailer.report'>): Promise<MailerReport> {
      const { siteId, type, from, to } = input;
      if (from && to && Date.parse(from) >= Date.parse(to)) throw AppError.fields({ from: 'The period starts before it ends.' }, 'The period starts before it ends.');
      if (from === undefined && to === undefined) {
        const { value, copiedAt } = await deps.copied(siteId, reportKey(type), (transport, b) => cmsMailerReports.report(transport, b, type, {})).catch(noRoute('reports'));
        return { ...value, copiedAt };
      }
      const r = await deps.reading(siteId, (b) => cmsMailerReports.report(t(siteId), b, type, { from, to })).catch(noRoute('reports'));
      return { ...r, copiedAt: null };
    },

    async chooseFile(type: MailerReportType): Promise<SaveFileChoice> {
      if (!deps.chooseSaveFile) return { unsupported: true };
      const file = await deps.chooseSaveFile({ title: `Save the ${MAILER_REPORT_WORDS[type].label.toLowerCase()} report`, defaultName: `${type}-report.csv`, format: 'csv' });
      return file ? { file, confirmed: true } : { cancelled: true };
    },

    /** The site's CSV into the file the person named: checked first, whole or nothing (export-file.ts). */
    async exportCsv(input: ChannelParsed<'mailer.exportReport'>): Promise<MailerExportOutcome> {
      const { siteId, type, from, to, exportId } = input;
      if (exports.has(exportId)) throw new AppError({ code: 'conflict', message: 'That export is under way already.' });
      await deps.bases.base(siteId);
      const stop = new AbortController();
      exports.set(exportId, stop);
      try {
        return await exportToFile({
          file: input.file,
          overwrite: input.overwrite === true,
          signal: stop.signal,
          counter: csvRecords(),
          matched: null,
          said: (err) => deps.said(withoutRoute('reports', err)),
          progress: (bytes, rows) => deps.emitProgress({ exportId, siteId, bytes, rows, matched: null }),
          download: (into) => deps.bases.on(siteId, (b) => cmsMailerReports.reportCsv(t(siteId), b, type, { from, to }, { signal: stop.signal, into })),
        });
      } finally {
        exports.delete(exportId);
      }
    },

    /** Stops a report's export under way; false when none of this area runs by that id. */
    cancelExport(exportId: string): boolean {
      const stop = exports.get(exportId);
      stop?.abort();
      return stop !== undefined;
    },

    close(): void {
      for (const s of exports.values()) s.abort();
    },
  };
}
