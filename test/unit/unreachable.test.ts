/** "The site did not answer" is one test on each side: the Host's isUnreachable and the renderer's AppError.unreachable agree on every code. */
import { describe, expect, test } from 'vitest';
import type { ErrorCode } from '../../electron/contract/errors';
import { AppError as HostError, isUnreachable } from '../../electron/base/app-error';
import { AppError as ViewError } from '../../renderer/lib/errors';

const codes: Record<ErrorCode, boolean> = {
  invalid_input: false,
  not_found: false,
  duplicate: false,
  conflict: false,
  unauthorized: false,
  forbidden: false,
  rate_limited: false,
  network: true,
  timeout: true,
  tls: false,
  bad_response: false,
  http: false,
  database: false,
  keychain: false,
  unknown_channel: false,
  host_unavailable: false,
  disk_full: false,
  internal: false,
};

describe('the site did not answer', () => {
  test.each(Object.entries(codes) as [ErrorCode, boolean][])('%s: %s on both sides', (code, away) => {
    const info = { code, message: 'x' };
    expect(isUnreachable(new HostError(info))).toBe(away);
    expect(new ViewError(info).unreachable).toBe(away);
  });

  test('only an AppError can say so', () => {
    expect(isUnreachable(Object.assign(new Error('fetch failed'), { code: 'network' }))).toBe(false);
    expect(isUnreachable(undefined)).toBe(false);
  });
});
