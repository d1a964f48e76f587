/**
 * The CMS sandbox's pure parts behind what plugins add to the admin: language codes and label
 * translation (plugins-ui/translations.ts) and the Security Check's XSS rules (plugins-ui/xss-scan.ts),
 * checked against what Grav's own code does with the same input.
 */
import { describe, expect, test } from 'vitest';
import { languageChain, normalizeLang, phpJson, translateLabel, translationsFor } from '../sandbox/cms/plugins-ui/translations';
import { detectXss } from '../sandbox/cms/plugins-ui/xss-scan';

const all = () => true;

describe('translations', () => {
  test('language codes in their BCP 47 form', () => {
    expect(normalizeLang('en')).toBe('en-US');
    expect(normalizeLang('DE')).toBe('de-DE');
    expect(normalizeLang('zh_hant')).toBe('zh-Hant');
    expect(normalizeLang('pt-br')).toBe('pt-BR');
    expect(normalizeLang('sr-latn')).toBe('sr-Latn');
    expect(normalizeLang('xx')).toBe('xx');
    expect(languageChain('de')).toEqual(['de', 'de-DE', 'en', 'en-US']);
    expect(languageChain('')).toEqual(['en', 'en-US']);
  });

  test('labels: keys translated ICU first along the chain, PLUGIN_ADMIN through its admin2 alias, raw keys humanised, text kept', () => {
    expect(translateLabel('PLUGIN_TEAM_NOTES.MENU_LABEL', languageChain('de'), all)).toBe('Team-Notizen');
    expect(translateLabel('PLUGIN_TEAM_NOTES.MENU_LABEL', languageChain('it'), all)).toBe('Team notes');
    expect(translateLabel('ADMIN_NEXT.ENABLED', languageChain('en'), all)).toBe('Enabled');
    expect(translateLabel('PLUGIN_ADMIN.SAVE', languageChain('de'), all)).toBe('Speichern');
    expect(translateLabel('PLUGIN_ADMIN.ACCESS_ADMIN_CONFIGURATION', languageChain('en'), all)).toBe('Configuration');
    expect(translateLabel('PLUGIN_SITE_HEALTH.TITLE', languageChain('en'), (p) => p !== 'site-health')).toBe('Title');
    expect(translateLabel('Health log', languageChain('de'), all)).toBe('Health log');
  });

  test('the dictionary: PHP json for the checksum, an empty one as []', () => {
    expect(phpJson({ 'a/b': 'Notes d’équipe' })).toBe('{"a\\/b":"Notes d\\u2019\\u00e9quipe"}');
    const none = translationsFor('en', 'NOTHING', 'en', all);
    expect(none).toEqual({ lang: 'en-US', dir: 'ltr', count: 0, checksum: 'd751713988987e9331980363e24189ce', strings: [] });
    expect(translationsFor('x-', null, 'de', all).lang).toBe('de-DE');
    expect(translationsFor('ar', null, 'en', all).dir).toBe('rtl');
  });
});

describe('the XSS rules', () => {
  test.each([
    ['<img src=x onerror=alert(1)>', 'on_events'],
    ['<a href="#" onclick = "x()">', 'on_events'],
    ['<svg/xmlns="http://www.w3.org/2000/svg">', 'xmlns'],
    ['[link](javascript:alert(1))', 'invalid_protocols'],
    ['<a href="java&#x73;cript:alert(1)">', 'invalid_protocols'],
    ['%3Cscript%3Ealert(1)%3C/script%3E', 'dangerous_tags'],
    ['<p style="background:url:(x)">', 'html_inline_styles'],
    ['div { -moz-binding: url(x) }', 'moz_binding'],
    ['<iframe src="https://example.test"></iframe>', 'dangerous_tags'],
    // core also checks a copy without whitespace, so prose like this trips it too (a false positive core has as well)
    ['see the metadata: plain', 'invalid_protocols'],
  ])('%s → %s', (input, rule) => {
    expect(detectXss(input)).toBe(rule);
  });

  test('ordinary content passes', () => {
    for (const ok of ['# Typography\n\nSome *text* with a <section class="x"> and <button type="button">.', 'A date: 2026-11-24', '', null, 42]) expect(detectXss(ok)).toBeNull();
  });
});
