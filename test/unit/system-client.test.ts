/** The system client over the real service's recorded replies (25 system info, 59 reports) and a cache clear's answer. */
import { describe, expect, test } from 'vitest';
import { cmsSystem } from '../../electron/api/cms/system';
import { recorded, reply, transport } from './support/recorded-replies';

describe('the system client', () => {
  test('the real system information: versions, PHP settings by group, extensions, packages', async () => {
    const { t } = transport(() => recorded('25-system-info'));
    const info = await cmsSystem.info(t);
    expect(info).toMatchObject({ cmsVersion: '2.0.7', phpVersion: '8.4.28', environment: 'localhost' });
    expect(info.phpExtensions).toContain('sqlite3');
    expect(info.plugins).toContainEqual({ name: 'API', version: '1.0.12', enabled: true });
    expect(info.themes).toEqual([{ name: 'Quark 2', version: '1.1.6', active: true }]);
    expect(info.phpConfig.find((g) => g.group === 'Upload & POST')!.values).toContainEqual({ key: 'upload_max_filesize', value: '64M' });
  });

  test('the real reports: each with its status and lines, a check’s details, the site’s small HTML kept for sanitising', async () => {
    const { t } = transport(() => recorded('59-reports'));
    const reports = await cmsSystem.reports(t);
    expect(reports.map((r) => r.id)).toEqual(expect.arrayContaining(['security-check', 'twig-content', 'yaml-linter', 'problems']));
    const problems = reports.find((r) => r.id === 'problems')!;
    expect(problems).toMatchObject({ provider: 'problems', component: 'problems-report', status: 'success' });
    const php = problems.lines.find((l) => l.text.includes('minimum'))!;
    expect(php).toMatchObject({ level: 'ok', text: expect.stringContaining('<strong>8.4.28</strong>'), help: 'https://getgrav.org/blog/raising-php-requirements-2018' });
    expect(problems.lines.find((l) => l.text.startsWith('All required modules'))!.details).toContain('PHP (optional) Cache redis is not installed');
  });

  test('a cache clear: the scope sent, core’s colour tags and blank lines dropped', async () => {
    const { t, seen } = transport(() => reply({ data: { scope: 'all', message: 'Cache cleared successfully (scope: all).', details: ['<red>Cleared:  </red>/srv/site/cache/twig/*', '', '<red>Touched: </red>/srv/site/user/config/system.yaml'] } }));
    expect(await cmsSystem.clearCache(t, 'all')).toEqual({ scope: 'all', message: 'Cache cleared successfully (scope: all).', details: ['Cleared: /srv/site/cache/twig/*', 'Touched: /srv/site/user/config/system.yaml'] });
    expect(seen[0]).toMatchObject({ method: 'DELETE', path: '/cache?scope=all' });
  });
});
