/** The dashboard client over the real service's recorded replies (50–53). */
import { describe, expect, test } from 'vitest';
import { cmsDashboard } from '../../electron/api/cms/dashboard';
import { recorded, transport } from './support/recorded-replies';

describe('the dashboard client', () => {
  const t = transport((req) =>
    req.path === '/dashboard/stats' ? recorded('50-dashboard-stats') : req.path === '/dashboard/popularity' ? recorded('51-dashboard-popularity') : req.path === '/dashboard/notifications' ? recorded('52-dashboard-notifications') : recorded('53-dashboard-feed'),
  ).t;

  test('statistics and the 14 days of views', async () => {
    expect(await cmsDashboard.stats(t)).toEqual({
      pages: 2, publishedPages: 2, users: 1, plugins: 9, activePlugins: 9, updatablePlugins: 0, themes: 1, theme: 'quark2',
      cmsVersion: '2.0.7', cmsUpdatable: false, phpVersion: '8.4.28', media: 0, lastBackup: '2026-11-23T20:07:30+00:00',
    });
    const p = await cmsDashboard.popularity(t);
    expect(p).toMatchObject({ today: 0, week: 0, month: 0, top: [] });
    expect(p.days).toHaveLength(14);
    expect(p.days[0]).toEqual({ label: 'Nov 10', views: 0 });
  });

  test('notifications by location (the real `level` read as the document’s type), an empty feed', async () => {
    const n = await cmsDashboard.notifications(t);
    expect(n).toEqual([
      expect.objectContaining({ id: 'login-untrusted-host', location: 'top', level: 'warning', icon: 'shield-alert', reappearAfter: '+7 days', message: expect.stringContaining('trusted host') }),
    ]);
    expect(await cmsDashboard.feed(t)).toEqual([]);
  });
});
