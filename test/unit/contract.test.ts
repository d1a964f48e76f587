import { describe, expect, test, vi, type Mock } from 'vitest';
import { createDispatcher, type Handlers } from '../../electron/core/dispatch';
import { channels } from '../../electron/contract';
import { AppError } from '../../electron/base/app-error';

/** Every handler is a spy that must not be reached by a refused input. */
function spies() {
  const handlers: Record<string, Mock> = Object.fromEntries(Object.keys(channels).map((name) => [name, vi.fn(async () => 'reached')]));
  const log = vi.fn();
  return { handlers, log, invoke: createDispatcher(handlers as unknown as Handlers, log).invoke };
}

describe('the contract boundary', () => {
  test('a bad input is refused with field errors and never reaches the service', async () => {
    const { handlers, invoke } = spies();
    const result = await invoke('sites.add', { name: '', kind: 'ftp', baseUrl: 42, environment: null, authMode: 'password' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_input');
    expect(result.error.fields).toMatchObject({
      name: 'Give the site a name.',
      kind: 'Choose CMS or store.',
    });
    expect(result.error.fields?.baseUrl).toBeTruthy();
    expect(handlers['sites.add']).not.toHaveBeenCalled();
  });

  test('unknown keys are refused (strict objects), so nothing unexpected slips through', async () => {
    const { handlers, invoke } = spies();
    const result = await invoke('sites.remove', { id: '7f0c6c1e-3d1b-4a8e-9a57-1f2d3c4b5a69', cascade: true });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(handlers['sites.remove']).not.toHaveBeenCalled();
  });

  test('an id that is not a uuid is refused at the boundary', async () => {
    const { handlers, invoke } = spies();
    const result = await invoke('sites.test', { id: '../../etc/passwd' });
    expect(result.ok).toBe(false);
    expect(handlers['sites.test']).not.toHaveBeenCalled();
  });

  test('a workspace ratio out of bounds is refused with its field named', async () => {
    const { invoke } = spies();
    const result = await invoke('workspace.set', { tabs: [], active: null, split: null, ratio: 3 });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { ratio: expect.any(String) } } });
  });

  test('an unknown channel is answered, not thrown', async () => {
    const { invoke } = spies();
    expect(await invoke('fs.readFile', { path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
  });

  test('a valid input reaches the handler with the parsed (trimmed) value', async () => {
    const { handlers, invoke } = spies();
    const result = await invoke('sites.add', {
      name: '  Blog  ',
      kind: 'cms',
      baseUrl: ' https://example.com/api/v1 ',
      environment: null,
      authMode: 'password',
    });
    expect(result).toEqual({ ok: true, value: 'reached' });
    expect(handlers['sites.add']).toHaveBeenCalledWith(expect.objectContaining({ name: 'Blog', baseUrl: 'https://example.com/api/v1' }));
  });

  test('an AppError thrown by a service becomes the error answer; a crash becomes a generic one and is logged without the input', async () => {
    const { handlers, log, invoke } = spies();
    handlers['sites.list']!.mockRejectedValueOnce(new AppError({ code: 'not_found', message: 'gone' }));
    expect(await invoke('sites.list', undefined)).toEqual({ ok: false, error: { code: 'not_found', message: 'gone' } });
    handlers['sites.add']!.mockRejectedValueOnce(new TypeError('boom'));
    const r = await invoke('sites.add', { name: 'x', kind: 'store', baseUrl: 'https://x.test', environment: null, authMode: 'apikey', apiKey: 'SECRET-KEY' });
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(log.mock.calls)).not.toContain('SECRET-KEY');
  });
  test('a write outside the database that finds the disk full (ENOSPC) answers disk_full, not a crash', async () => {
    const { handlers, log, invoke } = spies();
    handlers['workspace.get']!.mockImplementation(async () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    const result = await invoke('workspace.get', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'disk_full', message: expect.stringMatching(/is full/) } });
    expect(log).not.toHaveBeenCalledWith('error', expect.anything(), expect.anything());
  });

  test('closing waits for a call that is running, then refuses new ones with a clear answer', async () => {
    const handlers: Record<string, Mock> = Object.fromEntries(Object.keys(channels).map((name) => [name, vi.fn(async () => 'reached')]));
    let finish!: () => void;
    handlers['sites.list']!.mockImplementation(() => new Promise<string>((resolve) => (finish = () => resolve('done'))));
    const d = createDispatcher(handlers as unknown as Handlers, vi.fn());
    const running = d.invoke('sites.list', {});
    let drained = false;
    const drain = d.drain(10_000).then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(drained).toBe(false); // the running call holds the close
    expect(await d.invoke('workspace.get', {})).toMatchObject({ ok: false, error: { code: 'host_unavailable', message: expect.stringMatching(/closing/) } });
    expect(handlers['workspace.get']).not.toHaveBeenCalled();
    finish();
    expect(await running).toEqual({ ok: true, value: 'done' });
    await drain;
    expect(drained).toBe(true);
  });

  test('closing does not wait past its limit for a call that never answers', async () => {
    const handlers: Record<string, Mock> = Object.fromEntries(Object.keys(channels).map((name) => [name, vi.fn(() => new Promise(() => {}))]));
    const d = createDispatcher(handlers as unknown as Handlers, vi.fn());
    void d.invoke('sites.list', {});
    const t0 = Date.now();
    await d.drain(50);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
