import { describe, expect, test } from 'vitest';
import { HIDDEN, scrubSecrets, serverText } from '../../electron/api/scrub';

describe('scrubSecrets: server text passed on never carries a secret', () => {
  test('the tokens of a token answer sent without its envelope (review M3)', () => {
    const body = '{"refresh_token":"REFRESH-SECRET-a81f","access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJl","expires_in":3600}';
    const out = scrubSecrets(body);
    expect(out).not.toContain('REFRESH-SECRET');
    expect(out).not.toContain('eyJ');
    expect(out).toContain('"expires_in":3600'); // what is not a secret stays readable
  });

  test('a store login answer, a Bearer header echoed, a key in a query', () => {
    expect(scrubSecrets('{"token":"SESSION-SECRET-1"}')).toBe(`{"token":"${HIDDEN}"}`);
    expect(scrubSecrets('sent Authorization: Bearer abc.def-ghi')).toBe(`sent Authorization: Bearer ${HIDDEN}`);
    expect(scrubSecrets('GET /pages?api_key=k3y&x=1')).toBe(`GET /pages?api_key=${HIDDEN}&x=1`);
    expect(scrubSecrets('password=hunter2 user=ada')).toBe(`password=${HIDDEN} user=ada`);
  });

  test('long random runs go; words, slugs, routes, dates and numbers stay', () => {
    expect(scrubSecrets('key grav_b096f3e1a2c4d5e6f708192a3b4c5d6e was refused')).toBe(`key ${HIDDEN} was refused`);
    expect(scrubSecrets('id 3f2a9c1e-7b4d-4e8a-9c1f-0a2b3c4d5e6f')).toBe(`id ${HIDDEN}`);
    const plain =
      'Page /blog/annual-report-2024-final-version not found; internationalization_settings 20240115 at /api/v1/pages; /docs/api-v2-reference/h264-mp4-notes';
    expect(scrubSecrets(plain)).toBe(plain);
  });

  test('every secret the app holds for the site, whatever its shape, wherever it appears', () => {
    const known = ['plain words key', 'k!y w1th spaces'];
    const out = scrubSecrets('You sent "plain words key" and k!y%20w1th%20spaces and k!y w1th spaces', known);
    expect(out).toBe(`You sent "${HIDDEN}" and ${HIDDEN} and ${HIDDEN}`);
    // too short to search for without hiding words
    expect(scrubSecrets('a b c', ['b'])).toBe('a b c');
  });

  test('serverText cuts after scrubbing, so a secret is never cut in two', () => {
    const token = 'eyJ' + 'a'.repeat(300);
    const out = serverText(`x ${token}`, undefined, 20);
    expect(out).toBe(`x ${HIDDEN}`);
    expect(serverText('word '.repeat(10), undefined, 10)).toBe('word word …');
  });
});
