/**
 * An upload's progress as events: a few per file are plenty (every twentieth of it, and the end);
 * an event per chunk would flood the bridge. Shared by the CMS media and the store's pet photos.
 */
export interface UploadProgress {
  uploadId: string;
  sent: number;
  total: number;
}

/** The `onProgress` to hand to an upload: it passes on the steps worth an event. */
export function throttledProgress(uploadId: string, emit: (p: UploadProgress) => void): (sent: number, total: number) => void {
  let last = 0;
  return (sent, total) => {
    if (sent !== total && sent - last < total / 20) return;
    last = sent;
    emit({ uploadId, sent, total });
  };
}
