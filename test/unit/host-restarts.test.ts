import { expect, test } from 'vitest';
import { MAX_RESTARTS_PER_MINUTE, RestartLog } from '../../electron/host-restarts';

test('a Host that dies is restarted with a growing delay; the sixth exit within a minute stops the retries', () => {
  const log = new RestartLog();
  const delays = Array.from({ length: MAX_RESTARTS_PER_MINUTE }, (_, i) => log.exited(1000 + i));
  expect(delays).toEqual([250, 500, 1000, 2000, 4000].map((delayMs) => ({ restart: true, delayMs })));
  expect(log.exited(1010)).toEqual({ restart: false });
  log.reset();
  expect(log.exited(1020)).toEqual({ restart: true, delayMs: 250 });
});

test('exits more than a minute apart do not add up', () => {
  const log = new RestartLog();
  for (let i = 0; i < 10; i++) expect(log.exited(i * 61_000)).toEqual({ restart: true, delayMs: 250 });
});
