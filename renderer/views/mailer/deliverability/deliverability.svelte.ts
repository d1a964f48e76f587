/**
 * A site's deliverability (contract/mailer-reports.ts; docs/mailer-campaigns.md, "Deliverability",
 * "Providers"): the checks of every From domain as the site last looked them up (Sitedesk's copy
 * with its time while the site is away, for reading only), looked up again on request; and the
 * providers whose bounce and complaint reports the site takes, kept in step with each write's
 * answer. No secret ever reaches this screen: the site answers only whether one is set.
 */
import type { MailerDeliverability, MailerProvider, MailerProviderName } from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';

export class DeliverabilityState {
  readonly siteId: string;
  report = $state.raw<MailerDeliverability | null>(null);
  error = $state.raw<AppError | null>(null);
  loading = $state(false);
  rechecking = $state(false);
  recheckError = $state<string | null>(null);
  providers = $state.raw<MailerProvider[] | null>(null);
  providersCopiedAt = $state<string | null>(null);
  providersError = $state.raw<AppError | null>(null);

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  async load(): Promise<void> {
    this.loading = true;
    await Promise.all([
      invoke('mailer.deliverability', { siteId: this.siteId }).then(
        (r) => ((this.report = r), (this.error = null)),
        (err: unknown) => (this.error = AppError.from(err)),
      ),
      this.loadProviders(),
    ]);
    this.loading = false;
  }

  async loadProviders(): Promise<void> {
    try {
      const r = await invoke('mailer.providers', { siteId: this.siteId });
      this.providers = r.providers;
      this.providersCopiedAt = r.copiedAt;
      this.providersError = null;
    } catch (err) {
      this.providersError = AppError.from(err);
    }
  }

  /** Every domain looked up again now; a refusal is said beside the button, the last answer stays. */
  async recheck(): Promise<boolean> {
    this.rechecking = true;
    try {
      this.report = await invoke('mailer.recheckDeliverability', { siteId: this.siteId });
      this.recheckError = null;
      return true;
    } catch (err) {
      this.recheckError = AppError.from(err).message;
      return false;
    } finally {
      this.rechecking = false;
    }
  }

  put(p: MailerProvider): void {
    this.providers = (this.providers ?? []).map((x) => (x.name === p.name ? { ...p, label: x.label } : x));
  }

  async secret(name: MailerProviderName, again = false) {
    const r = await invoke('mailer.providerSecret', { siteId: this.siteId, provider: name, ...(again ? { again } : {}) });
    this.put(r.provider);
    return r;
  }

  async setup(name: MailerProviderName) {
    const r = await invoke('mailer.providerSetup', { siteId: this.siteId, provider: name });
    this.put(r.provider);
    return r;
  }
}
