/**
 * The way out of a damaged database: save what it still holds that the sites do not have (drafts,
 * outbox items) as files in a folder the person picks, then keep the damaged file aside and start
 * on a fresh one. Also the database's state and free-space events the window follows.
 */
import * as v from 'valibot';
import { channel, event, None } from './define';
import type { DatabaseStatus } from './app';

/** What "save unsynced work" wrote: a new folder inside the one chosen, and what went in it. */
export interface SalvageReport {
  /** The folder the files were written to (new, inside the one the person chose). */
  folder: string;
  drafts: number;
  outbox: number;
  /** Rows the damage made unreadable (they could not be saved). */
  unreadable: number;
}

/** The folder picked in the system dialog (Electron), or why there is none. */
export type FolderChoice = { folder: string } | { cancelled: true } | { unsupported: true };

export const SalvageInput = v.strictObject({
  folder: v.pipe(v.string(), v.trim(), v.nonEmpty('Enter the folder to save the files in.'), v.maxLength(4096, 'That path is too long.')),
});

export const databaseChannels = {
  /** The system's folder dialog (Electron); browser mode answers `unsupported` and the screen asks for a path. */
  'database.chooseFolder': channel<FolderChoice>()(None),
  /** Writes every draft and outbox item the damaged file still gives up into a new folder inside `folder`. */
  'database.saveUnsynced': channel<SalvageReport>()(SalvageInput),
  /** Moves the damaged file aside (a timestamped name beside it, never deleted) and opens a fresh database. */
  'database.startFresh': channel<{ keptAs: string }>()(None),
};

export const databaseEvents = {
  /** The database became unusable (damage found after start) or usable again (a fresh start). */
  'database.status': event<DatabaseStatus>(),
  /** The disk holding the data filled up (`full`, with the message) or has room again. */
  'database.space': event<{ full: true; message: string } | { full: false }>(),
};
