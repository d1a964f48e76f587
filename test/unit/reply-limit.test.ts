/**
 * The size cap on a server's answer (api/http.ts readLimited, send's `reply` kinds): a declared
 * length above the cap is refused before reading, a streamed body is cut at the cap and its stream
 * cancelled, a body exactly at the cap is read whole. Real web Responses and streams, no server.
 */
import { describe, expect, test } from 'vitest';
import { REPLY_LIMITS, readLimited, send } from '../../electron/api/http';

/** A body that never ends, counting what was pulled and whether it was cancelled. */
function endless(chunk = 64 * 1024) {
  const state = { pulled: 0, cancelled: false };
  const bytes = new Uint8Array(chunk).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      state.pulled += bytes.length;
      c.enqueue(bytes);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('an answer is read up to its cap', () => {
  test('a Content-Length above the cap is refused before the body is read', async () => {
    const { stream, state } = endless();
    const res = new Response(stream, { headers: { 'content-length': String(1025) } });
    await expect(readLimited(res, 1024, '127.0.0.1:8080', 'page')).rejects.toMatchObject({
      code: 'bad_response',
      message: '127.0.0.1:8080 sent an answer larger than Sitedesk reads for a page (1024 bytes); it was not read.',
    });
    expect(state.pulled).toBeLessThanOrEqual(64 * 1024); // at most what the stream queued before the refusal
    expect(state.cancelled).toBe(true);
  });

  test('a chunked body is counted as it streams and cancelled at the cap', async () => {
    const { stream, state } = endless();
    const limit = 1024 * 1024;
    await expect(readLimited(new Response(stream), limit, 'cms.example.com', 'json')).rejects.toMatchObject({
      code: 'bad_response',
      message: 'cms.example.com sent an answer larger than Sitedesk reads for an answer (1 MiB); it was not read.',
    });
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(limit + 4 * 64 * 1024);
  });

  test('a body exactly at the cap is read whole, multi-byte characters across chunks intact', async () => {
    const text = 'é'.repeat(512); // 1024 bytes
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, 333)); // splits a character
        c.enqueue(bytes.slice(333));
        c.close();
      },
    });
    expect(await readLimited(new Response(stream), 1024, 'h', 'json')).toBe(text);
    expect(await readLimited(new Response(text, { headers: { 'content-length': '1024' } }), 1024, 'h', 'json')).toBe(text);
  });

  test('one byte over the cap without a declared length is refused', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(1025));
        c.close();
      },
    });
    await expect(readLimited(new Response(stream), 1024, 'h', 'media')).rejects.toMatchObject({ code: 'bad_response', message: expect.stringContaining('for a media answer (1024 bytes)') });
  });

  test('send applies the cap of the kind the caller names (json by default)', async () => {
    expect(REPLY_LIMITS.json).toBeLessThan(REPLY_LIMITS.page);
    expect(REPLY_LIMITS.page).toBeLessThan(REPLY_LIMITS.media);
    const declared = (n: number) => async () => new Response('{}', { headers: { 'content-length': String(n) } });
    const url = 'http://127.0.0.1:8080/api/v1/pages/blog';
    await expect(send(declared(REPLY_LIMITS.json + 1), { url })).rejects.toMatchObject({ message: expect.stringContaining('for an answer (16 MiB)') });
    await expect(send(declared(REPLY_LIMITS.page + 1), { url, reply: 'page' })).rejects.toMatchObject({ message: '127.0.0.1:8080 sent an answer larger than Sitedesk reads for a page (32 MiB); it was not read.' });
    await expect(send(declared(REPLY_LIMITS.media + 1), { url, reply: 'media' })).rejects.toMatchObject({ message: expect.stringContaining('(64 MiB)') });
  });
});
