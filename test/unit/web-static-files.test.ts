import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { fileFor } from '../../electron/web/static-files';
import { requestUrl } from '../../electron/web/server';

const root = '/srv/renderer';

describe('which file browser mode serves for a path', () => {
  test('the root is index.html; a plain path is the file under the folder', () => {
    expect(fileFor(root, '/')).toEqual({ file: join(root, 'index.html') });
    expect(fileFor(root, '/assets/app.js')).toEqual({ file: join(root, 'assets/app.js') });
  });

  test('a malformed escape or a NUL is a bad request, not a throw', () => {
    expect(fileFor(root, '/%E0%A4%A')).toEqual({ status: 400 });
    expect(fileFor(root, '/%')).toEqual({ status: 400 });
    expect(fileFor(root, '/a%00b')).toEqual({ status: 400 });
  });

  test('nothing decoded climbs out of the folder', () => {
    for (const p of ['/..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/x', '/assets/..%2f..%2f..%2fpackage.json', '/%2e%2e']) {
      expect(fileFor(root, p)).toEqual({ status: 403 });
    }
  });

  test('a request target that is not a URL is null, not a throw', () => {
    expect(requestUrl('//[')).toBeNull();
    expect(requestUrl('http://[::1')).toBeNull();
    expect(requestUrl('/bridge?token=a')?.pathname).toBe('/bridge');
    expect(requestUrl(undefined)?.pathname).toBe('/');
  });
});
