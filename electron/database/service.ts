/**
 * The way out of a damaged database, as a service: save what it still holds that no site has yet
 * (drafts, outbox items) as files in a new folder inside one the person picks, and start fresh
 * (the Host moves the file aside and opens a new one). Nothing is ever written over: the folder
 * is new, each file is created exclusively, and the damaged file is only renamed.
 */
import { mkdirSync, statSync, writeFileSync, accessSync, constants } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { FolderChoice, SalvageReport } from '../contract';
import { AppError } from '../base/app-error';
import { readUnsynced, type Salvage, type SalvagedDraft, type SalvagedItem } from '../db/salvage';
import { storageFault } from '../db/faults';

export interface DatabaseServiceDeps {
  /** The database file (damaged, when these channels are used). */
  file: string;
  /** Whether the database is damaged now: the way out is offered only then. */
  damaged: () => boolean;
  /** The Host closes what uses the file, moves it aside and opens a fresh one; answers the name it was kept as. */
  startFresh: () => Promise<string>;
  /** The system's folder dialog (Electron's shell); absent in browser mode. */
  chooseFolder?: () => Promise<string | null>;
  now?: () => Date;
}

/** A file or folder name made of a site's or a route's words, that cannot climb or hide. */
export function safeName(text: string, fallback = '_'): string {
  const name = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._()-]+/gu, '-')
    .replace(/^[.\s-]+|[.\s-]+$/g, '')
    .slice(0, 80);
  return name || fallback;
}

/** A Grav page file: YAML front matter (each value as JSON, which YAML reads as is) and the text. */
function pageFile(d: SalvagedDraft): string {
  if (!d.mine) return d.raw ?? '';
  const { title, header, content, template, ...rest } = d.mine;
  const front: Record<string, unknown> = { ...(header && typeof header === 'object' ? (header as Record<string, unknown>) : {}) };
  if (title !== undefined) front.title = title;
  if (template !== undefined) front.template = template;
  for (const [k, val] of Object.entries(rest)) if (val !== undefined) front[k] = val;
  const yaml = Object.entries(front).map(([k, val]) => `${JSON.stringify(k)}: ${JSON.stringify(val)}`).join('\n');
  return `---\n${yaml}\n---\n${typeof content === 'string' ? content : ''}`;
}

/**
 * Makes `dir/name+ext` with `make` (which fails with EEXIST when the name is taken), else
 * "name (2)", "name (3)"…: nothing is ever written over. Answers the path made.
 */
function underFreeName(dir: string, name: string, ext: string, make: (path: string) => void): string {
  for (let n = 1; ; n++) {
    const path = join(dir, `${name}${n > 1 ? ` (${n})` : ''}${ext}`);
    try {
      make(path);
      return path;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

const createFile = (dir: string, name: string, ext: string, text: string): void =>
  void underFreeName(dir, name, ext, (path) => writeFileSync(path, text, { flag: 'wx', mode: 0o600 }));

const createFolder = (parent: string, name: string): string => underFreeName(parent, name, '', (path) => mkdirSync(path, { mode: 0o700 }));

/** The folder a person typed (browser mode) or picked: absolute, existing, a folder, writable. */
function checkFolder(folder: string): string {
  const field = (message: string) => AppError.fields({ folder: message });
  if (!isAbsolute(folder)) throw field('Enter the full path of a folder (starting with / or a drive letter).');
  let st;
  try {
    st = statSync(folder);
  } catch {
    throw field('There is no folder at that path.');
  }
  if (!st.isDirectory()) throw field('That path is a file, not a folder.');
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw field('Sitedesk cannot write in that folder.');
  }
  return resolve(folder);
}

const README = `These files were saved by Sitedesk from a damaged database: the work it held that
had not reached the sites yet.

drafts/<site>/<route>.md   a page's text as it was being edited, with its header as front matter
                           (open it, copy it into the page in Sitedesk or on the site)
outbox/<n> <what>.json     changes that were waiting to be sent (create, move, delete, translate,
                           save), in the order they were made
`;

function write(target: string, s: Salvage): { drafts: number; outbox: number } {
  const siteName = (id: string) => safeName(s.sites.get(id) ?? id, 'site');
  let drafts = 0;
  for (const d of s.drafts) {
    const parts = d.route.split('/').filter(Boolean).map((p) => safeName(p));
    const leaf = parts.pop() ?? 'home';
    const dir = join(target, 'drafts', siteName(d.siteId), ...parts);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    createFile(dir, leaf + (d.lang ? `.${safeName(d.lang)}` : ''), d.mine ? '.md' : '.txt', pageFile(d));
    drafts++;
  }
  let outbox = 0;
  if (s.outbox.length > 0) mkdirSync(join(target, 'outbox'), { mode: 0o700 });
  s.outbox.forEach((item: SalvagedItem, i) => {
    const name = `${String(i + 1).padStart(3, '0')} ${safeName(item.op)} ${siteName(item.siteId)} ${safeName(item.route.replace(/\//g, ' ').trim(), 'home')}`;
    const body = { site: s.sites.get(item.siteId) ?? item.siteId, op: item.op, route: item.route, payload: item.payload, state: item.state, createdAt: item.createdAt };
    createFile(join(target, 'outbox'), name, '.json', JSON.stringify(body, null, 2) + '\n');
    outbox++;
  });
  createFile(target, 'README', '.txt', README);
  return { drafts, outbox };
}

export function databaseService(deps: DatabaseServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const onlyWhenDamaged = () => {
    if (!deps.damaged()) throw new AppError({ code: 'conflict', message: 'The database is not damaged; there is nothing to recover.' });
  };
  return {
    async chooseFolder(): Promise<FolderChoice> {
      if (!deps.chooseFolder) return { unsupported: true };
      const folder = await deps.chooseFolder();
      return folder ? { folder } : { cancelled: true };
    },

    saveUnsynced(input: { folder: string }): SalvageReport {
      onlyWhenDamaged();
      const parent = checkFolder(input.folder);
      let salvage: Salvage;
      try {
        salvage = readUnsynced(deps.file);
      } catch (err) {
        throw new AppError({ code: 'database', message: 'The damaged file cannot be opened at all, so nothing could be read from it.', detail: String((err as Error).message) }, { cause: err });
      }
      const stamp = now().toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '-');
      const target = createFolder(parent, `Sitedesk unsynced work ${stamp}`);
      try {
        const n = write(target, salvage);
        return { folder: target, ...n, unreadable: salvage.unreadable };
      } catch (err) {
        if (storageFault(err) === 'full') throw AppError.fields({ folder: 'The disk holding that folder is full; the files saved so far are in it. Free some space or pick another folder.' });
        throw new AppError({ code: 'internal', message: 'The files could not all be written to that folder; the ones written are in it.', detail: String((err as Error).message) }, { cause: err });
      }
    },

    async startFresh(): Promise<{ keptAs: string }> {
      onlyWhenDamaged();
      return { keptAs: await deps.startFresh() };
    },
  };
}

export type DatabaseService = ReturnType<typeof databaseService>;
