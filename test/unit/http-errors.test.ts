import { describe, expect, test } from 'vitest';
import { classifyFetchError } from '../../electron/api/http';

const url = 'https://cms.example.com/api/v1/ping';
const nodeError = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });

describe('fetch failures become errors a person can act on', () => {
  test.each([
    [nodeError('ECONNREFUSED'), 'network', 'refused the connection'],
    [nodeError('ENOTFOUND'), 'network', 'could not be found'],
    [nodeError('DEPTH_ZERO_SELF_SIGNED_CERT'), 'tls', 'certificate was not accepted'],
    [nodeError('CERT_HAS_EXPIRED'), 'tls', 'CERT_HAS_EXPIRED'],
    [nodeError('ECONNRESET'), 'network', 'ECONNRESET'],
    [Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' }), 'timeout', 'within 15 s'],
    // Electron's net.fetch (Chromium network stack)
    [new Error('net::ERR_CERT_AUTHORITY_INVALID'), 'tls', 'ERR_CERT_AUTHORITY_INVALID'],
    [new Error('net::ERR_CONNECTION_REFUSED'), 'network', 'refused the connection'],
    [new Error('net::ERR_NAME_NOT_RESOLVED'), 'network', 'could not be found'],
    [new Error('net::ERR_TIMED_OUT'), 'timeout', 'did not answer'],
  ])('%s', (err, code, text) => {
    const e = classifyFetchError(err, url, 15_000);
    expect(e.code).toBe(code);
    expect(e.message).toContain(text);
    expect(e.message).toContain('cms.example.com');
  });
});

describe('a demo account refused by the real service', () => {
  const answer = (status: number, body: unknown) => ({ status, headers: new Headers({ 'content-type': 'application/problem+json' }), text: JSON.stringify(body), ms: 1 });

  test('its 403 says it is a demo account (not a signed-out one) and is recognised as such', async () => {
    const { errorFromResponse, isDemoRefusal } = await import('../../electron/api/errors');
    const demo = errorFromResponse(answer(403, { status: 403, title: 'Demo Mode', detail: 'This is a read-only demo. Changes are disabled.', code: 'demo_mode_write_blocked' }), 'cms.example.com');
    expect(demo).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/^This is a demo account: cms\.example\.com lets it read.*read-only demo/) });
    expect(isDemoRefusal(demo)).toBe(true);
    const other = errorFromResponse(answer(403, { status: 403, title: 'Forbidden', detail: 'Missing required permission: api.users.read' }), 'cms.example.com');
    expect(other).toMatchObject({ code: 'forbidden', message: 'Missing required permission: api.users.read' });
    expect(isDemoRefusal(other)).toBe(false);
  });
});
