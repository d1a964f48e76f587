/**
 * The sandbox flavours a suite runs against: both by default (`describe.each(flavors)`), or the
 * one named in SITEDESK_FLAVOR while working on one of them.
 */
import { FLAVORS, isFlavor, type Flavor } from '../sandbox/flavor';

const only = process.env.SITEDESK_FLAVOR;
if (only !== undefined && only !== '' && !isFlavor(only)) throw new Error(`SITEDESK_FLAVOR must be spec or real, not ${only}`);

export const flavors: readonly Flavor[] = only ? [only as Flavor] : FLAVORS;
export type { Flavor };
