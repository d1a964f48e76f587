/**
 * While the disk holding the data folder is full: the renderer is told once (with the message),
 * free space is looked at every few seconds, and when there is room again it is told so, and the
 * writes that failed are made again (the editor saves its kept text; mirror runs go on).
 */
import { diskIsFull, freeBytes } from '../db/faults';

/** Room enough to call the disk usable again: a large draft or a page cache batch fits. */
const ROOM_BYTES = 2 * 1024 * 1024;

export function diskSpace(deps: { folder: string; changed: (full: boolean, message?: string) => void; everyMs?: number; free?: (folder: string) => number }) {
  const free = deps.free ?? freeBytes;
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  return {
    /** A write failed for want of space (guard.ts reported it). */
    full(): void {
      if (timer) return;
      deps.changed(true, `${diskIsFull(deps.folder)}.`);
      timer = setInterval(() => {
        if (free(deps.folder) < ROOM_BYTES) return;
        stop();
        deps.changed(false);
      }, deps.everyMs ?? 2000);
      timer.unref?.();
    },
    get isFull(): boolean {
      return timer !== undefined;
    },
    close: stop,
  };
}
