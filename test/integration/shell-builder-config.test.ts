/**
 * electron-builder.yml as electron-builder itself reads and checks it (`npm run dist` does the
 * same two steps: app-builder-lib's getConfig, then validateConfiguration against the JSON schema
 * it ships, scheme.json), so a misspelt or misplaced option fails here and not on the day of a
 * release. Then what the packaged app's security rests on: the Electron fuses.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

type Config = Record<string, unknown> & { electronFuses?: Record<string, boolean>; appId?: string };
interface BuilderConfig {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: unknown): Promise<Config>;
  validateConfiguration(config: Config, debugLogger: { isEnabled: boolean; add(key: string, value: unknown): void }): Promise<void>;
}
const builder = require('app-builder-lib/out/util/config/config.js') as BuilderConfig;
const quiet = { isEnabled: false, add: () => undefined };

const load = () => builder.getConfig(root, join(root, 'electron-builder.yml'), null);

test("electron-builder.yml is valid against electron-builder's own configuration schema", async () => {
  const config = await load();
  expect(config.appId).toBe('app.sitedesk.desktop');
  await expect(builder.validateConfiguration(config, quiet)).resolves.toBeUndefined();
});

test('the same check refuses a misspelt option, an option in the wrong place and a wrong type, naming it', async () => {
  const config = await load();
  const fuses = config.electronFuses ?? {};
  const broken: [Config, RegExp][] = [
    [{ ...config, electronFuses: { ...fuses, runAsNod: false } }, /electronFuses/],
    [{ ...config, hardenedRuntime: true }, /hardenedRuntime/], // belongs under mac:
    [{ ...config, mac: { ...(config.mac as object), hardenedRuntim: true } }, /mac/],
    [{ ...config, npmRebuild: 'often' }, /npmRebuild/], // the builder coerces numbers to strings, not words to booleans
  ];
  for (const [bad, named] of broken) await expect(builder.validateConfiguration(bad, quiet)).rejects.toThrow(named);
});

test('the packaged Electron cannot be run as Node, take Node options or debuggers, or load an app from outside its checked asar', async () => {
  const { electronFuses } = await load();
  expect(electronFuses).toEqual({
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    grantFileProtocolExtraPrivileges: false,
  });
});
