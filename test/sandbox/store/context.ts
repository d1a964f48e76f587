/**
 * What every store route module is handed: the clock, the plan limiter, the webhooks and the
 * settings of one sandbox instance, and (`SpecStoreContext`) the spec flavour's data. The real
 * flavour keeps its records in real/data.ts instead, the way Petstore keeps them.
 */
import type { Clock } from '../clock';
import type { Flavor } from '../flavor';
import type { StoreData } from './data';
import type { PlanLimiter } from './plans';
import type { Webhooks } from './webhooks';

/** Mutable at run time (tests, `POST /__sandbox/settings`). */
export interface StoreSettings {
  /** lifetime of a login session in seconds; default 3600 */
  sessionTtl: number;
  /** largest image upload in bytes; default 10 MB */
  uploadMax: number;
  /**
   * `real` only: the time zone the imitated Petstore's JVM runs in (an IANA name), which its
   * login's X-Expires-After (java.util.Date.toString()) is written in; default UTC
   */
  timeZone: string;
}

export const DEFAULT_STORE_SETTINGS: StoreSettings = { sessionTtl: 3600, uploadMax: 10 * 1024 * 1024, timeZone: 'UTC' };

export interface StoreContext {
  /** `spec`: document 3's behaviour; `real`: the Swagger Petstore v3's where the two differ */
  flavor: Flavor;
  dataDir: string;
  /** http://127.0.0.1:PORT, known once listening (uploaded images' addresses) */
  origin: string;
  prefix: string;
  clock: Clock;
  limiter: PlanLimiter;
  webhooks: Webhooks;
  settings: StoreSettings;
}

/** The spec flavour's routes also get its data (pets, orders, users, keys, sessions). */
export interface SpecStoreContext extends StoreContext {
  data: StoreData;
}
