/**
 * About Sitedesk: the licences of what the app ships, from the file the build writes beside the
 * Host's bundle (out/app/licences.json, made by scripts/notices.mjs). Read when first asked and then
 * kept (about half a megabyte); a missing or unreadable file is said in words, and asked again next time.
 */
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { AppError } from '../base/app-error';
import type { Licences } from '../contract';

/** The file's shape, version 1 (scripts/notices.mjs NOTICES_FORMAT); unknown keys are dropped. */
const NoticesFile = v.object({
  format: v.literal(1),
  app: v.object({ name: v.string(), version: v.string() }),
  packages: v.array(
    v.object({
      name: v.string(),
      version: v.string(),
      licence: v.string(),
      where: v.array(v.string()),
      native: v.boolean(),
      homepage: v.nullable(v.string()),
      notes: v.array(v.string()),
      texts: v.array(v.object({ file: v.string(), text: v.string() })),
    }),
  ),
});

export interface AboutDeps {
  /** licences.json of this build; undefined where the Host runs from its sources (tests). */
  noticesFile: string | undefined;
}

async function read(file: string | undefined): Promise<Licences> {
  const missing = new AppError({
    code: 'not_found',
    message: 'This copy of Sitedesk has no licence notices: it was not built with them (npm run build makes them).',
  });
  if (!file) throw missing;
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw missing;
    throw new AppError({ code: 'internal', message: 'The licence notices could not be read from this copy of Sitedesk.', detail: (err as Error).message }, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new AppError({ code: 'internal', message: 'The licence notices of this copy of Sitedesk are damaged: they are not JSON.' }, { cause: err });
  }
  const parsed = v.safeParse(NoticesFile, json);
  if (!parsed.success) {
    const where = v.getDotPath(parsed.issues[0]) ?? 'the file';
    throw new AppError({ code: 'internal', message: `The licence notices of this copy of Sitedesk are not in the form it reads (at ${where}).` });
  }
  return { app: parsed.output.app, packages: parsed.output.packages };
}

export function aboutService(deps: AboutDeps) {
  let kept: Promise<Licences> | undefined;
  return {
    licences(): Promise<Licences> {
      kept ??= read(deps.noticesFile).catch((err: unknown) => {
        kept = undefined; // a file put in place later is read on the next ask
        throw err;
      });
      return kept;
    },
  };
}

export type AboutService = ReturnType<typeof aboutService>;
