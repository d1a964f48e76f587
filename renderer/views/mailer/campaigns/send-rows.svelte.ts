/**
 * A campaign's sends, read a page at a time from the site as the person scrolls
 * (lib/paged-rows.svelte.ts): who it went to and how each went, in the order mailed. The first
 * page's answer heads the table with the counts by outcome.
 */
import type { CampaignSend, CampaignSendPage, UnreadableRow } from '../../../../electron/contract/index';
import { PagedRows, type PageLoader } from '../../../lib/paged-rows.svelte';

export type SendRow = { kind: 'send'; send: CampaignSend } | { kind: 'unreadable'; row: UnreadableRow };

export class SendRows extends PagedRows<CampaignSendPage, SendRow> {
  statusCounts = $state.raw<Record<string, number> | null>(null);

  constructor(loader: PageLoader<CampaignSendPage>) {
    super(loader, { perPage: 100 }, { keepPages: 20, maxRows: 950_000 });
  }

  sendAt(index: number): CampaignSend | undefined {
    const r = this.at(index);
    return r?.kind === 'send' ? r.send : undefined;
  }

  protected rowOf(send: CampaignSend): SendRow {
    return { kind: 'send', send };
  }

  protected unreadableRow(row: UnreadableRow): SendRow {
    return { kind: 'unreadable', row };
  }

  protected headed(answer: CampaignSendPage, first: boolean): void {
    if (first || answer.statusCounts) this.statusCounts = answer.statusCounts;
    this.error = null;
  }

  protected headless(): void {
    this.statusCounts = null;
  }
}
