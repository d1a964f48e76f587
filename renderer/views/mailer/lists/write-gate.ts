/**
 * Why a Mailer section may not change the audience now, in words, or null: the account's
 * permission in the site's spelling (`mailerBlockedReason(me, 'manage', base)`: a view-only
 * account, a demo account), else the site not answering (writes are sent now or refused, never
 * queued). Shared by the lists and tags, imports, segments and suppressions sections.
 */
import { mailerBlockedReason, type MailerPlugin, type Me } from '../../../../electron/contract/index';

export const AWAY_WORDS = 'The site is not answering: nothing can be changed until it does.';

export function writeBlocked(me: Me | null, plugin: MailerPlugin, away: boolean): string | null {
  const refused = me ? mailerBlockedReason(me, 'manage', plugin.base) : null;
  return refused ?? (away ? AWAY_WORDS : null);
}
