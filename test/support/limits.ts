/**
 * The CMS sandbox's request limit raised far past what a test sends, for tests that are not about
 * the limit (the real flavour's bucket would otherwise refuse a busy test). Spread into the
 * sandbox's options: `startCmsSandbox({ flavor, ...UNHURRIED })`.
 */
import type { CmsSandboxOptions } from '../sandbox/cms/server';

export const UNHURRIED = { limits: { api: { limit: 100_000, windowSec: 60 } } } satisfies Pick<CmsSandboxOptions, 'limits'>;
