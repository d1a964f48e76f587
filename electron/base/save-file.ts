/**
 * Writing a file the person named (an export: the audit trail's, the mailer's), one set of rules:
 * the path is checked first (absolute, its folder there, not a folder, not a file already there
 * unless the person said to replace it); the bytes go to a private temporary file beside it (0600,
 * created new), which takes the chosen name only once it is whole (never over a file that appeared
 * meanwhile unless replacing was asked); a cut, refused or cancelled write leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { constants as fsc } from 'node:fs';
import { link, lstat, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { AppError, isAppError } from './app-error';

/**
 * The file the person named, checked: an absolute path, in a folder that exists, not a folder
 * itself, and not a file already there unless `overwrite`. `example` shows a full path in the words.
 */
export async function checkTarget(path: string, overwrite: boolean, example = '/home/me/audit-log.csv'): Promise<string> {
  const refuse = (message: string, code: 'invalid_input' | 'conflict' = 'invalid_input') => new AppError({ code, message, fields: { file: message } });
  if (!isAbsolute(path)) throw refuse(`Enter a full path, starting at the top of the disk (for example ${example}).`);
  const folder = dirname(path);
  const parent = await stat(folder).catch(() => null);
  if (!parent) throw refuse('That folder does not exist.');
  if (!parent.isDirectory()) throw refuse('That path’s folder is not a folder.');
  const there = await lstat(path).catch(() => null);
  if (there?.isDirectory()) throw refuse('That is a folder: add a file name.');
  if (there && !overwrite) throw refuse('A file of that name is there already.', 'conflict');
  if (there && !there.isFile()) throw refuse('Something other than a file has that name.');
  return path;
}

/** The finished temporary file takes the chosen name: replacing only when asked, else never over a file that appeared meanwhile. */
export async function settle(temp: string, file: string, overwrite: boolean, what = 'export'): Promise<void> {
  try {
    if (overwrite) await rename(temp, file);
    else await link(temp, file); // fails when the name was taken meanwhile; the caller removes the temporary name
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new AppError({ code: 'conflict', message: `A file of that name appeared while the ${what} ran; nothing was written over it. Export again to replace it or choose another name.`, fields: { file: 'A file of that name is there already.' } });
    }
    throw fileError(err, file, 'could not be saved');
  }
}

/** A file system error in words (the disk full, no permission, read-only), naming the file, not its folder. */
export function fileError(err: unknown, file: string, what: string): AppError {
  if (isAppError(err)) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC') return new AppError({ code: 'disk_full', message: `The disk holding ${basename(file)} is full: the export ${what}. The unfinished file was removed.` }, { cause: err });
  const why = code === 'EACCES' || code === 'EPERM' ? 'Sitedesk may not write in that folder' : code === 'EROFS' ? 'that disk is read-only' : (code ?? 'an error');
  return new AppError({ code: 'invalid_input', message: `The file ${basename(file)} ${what}: ${why}.`, fields: { file: `It ${what}: ${why}.` }, ...(code ? { detail: code } : {}) }, { cause: err });
}

/** A private temporary file beside `file` (0600, created new), where its bytes go until they are whole. */
export async function openTemp(file: string): Promise<{ temp: string; handle: FileHandle }> {
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.part`);
  try {
    return { temp, handle: await open(temp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 0o600) };
  } catch (err) {
    throw fileError(err, file, 'could not be created');
  }
}

/** Removes a temporary file if it is still there. */
export const dropTemp = (temp: string): Promise<void> => unlink(temp).catch(() => undefined);
