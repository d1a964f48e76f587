/** The demo mode client over the real service's recorded status, a capture and a reset with X-Invalidates. */
import { describe, expect, test } from 'vitest';
import { cmsDemo } from '../../electron/api/cms/demo';
import { recorded, transport } from './support/recorded-replies';

const AT = new Date('2026-11-23T20:09:45Z');
const now = () => AT;

describe('the demo mode client', () => {
  test('the recorded status: no baseline, the writable permissions and roots, no countdown', async () => {
    const { t } = transport(() => recorded('58-demo-status'));
    expect(await cmsDemo.status(t, now)).toEqual({
      baselineExists: false,
      writable: ['api.pages.write', 'api.media.write'],
      roots: ['pages', 'media'],
      resetInterval: 30,
      resetOnRequest: true,
      resetOnSchedule: true,
      lastReset: null,
      secondsUntilReset: null,
      readAt: '2026-11-23T20:09:45.000Z',
    });
  });

  test('a capture answered with X-Invalidates: demo:status reads the status again; captured false keeps the site’s words', async () => {
    const fresh = { baseline_exists: true, writable: ['api.pages.write'], roots: ['pages'], reset_interval: 30, reset_on_request: true, reset_on_schedule: false, last_reset: 1795464585, seconds_until_reset: 1800 };
    const { t, seen } = transport((req) =>
      req.method === 'POST'
        ? { status: 200, body: { data: { captured: true, message: 'Demo baseline captured.', status: { ...fresh, seconds_until_reset: 1799 } } }, headers: { 'X-Invalidates': 'demo:status' } }
        : { status: 200, body: { data: fresh } },
    );
    const r = await cmsDemo.act(t, 'baseline', now);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /demo/baseline', 'GET /demo/status']);
    expect(r).toMatchObject({ done: true, message: 'Demo baseline captured.', status: { baselineExists: true, secondsUntilReset: 1800, resetOnSchedule: false, lastReset: '2026-11-23T20:09:45.000Z' } });

    const none = transport(() => ({ status: 200, body: { data: { captured: false, message: 'No writable demo resources are configured, so there is nothing to capture.', status: { baseline_exists: false, roots: [] } } } }));
    const refused = await cmsDemo.act(none.t, 'baseline', now);
    expect(none.seen).toHaveLength(1);
    expect(refused).toMatchObject({ done: false, message: 'No writable demo resources are configured, so there is nothing to capture.', status: { baselineExists: false, roots: [], secondsUntilReset: null } });
  });

  test('a reset: `reset` is what was done; the status read again failing keeps the answer’s own', async () => {
    const { t } = transport((req) =>
      req.method === 'POST' ? { status: 200, body: { data: { reset: false, message: 'Nothing to reset — capture a baseline first.', status: { baseline_exists: false } } }, headers: { 'X-Invalidates': 'demo:status' } } : { status: 500, body: {} },
    );
    expect(await cmsDemo.act(t, 'reset', now)).toMatchObject({ done: false, message: 'Nothing to reset — capture a baseline first.', status: { baselineExists: false } });
  });
});
