import { expect, test } from 'vitest';
import { serveConnection } from '../../electron/core/connection';
import type { HostEndpoint } from '../../electron/core/host-types';
import type { HostMessage } from '../../electron/contract/protocol';

const host = (value: unknown): HostEndpoint => ({
  invoke: async () => ({ ok: true, value }),
  onEvent: () => () => {},
  emit: () => {},
});

test('an answer the transport cannot carry becomes an internal error for that call; receive never rejects', async () => {
  const sent: HostMessage[] = [];
  // the transport refuses what it cannot serialise, as JSON.stringify does with a BigInt or a MessagePort with a function
  const conn = serveConnection(host({ n: 1n }), (m) => {
    JSON.stringify(m);
    sent.push(m);
  });
  await expect(conn.receive({ id: 7, channel: 'app.info', input: {} })).resolves.toBeUndefined();
  expect(sent).toEqual([{ id: 7, ok: false, error: { code: 'internal', message: expect.stringContaining('Something went wrong inside Sitedesk') } }]);
});

test('a transport that is gone altogether: receive still resolves', async () => {
  const conn = serveConnection(host(1), () => {
    throw new Error('port closed');
  });
  await expect(conn.receive({ id: 1, channel: 'app.info', input: {} })).resolves.toBeUndefined();
});
