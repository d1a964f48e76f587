/**
 * How the mailer sandbox's imports read a file (test/sandbox/cms/mailer/presets.ts): the presets
 * recognised by their headers (every tool in the spec flavour, only EmailOctopus in the real one),
 * the heading guesses, a mapping sent by the caller and its refusals, and the cell readers
 * (status words, dates as UTC epoch seconds, tags, names, addresses) and the tag codes.
 */
import { describe, expect, test } from 'vitest';
import { parseAddresses } from '../sandbox/cms/mailer/audience';
import { detectPreset, guessMapping, MappingError, normaliseEmail, normaliseTag, presetMapping, PRESETS, readDate, readName, readStatus, readTags, resolveMapping } from '../sandbox/cms/mailer/presets';

const HEADERS: Record<string, string[]> = {
  mailchimp: ['Email Address', 'First Name', 'Last Name', 'Address', 'Phone Number', 'MEMBER_RATING', 'OPTIN_TIME', 'OPTIN_IP', 'CONFIRM_TIME', 'CONFIRM_IP', 'LATITUDE', 'LONGITUDE', 'GMTOFF', 'DSTOFF', 'TIMEZONE', 'CC', 'REGION', 'LAST_CHANGED', 'LEID', 'EUID', 'NOTES', 'TAGS'],
  listmonk: ['uuid', 'email', 'name', 'attributes', 'status', 'created_at', 'updated_at'],
  brevo: ['CONTACT ID', 'EMAIL', 'FIRSTNAME', 'LASTNAME', 'SMS', 'ADDED_TIME', 'MODIFIED_TIME'],
  mailerlite: ['Subscriber', 'Name', 'Last name', 'Groups', 'Subscribed', 'Location'],
  emailoctopus: ['Email address', 'First name', 'Last name', 'Tags', 'Status', 'Created at', 'Last updated'],
};

describe('presets', () => {
  test('each tool’s export is recognised by its headers, and nothing else is', () => {
    for (const [key, headers] of Object.entries(HEADERS)) expect(detectPreset(headers, 'spec')?.key, key).toBe(key);
    expect(detectPreset(['email', 'name'], 'spec')).toBeNull();
    expect(detectPreset(['Email Address', 'First Name'], 'spec')).toBeNull();
    expect(detectPreset(['EMAIL', 'PHONE'], 'spec')).toBeNull();
    // the real plugin documents one preset
    for (const [key, headers] of Object.entries(HEADERS)) expect(detectPreset(headers, 'real')?.key ?? null, key).toBe(key === 'emailoctopus' ? 'emailoctopus' : null);
  });

  test('a preset’s mapping over the file’s headers, and its status reading', () => {
    const mc = PRESETS.find((p) => p.key === 'mailchimp')!;
    expect(presetMapping(mc, HEADERS.mailchimp!)).toEqual({ email: 0, first_name: 1, last_name: 2, subscribed_at: 6, tags: 21 });
    // Mailchimp's unsubscribed and cleaned exports: every row unsubscribed
    expect(mc.fileStatus!(new Set([...HEADERS.mailchimp!, 'UNSUB_TIME']))).toBe('unsubscribed');
    expect(mc.fileStatus!(new Set([...HEADERS.mailchimp!, 'CLEAN_TIME']))).toBe('unsubscribed');
    expect(mc.fileStatus!(new Set(HEADERS.mailchimp!))).toBeNull();
    const lm = PRESETS.find((p) => p.key === 'listmonk')!;
    expect(lm.status!('blocklisted')).toBe('unsubscribed');
    expect(lm.status!('enabled')).toBe('subscribed');
    const brevo = PRESETS.find((p) => p.key === 'brevo')!;
    expect(['Yes', 'true', '1'].map(brevo.status!)).toEqual(['unsubscribed', 'unsubscribed', 'unsubscribed']);
    expect(['No', '', 'false'].map(brevo.status!)).toEqual(['subscribed', 'subscribed', 'subscribed']);
    const ml = PRESETS.find((p) => p.key === 'mailerlite')!;
    expect(presetMapping(ml, HEADERS.mailerlite!)).toEqual({ email: 0, name: 1, last_name: 2, tags: 3, subscribed_at: 4 });
    expect(['active', 'unsubscribed', 'unconfirmed', 'bounced', 'junk'].map(ml.status!)).toEqual(['subscribed', 'unsubscribed', 'pending', 'unsubscribed', 'unsubscribed']);
  });
});

