/** The main ↔ Host messages (electron/host-messages.ts) and the secrets switches (electron/secrets/options.ts), read the same by every entry. */
import { describe, expect, test } from 'vitest';
import { isHostRestarting, readFromHost, readToHost } from '../../electron/host-messages';
import { secretsOptionsFromEnv } from '../../electron/secrets/options';

describe('main → Host messages', () => {
  test('each kind is read; anything else is not a message', () => {
    expect(readToHost({ type: 'connect' })).toEqual({ type: 'connect' });
    expect(readToHost({ type: 'shutdown', extra: 1 })).toEqual({ type: 'shutdown' });
    expect(readToHost({ type: 'emit', event: 'updater.status', payload: { state: 'none' } })).toEqual({ type: 'emit', event: 'updater.status', payload: { state: 'none' } });
    for (const bad of [null, 'connect', 42, {}, { type: 'emit' }, { type: 'emit', event: 7 }, { type: 'other' }]) expect(readToHost(bad)).toBeNull();
  });

  test('the folder dialog: asked by the Host with an id, answered by main with the folder or null', () => {
    expect(readFromHost({ type: 'chooseFolder', id: 3, title: 'Choose' })).toEqual({ type: 'chooseFolder', id: 3, title: 'Choose' });
    for (const bad of [null, { type: 'chooseFolder' }, { type: 'chooseFolder', id: 1.5, title: 'x' }, { type: 'chooseFolder', id: 1 }, { type: 'other', id: 1, title: 'x' }]) expect(readFromHost(bad)).toBeNull();
    expect(readToHost({ type: 'folderChosen', id: 3, folder: '/home/me/Saved' })).toEqual({ type: 'folderChosen', id: 3, folder: '/home/me/Saved' });
    expect(readToHost({ type: 'folderChosen', id: 3, folder: null })).toEqual({ type: 'folderChosen', id: 3, folder: null });
    for (const bad of [{ type: 'folderChosen', id: 3 }, { type: 'folderChosen', id: 'x', folder: null }, { type: 'folderChosen', id: 3, folder: 7 }]) expect(readToHost(bad)).toBeNull();
  });

  test('the save dialog (an audit export): asked with a name and the file kind, answered with the file or null', () => {
    const ask = { type: 'chooseSaveFile', id: 4, title: 'Export', defaultName: 'audit-log.csv', filterName: 'CSV', extensions: ['csv'] };
    expect(readFromHost(ask)).toEqual(ask);
    for (const bad of [{ ...ask, id: 'x' }, { ...ask, defaultName: '../audit.csv' }, { ...ask, defaultName: 'a\\b.csv' }, { ...ask, extensions: ['.csv'] }, { ...ask, extensions: 'csv' }, { ...ask, title: undefined }]) expect(readFromHost(bad)).toBeNull();
    expect(readToHost({ type: 'saveFileChosen', id: 4, file: '/home/me/audit.csv' })).toEqual({ type: 'saveFileChosen', id: 4, file: '/home/me/audit.csv' });
    expect(readToHost({ type: 'saveFileChosen', id: 4, file: null })).toEqual({ type: 'saveFileChosen', id: 4, file: null });
    for (const bad of [{ type: 'saveFileChosen', id: 4 }, { type: 'saveFileChosen', id: 4, file: 3 }]) expect(readToHost(bad)).toBeNull();
  });

  test('the open-file dialog (an audit export to import): asked with an id, answered with the file or null', () => {
    expect(readFromHost({ type: 'chooseOpenFile', id: 4, title: 'Choose' })).toEqual({ type: 'chooseOpenFile', id: 4, title: 'Choose' });
    for (const bad of [{ type: 'chooseOpenFile' }, { type: 'chooseOpenFile', id: 1.5, title: 'x' }, { type: 'chooseOpenFile', id: 1 }]) expect(readFromHost(bad)).toBeNull();
    expect(readToHost({ type: 'openFileChosen', id: 4, file: '/home/me/audit-log.csv' })).toEqual({ type: 'openFileChosen', id: 4, file: '/home/me/audit-log.csv' });
    expect(readToHost({ type: 'openFileChosen', id: 4, file: null })).toEqual({ type: 'openFileChosen', id: 4, file: null });
    for (const bad of [{ type: 'openFileChosen', id: 4 }, { type: 'openFileChosen', id: 'x', file: null }, { type: 'openFileChosen', id: 4, file: 7 }]) expect(readToHost(bad)).toBeNull();
  });

  test('the restarting notice', () => {
    expect(isHostRestarting({ state: 'restarting' })).toBe(true);
    expect(isHostRestarting({ state: 'ready' })).toBe(false);
    expect(isHostRestarting(null)).toBe(false);
  });
});

describe('secrets switches', () => {
  test('none set: the OS keychain as usual', () => {
    expect(secretsOptionsFromEnv({})).toBeNull();
    expect(secretsOptionsFromEnv({ SITEDESK_SECRETS: 'keychain' })).toBeNull();
  });

  test('memory, a service name, or both', () => {
    expect(secretsOptionsFromEnv({ SITEDESK_SECRETS: 'memory' })).toEqual({ force: 'memory' });
    expect(secretsOptionsFromEnv({ SITEDESK_KEYCHAIN_SERVICE: 'Sitedesk-test' })).toEqual({ service: 'Sitedesk-test' });
    expect(secretsOptionsFromEnv({ SITEDESK_SECRETS: 'memory', SITEDESK_KEYCHAIN_SERVICE: 'x' })).toEqual({ force: 'memory', service: 'x' });
  });
});
