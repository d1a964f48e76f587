import { describe, expect, it } from 'vitest';
import { throttledProgress, type UploadProgress } from '../../electron/base/upload-progress';

describe('throttledProgress', () => {
  it('passes on every twentieth of the file and the end, not every chunk', () => {
    const seen: UploadProgress[] = [];
    const onProgress = throttledProgress('u1', (p) => seen.push(p));
    for (let sent = 1_000; sent <= 100_000; sent += 1_000) onProgress(sent, 100_000);
    expect(seen.map((p) => p.sent)).toEqual(Array.from({ length: 20 }, (_, i) => (i + 1) * 5_000));
    expect(seen.every((p) => p.uploadId === 'u1' && p.total === 100_000)).toBe(true);
  });

  it('always passes on the last step, even right after another', () => {
    const seen: number[] = [];
    const onProgress = throttledProgress('u2', (p) => seen.push(p.sent));
    onProgress(10, 1000);
    onProgress(999, 1000);
    onProgress(1000, 1000);
    expect(seen).toEqual([999, 1000]);
  });
});
