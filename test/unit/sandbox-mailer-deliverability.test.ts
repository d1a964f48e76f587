/**
 * The CMS sandbox's deliverability checks (test/sandbox/cms/mailer/deliverability.ts;
 * docs/mailer-campaigns.md, "Deliverability"): SPF, DKIM and DMARC of a domain against a zone,
 * each failing check saying what to add.
 */
import { describe, expect, test } from 'vitest';
import { checkDomain, SPF_INCLUDE } from '../sandbox/cms/mailer/deliverability';

const status = (domain: string, zone?: Record<string, string[]>) => Object.fromEntries(checkDomain(domain, zone).map((c) => [c.check, c.status]));

describe('checks of a domain', () => {
  test('the sandbox zone: the site watches with DMARC, the shop passes, the partner’s SPF names another relay, an unknown name has nothing', () => {
    expect(status('site.example')).toEqual({ spf: 'pass', dkim: 'pass', dmarc: 'warn' });
    expect(status('shop.example')).toEqual({ spf: 'pass', dkim: 'pass', dmarc: 'pass' });
    expect(status('partner.example')).toEqual({ spf: 'fail', dkim: 'fail', dmarc: 'fail' });
    const none = checkDomain('nowhere.example');
    expect(none.map((c) => [c.check, c.status, c.record, c.name])).toEqual([
      ['spf', 'fail', null, 'nowhere.example'],
      ['dkim', 'fail', null, 'sitedesk._domainkey.nowhere.example'],
      ['dmarc', 'fail', null, '_dmarc.nowhere.example'],
    ]);
    expect(none[0]!.detail).toContain(SPF_INCLUDE);
    expect(none[2]!.detail).toMatch(/_dmarc\.nowhere\.example/);
  });

  test('records read as mail servers read them: DMARC policy, a DKIM record without a key, case of the tag', () => {
    const zone = {
      'a.example': ['something else', `V=SPF1 ${SPF_INCLUDE} -all`],
      'sitedesk._domainkey.a.example': ['v=DKIM1; k=rsa; p='],
      '_dmarc.a.example': ['v=DMARC1; p=quarantine; pct=100'],
    };
    expect(status('a.example', zone)).toEqual({ spf: 'pass', dkim: 'fail', dmarc: 'pass' });
    expect(status('b.example', { '_dmarc.b.example': ['v=DMARC1; rua=mailto:x'] }).dmarc).toBe('warn');
  });
});
