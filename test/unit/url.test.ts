import { describe, expect, test } from 'vitest';
import { checkBaseUrl, checkEnvironment } from '../../electron/sites/url';
import { plainHttpToAnotherComputer } from '../../electron/contract';

describe('checkBaseUrl', () => {
  test.each([
    ['https://example.com/api/v1', 'cms', 'https://example.com/api/v1'],
    ['https://example.com/api/v1/', 'cms', 'https://example.com/api/v1'],
    ['https://example.com', 'cms', 'https://example.com/api/v1'],
    ['https://example.com/', 'store', 'https://example.com/api/v3'],
    ['  http://127.0.0.1:8080/custom/api  ', 'cms', 'http://127.0.0.1:8080/custom/api'],
    ['HTTPS://Example.COM/api/v1', 'cms', 'https://example.com/api/v1'],
  ] as const)('%s (%s) → %s', (raw, kind, expected) => {
    expect(checkBaseUrl(raw, kind)).toEqual({ ok: true, value: expected });
  });

  test.each([
    ['', 'Enter the address'],
    ['example.com/api/v1', 'Include the scheme, for example https://example.com/api/v1'],
    ['ftp://example.com/api/v1', 'Only http:// and https://'],
    ['file:///etc/passwd', 'Only http:// and https://'],
    ['javascript:alert(1)', 'Only http:// and https://'],
    ['https://user:pw@example.com/api/v1', 'Leave user names and passwords out'],
    ['https://example.com/api/v1?x=1', 'cannot contain a query'],
    ['https://example.com/api/v1#top', 'cannot contain a query'],
    ['https://exa mple.com', 'not a valid web address'],
  ])('refuses %j', (raw, message) => {
    const r = checkBaseUrl(raw, 'cms');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(message);
  });
});

describe('checkEnvironment', () => {
  test('empty means no header', () => expect(checkEnvironment('  ')).toEqual({ ok: true, value: null }));
  test('a host name is kept', () => expect(checkEnvironment('staging.example.com')).toEqual({ ok: true, value: 'staging.example.com' }));
  // Grav's own rule (ApiRouter::applyEnvironment): ^[a-zA-Z0-9][a-zA-Z0-9._-]*$; it answers 400 to every call otherwise
  test.each(['staging', 'my_site', 'dev.example.com', 'site-2', 'A1', 'host.', 'a_b-c.d'])('takes %j, as Grav does', (raw) =>
    expect(checkEnvironment(raw)).toEqual({ ok: true, value: raw }),
  );
  test.each([
    ['localhost:8080', 'Leave the port out.'],
    ['staging example', 'spaces'],
    ['a\r\nX-Evil: 1', 'spaces or line breaks'],
    ['-bad', 'cannot start with “-”'],
    ['.hidden', 'cannot start with “.”'],
    ['_x', 'cannot start with “_”'],
    ['héllo', '“é” is not allowed'],
    ['a/b', '“/” is not allowed'],
  ])('refuses %j, saying why', (raw, why) => {
    const r = checkEnvironment(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(why);
  });
});

describe('plain http:// to another computer (needs the explicit choice)', () => {
  test('another computer', () => {
    for (const u of ['http://example.com/api/v1', 'HTTP://Example.com', 'http://192.168.1.10:8080/api', 'http://user@10.0.0.1/', 'http://[2001:db8::1]:80/', 'http://127.example.com/'])
      expect([u, plainHttpToAnotherComputer(u)]).toEqual([u, true]);
  });
  test('this computer, https, or not an address', () => {
    for (const u of ['http://localhost:8080/api/v1', 'http://LOCALHOST', 'http://app.localhost/', 'http://127.0.0.1:1/', 'http://127.1.2.3/', 'http://[::1]:8080/', 'https://example.com/', 'ftp://example.com', 'example.com', ''])
      expect([u, plainHttpToAnotherComputer(u)]).toEqual([u, false]);
  });
  test('the Host refuses it without the choice and takes it with it', () => {
    expect(checkBaseUrl('http://example.com', 'cms')).toMatchObject({ ok: false, message: expect.stringContaining('readable by anyone on the network') });
    expect(checkBaseUrl('http://example.com', 'cms', true)).toEqual({ ok: true, value: 'http://example.com/api/v1' });
    expect(checkBaseUrl('http://127.0.0.1:9000', 'store')).toEqual({ ok: true, value: 'http://127.0.0.1:9000/api/v3' });
  });
});
