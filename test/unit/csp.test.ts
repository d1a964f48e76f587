/**
 * The renderer's CSP and the image rule (electron/common/csp.ts, review L3): images load only from
 * the configured sites' origins; the policy lists exactly those (browser mode, per response), or
 * leaves them to Electron's per-request filter, which follows the sites as they change.
 */
import { describe, expect, test } from 'vitest';
import { contentSecurityPolicy, imageAllowed, originOf, siteOrigins } from '../../electron/common/csp';
import { readFromHost } from '../../electron/host-messages';
import { siteOfRefusedImage } from '../../renderer/state/sites.svelte';
import type { Site } from '../../electron/contract';

const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));

describe('images from the sites only', () => {
  const sites = [{ baseUrl: 'https://cms.example.com/api/v1' }, { baseUrl: 'http://127.0.0.1:8080/api/v3' }, { baseUrl: 'https://cms.example.com/other' }, { baseUrl: 'not a url' }];

  test('the sites’ origins, once each', () => {
    expect(siteOrigins(sites)).toEqual(['https://cms.example.com', 'http://127.0.0.1:8080']);
  });

  test('an origin as the URL parser gives it', () => {
    for (const u of ['https://Cms.Example.com:443/x', 'http://127.0.0.1:8080/api', 'http://[::1]:3000/', 'https://a.example', 'http://a.example:80/', 'ftp://a.example', 'https://user@a.example/', 'javascript:alert(1)', 'https://a.example\\@b.example/'])
      expect(originOf(u), u).toBe(URL.canParse(u) && /^https?:$/.test(new URL(u).protocol) && !new URL(u).username ? new URL(u).origin : null);
  });

  test('an image on a site’s origin may load; anywhere else, another port or scheme included, may not', () => {
    const origins = new Set(siteOrigins(sites));
    expect(imageAllowed('https://cms.example.com/user/pages/01.home/logo.png', origins)).toBe(true);
    expect(imageAllowed('http://127.0.0.1:8080/images/demo/rex.svg', origins)).toBe(true);
    expect(imageAllowed('https://tracker.example/pixel.gif', origins)).toBe(false);
    expect(imageAllowed('http://cms.example.com/logo.png', origins)).toBe(false);
    expect(imageAllowed('http://127.0.0.1:9999/x.png', origins)).toBe(false);
    expect(imageAllowed('nonsense', origins)).toBe(false);
  });

  test('browser mode’s policy names the sites’ origins, and no scheme-wide source', () => {
    const csp = contentSecurityPolicy({ images: ['https://cms.example.com'], connect: ['ws://127.0.0.1:5000'], blobImages: true });
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: blob: https://cms.example.com");
    expect(directive(csp, 'media-src')).toBe("media-src 'self' https://cms.example.com");
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' ws://127.0.0.1:5000");
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    expect(csp).not.toMatch(/(^|\s)https?:(\s|;|$)/);
  });

  test('with no site yet, images come from the app itself only', () => {
    expect(directive(contentSecurityPolicy({ images: [] }), 'img-src')).toBe("img-src 'self' data:");
  });

  test('Electron keeps the scheme-wide source and filters each request against the sites as they change', () => {
    expect(directive(contentSecurityPolicy({ images: 'any-http' }), 'img-src')).toBe("img-src 'self' data: https: http:");
  });

  test('the Host tells main the sites’ origins in a message main reads strictly', () => {
    expect(readFromHost({ type: 'image-origins', origins: ['https://a.example'] })).toEqual({ type: 'image-origins', origins: ['https://a.example'] });
    expect(readFromHost({ type: 'image-origins', origins: ['https://a.example', 3] })).toBeNull();
    expect(readFromHost({ type: 'image-origins', origins: ['https://a.example/path'] })).toBeNull();
    expect(readFromHost({ type: 'other' })).toBeNull();
  });

  test('an image the page’s policy refused is one of a site added after the page loaded, or a stranger’s', () => {
    const site = { id: 's1', name: 'Demo', baseUrl: 'http://127.0.0.1:8080/api/v1' } as Site;
    expect(siteOfRefusedImage({ effectiveDirective: 'img-src', blockedURI: 'http://127.0.0.1:8080/user/a.png' }, [site])).toBe(site);
    expect(siteOfRefusedImage({ effectiveDirective: 'img-src', blockedURI: 'https://tracker.example/p.gif' }, [site])).toBeNull();
    expect(siteOfRefusedImage({ effectiveDirective: 'script-src', blockedURI: 'http://127.0.0.1:8080/x.js' }, [site])).toBeNull();
  });
});
