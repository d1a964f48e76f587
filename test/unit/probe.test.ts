import { describe, expect, test } from 'vitest';
import { judge, looksLikeService } from '../../electron/sites/probe';
import type { HttpResponse } from '../../electron/api/http';

const res = (status: number, body: unknown, type = 'application/json', headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: new Headers({ 'content-type': type, ...headers }),
  text: typeof body === 'string' ? body : JSON.stringify(body),
  ms: 12,
});

describe('what a probe answer means', () => {
  test('cms: {"data":{"pong":true}} is the CMS API', () => {
    expect(judge('cms', res(200, { data: { pong: true } })).outcome).toBe('reachable');
  });
  test('store: an inventory map is the store API', () => {
    expect(judge('store', res(200, { available: 3, sold: 1 })).outcome).toBe('reachable');
    expect(looksLikeService('store', { available: 'many' })).toBe(false);
  });
  test('an HTML page at the prefix means a wrong prefix', () => {
    expect(judge('cms', res(200, '<!doctype html><p>Welcome', 'text/html')).outcome).toBe('wrong_prefix');
  });
  test('JSON of another shape means another kind of service', () => {
    expect(judge('store', res(200, { data: { pong: true } })).outcome).toBe('wrong_service');
    expect(judge('cms', res(200, { available: 3 })).outcome).toBe('wrong_service');
  });
  test('404 means no API at this prefix', () => {
    expect(judge('cms', res(404, { status: 404, title: 'Not Found' }, 'application/problem+json')).outcome).toBe('wrong_prefix');
  });
  test('401 with an API error body means the service wants credentials; 401 from a plain page does not', () => {
    expect(judge('cms', res(401, { status: 401, title: 'Unauthorized', detail: 'x' }, 'application/problem+json')).outcome).toBe('needs_auth');
    expect(judge('cms', res(401, '<html>login</html>', 'text/html')).outcome).toBe('wrong_service');
  });
  test('429 is reachable and says when to try again', () => {
    const v = judge('cms', res(429, { title: 'Too Many Requests' }, 'application/json', { 'retry-after': '30' }));
    expect(v.outcome).toBe('reachable');
    expect(v.message).toContain('30 s');
  });
  test('5xx is a server error; a redirect names its target', () => {
    expect(judge('cms', res(503, 'down', 'text/plain')).outcome).toBe('server_error');
    expect(judge('cms', res(301, '', 'text/html', { location: 'https://x.test/api/v1/ping' })).message).toContain('https://x.test/api/v1/ping');
  });
});
