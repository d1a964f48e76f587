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
