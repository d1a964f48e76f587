/**
 * A conflicted campaign or template draft as the merge view reads it (MergeView): the
 * Host gives its base, mine and theirs as page text (the name as the title, the text as the
 * content, the other fields as the header), and the result goes back as fields.
 */
import type { DraftDetail, MailFields, MailSaveOutcome } from '../../../electron/contract/index';
import { invoke } from '../../lib/client';
import type { MergeSource } from './merge-session.svelte';

const FIELD_WORDS: Record<string, string> = {
  title: 'Name',
  subject: 'Subject',
  preheader: 'Preheader',
  layout: 'Layout',
  fromName: 'From name',
  fromEmail: 'From address',
  replyTo: 'Replies go to',
  trackOpens: 'Count opens',
  trackClicks: 'Count clicks',
  subjectB: 'Second subject',
  abSamplePercent: 'A/B sample (%)',
  abWindowMinutes: 'A/B winner after (minutes)',
  listIds: 'Lists',
  segmentId: 'Segment',
  isActive: 'Offered for new campaigns',
};

export function mailMergeSource(draftId: number): MergeSource<MailSaveOutcome> {
  let kind = 'campaign';
  return {
    async get(): Promise<DraftDetail> {
      const d = await invoke('mailDrafts.get', { draftId });
      kind = d.kind;
      return {
        id: d.id,
        siteId: d.siteId,
        route: d.name,
        lang: '',
        state: d.state,
        title: d.name,
        problem: d.problem,
        updatedAt: d.updatedAt,
        base: d.asText.base,
        mine: d.asText.mine,
        theirs: d.asText.theirs,
        merge: d.merge,
      };
    },
    resolve(r) {
      const fields = { ...(r.header as MailFields), name: r.title, bodyMd: r.content === '' ? null : r.content };
      return invoke('mailDrafts.resolve', { draftId, fields });
    },
    titleLabel: 'Name',
    titleMissing: 'Give it a name: it is how you find it again.',
    fieldWords: (path) => (path.length === 1 ? (FIELD_WORDS[path[0]!] ?? null) : null),
    fieldsNoun: 'Fields',
    what: (d) => `${kind === 'template' ? 'the template' : 'the campaign'} “${d.title}”`,
  };
}
