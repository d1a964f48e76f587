/**
 * What every store route module is handed: the data, the clock, the plan limiter, the webhooks and
 * the settings of one sandbox instance.
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
}

export const DEFAULT_STORE_SETTINGS: StoreSettings = { sessionTtl: 3600, uploadMax: 10 * 1024 * 1024 };

export interface StoreContext {
  /** `spec`: document 3's behaviour; `real`: the Swagger Petstore v3's where the two differ */
  flavor: Flavor;
  dataDir: string;
  /** http://127.0.0.1:PORT, known once listening (uploaded images' addresses) */
  origin: string;
  prefix: string;
  clock: Clock;
  data: StoreData;
  limiter: PlanLimiter;
  webhooks: Webhooks;
  settings: StoreSettings;
}
