import { expect, test } from 'vitest';
import { readFromHostChild, readToHostChild } from '../../electron/web/child-messages';

test('what the Host child sends is read by its type; anything else is nothing', () => {
  expect(readFromHostChild({ type: 'frame', line: 1, frame: '{}' })).toEqual({ type: 'frame', line: 1, frame: '{}' });
  expect(readFromHostChild({ type: 'secret', id: 2, op: 'set', key: 'site:a:apikey', value: 'k' })).toEqual({ type: 'secret', id: 2, op: 'set', key: 'site:a:apikey', value: 'k' });
  expect(readFromHostChild({ type: 'secret', id: 2, op: 'get', key: 'site:a:apikey' })).toEqual({ type: 'secret', id: 2, op: 'get', key: 'site:a:apikey' });
  expect(readFromHostChild({ type: 'secret', id: 2, op: 'set', key: 'x' })).toBeNull(); // a set without its secret
  expect(readFromHostChild({ type: 'secret', id: 2, op: 'constructor', key: 'x' })).toBeNull();
  expect(readFromHostChild({ type: 'ready', secrets: { mode: 'cloud' } })).toBeNull();
  expect(readFromHostChild({ type: 'frame', line: 1.5, frame: '' })).toBeNull();
  expect(readFromHostChild(null)).toBeNull();
});

test('what the server sends is read by its type', () => {
  expect(readToHostChild({ type: 'open', line: 3 })).toEqual({ type: 'open', line: 3 });
  expect(readToHostChild({ type: 'secret-answer', id: 1, value: null })).toEqual({ type: 'secret-answer', id: 1, value: null });
  expect(readToHostChild({ type: 'secret-answer', id: 1 })).toBeNull();
  expect(readToHostChild({ type: 'shutdown', extra: 1 })).toEqual({ type: 'shutdown' });
  expect(readToHostChild('shutdown')).toBeNull();
});