describe('mappings', () => {
  test('headings that plainly name a field are guessed, each column serving one field', () => {
    expect(guessMapping(['E-mail', 'Full name', 'Surname', 'Tags', 'State', 'Signup date', 'lang', 'notes'])).toEqual({ email: 0, name: 1, last_name: 2, tags: 3, status: 4, subscribed_at: 5, language: 6 });
    expect(guessMapping(['Email Address', 'First Name', 'Last Name'])).toEqual({ email: 0, first_name: 1, last_name: 2 });
    expect(guessMapping(['email_address', 'first-name'])).toEqual({ email: 0, first_name: 1 });
    expect(guessMapping(['a', 'b'])).toEqual({});
  });

  test('a mapping sent: by header or 0-based index, empty values skipped; refusals name the field', () => {
    const h = ['Mail', 'Who', 'Labels'];
    expect(resolveMapping({ email: 'Mail', name: 1, tags: '', language: null }, h)).toEqual({ email: 0, name: 1 });
    const refused = (input: unknown) => {
      try {
        resolveMapping(input, h);
      } catch (e) {
        expect(e).toBeInstanceOf(MappingError);
        return [(e as MappingError).field, (e as MappingError).message];
      }
      throw new Error('not refused');
    };
    expect(refused({ phone: 'Mail' })[0]).toBe('mapping.phone');
    expect(refused({ email: 'Email' })).toEqual(['mapping.email', 'mapping.email: the file has no column headed "Email".']);
    expect(refused({ email: 3 })[0]).toBe('mapping.email');
    expect(refused({ email: 0, name: 'Mail' })).toEqual(['mapping.name', 'mapping.name: column 0 is already read as email; a column serves one field.']);
    expect(refused({ email: true })[0]).toBe('mapping.email');
    expect(refused(['Mail'])[0]).toBe('mapping');
  });
});

describe('cells', () => {
  test('status words read loosely', () => {
    for (const w of ['unsubscribed', 'Unsub', 'opted out', 'Opted-Out', 'cleaned', 'removed', 'blocklisted', 'blacklisted', 'bounced']) expect(readStatus(w), w).toBe('unsubscribed');
    for (const w of ['pending', 'Unconfirmed', 'awaiting confirmation', 'not confirmed']) expect(readStatus(w), w).toBe('pending');
    for (const w of ['subscribed', 'active', 'yes', '', 'whatever']) expect(readStatus(w), w).toBe('subscribed');
  });

  test('dates as UTC epoch seconds; unreadable ones null', () => {
    expect(readDate('2024-02-03')).toBe(Date.UTC(2024, 1, 3) / 1000);
    expect(readDate('2023-01-05 10:22:01')).toBe(Date.UTC(2023, 0, 5, 10, 22, 1) / 1000);
    expect(readDate('2024-07-01T10:00:00Z')).toBe(Date.UTC(2024, 6, 1, 10) / 1000);
    expect(readDate('2024-07-01T12:00:00+02:00')).toBe(Date.UTC(2024, 6, 1, 10) / 1000);
    expect(readDate('2024-07-01T05:30:00-0430')).toBe(Date.UTC(2024, 6, 1, 10) / 1000);
    expect(readDate('1700000000')).toBe(1700000000);
    expect(readDate('1700000000123')).toBe(1700000000);
    for (const bad of ['', 'yesterday', '03/02/2024', '2024-13-01', '2024-02-30', '2024-01-01 25:00']) expect(readDate(bad), bad).toBeNull();
  });

  test('tags: separated by commas, semicolons or bars, quotes dropped, normalised, once each', () => {
    expect(readTags('"vip","Early Access"')).toEqual(['vip', 'early-access']);
    expect(readTags('Customers; Webinar|VIP, vip')).toEqual(['customers', 'webinar', 'vip']);
    expect(readTags(' , ;')).toEqual([]);
  });

  test('tag codes: lower case, spaces and underscores to hyphens, letters and digits kept, at most 64', () => {
    expect(normaliseTag('  Early Access ')).toBe('early-access');
    expect(normaliseTag('early_access')).toBe('early-access');
    expect(normaliseTag('Früh--Bucher!!')).toBe('früh-bucher');
    expect(normaliseTag('--x--')).toBe('x');
    expect(normaliseTag('!!!')).toBe('');
    expect(normaliseTag('a'.repeat(70))).toHaveLength(64);
  });

  test('addresses: trimmed and lower-cased when they are addresses', () => {
    expect(normaliseEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    for (const bad of ['', 'ada', 'ada@', '@example.com', 'a b@example.com', 'ada@example', 'a@b.c', 'Ada <ada@example.com>', 42, null]) expect(normaliseEmail(bad), String(bad)).toBeNull();
    expect(normaliseEmail(`${'a'.repeat(250)}@example.com`)).toBeNull();
  });

  test('names: the name column, else first and last joined', () => {
    expect(readName({ name: ' Ada Lovelace ', first_name: 'X' })).toBe('Ada Lovelace');
    expect(readName({ first_name: 'Ada', last_name: 'Lovelace' })).toBe('Ada Lovelace');
    expect(readName({ last_name: 'Lovelace' })).toBe('Lovelace');
    expect(readName({})).toBe('');
  });

  test('pasted addresses: one per line or comma-separated; Name <address>, address Name, bare; anything else no address', () => {
    expect(parseAddresses('Ada Lovelace <Ada@Example.com>\nbob@example.com Bob Builder, carol@example.com\n\n"Dee" <dee@example.com>\nnot one')).toEqual([
      { email: 'ada@example.com', name: 'Ada Lovelace' },
      { email: 'bob@example.com', name: 'Bob Builder' },
      { email: 'carol@example.com', name: '' },
      { email: 'dee@example.com', name: 'Dee' },
      { email: null, name: '' },
    ]);
    expect(parseAddresses('x@y')).toEqual([{ email: null, name: '' }]);
  });
});
