/**
 * A Host in a child process, driven over Node's IPC channel ({id, channel, input} → {id, result}),
 * so a test can kill it with SIGKILL in the middle of work. Argument: the data folder.
 */
import { join } from 'node:path';
import { createHost } from '../../electron/core/host';
import { FileSecretStore } from './file-secrets';

const dataDir = process.argv[2]!;
const host = await createHost({ dataDir, shell: 'browser', version: 'test', secrets: new FileSecretStore(join(dataDir, 'secrets.json')), log: () => {} });
process.on('message', async (m: { id: number; channel: string; input: unknown }) => {
  const result = await host.invoke(m.channel, m.input);
  process.send!({ id: m.id, result });
});
process.send!({ ready: true });
