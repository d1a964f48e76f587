/**
 * About Sitedesk: the open-source packages the installed app ships and their licences, as the
 * build wrote them (scripts/notices.mjs → out/app/licences.json, beside the Host's bundle).
 */
import { channel, None } from './define';

/** One licence or notice file, as the package ships it. */
export interface LicenceText {
  /** Its file name in the package: LICENSE, LICENCE.md, COPYING, NOTICE, LICENSE.third-party.md… */
  file: string;
  text: string;
}

/** A package the app ships, with its licence. */
export interface ShippedLicence {
  name: string;
  version: string;
  /** As the package declares it (SPDX), with what a native add-on links in and the choice made. */
  licence: string;
  /** renderer, host, shell, browser-mode (bundled into that part) and/or runtime (copied as it is). */
  where: string[];
  /** It carries a compiled add-on. */
  native: boolean;
  homepage: string | null;
  /** What the files do not say: a package without a licence file, what an add-on links in, a licence chosen. */
  notes: string[];
  /** Empty when the package ships no licence file (its `notes` say so). */
  texts: LicenceText[];
}

export interface Licences {
  app: { name: string; version: string };
  packages: ShippedLicence[];
}

export const aboutChannels = {
  /** Every shipped package with its licence texts (read once from the build's file, then kept). */
  'about.licences': channel<Licences>()(None),
};

export const aboutEvents = {};
