/**
 * The renderer↔Host channel refuses an oversized message with a clear error and keeps working
 * (review L5). Browser mode: the renderer's own WebSocket transport against the real browser-mode
 * server over loopback; a frame over 64 MiB used to be sent, the server closed the socket (1009)
 * and the call failed as "lost its connection". Electron: the same check sits in the peer both
 * preloads share (contract/peer.ts), exercised here with a port-like sender.
 */
import { afterEach, describe, expect, test } from 'vitest';
import WS from 'ws';
import type { WebServer } from '../../electron/web/server';
import { startBrowserModeHost, type BrowserModeHost } from '../support/browser-mode';
import { webSocketTransport } from '../../renderer/lib/transport';
import { createPeer } from '../../electron/contract/peer';
import { MAX_MESSAGE_BYTES, frameTooLarge } from '../../electron/contract/protocol';

let mode: BrowserModeHost | undefined;
let web: WebServer;
const realWebSocket = globalThis.WebSocket;

afterEach(async () => {
  globalThis.WebSocket = realWebSocket;
  await mode?.close();
  mode = undefined;
});

async function start() {
  mode = await startBrowserModeHost();
  web = mode.web;
  // the page's WebSocket, as Chromium opens it: with our own origin
  const origin = `http://127.0.0.1:${web.port}`;
  globalThis.WebSocket = class extends WS {
    constructor(url: string) {
      super(url, { origin });
    }
  } as unknown as typeof WebSocket;
}

const siteId = '6f1c2b8e-1d2a-4c3b-9e4f-5a6b7c8d9e0f';

describe('an oversized message', () => {
  test('browser mode: refused before it is sent, with a clear error; the connection goes on', async () => {
    await start();
    const t = webSocketTransport(web.token, { url: `ws://127.0.0.1:${web.port}/bridge?token=${web.token}`, backoff: () => 50 });
    expect(await t.invoke('app.info', {})).toMatchObject({ ok: true });
    const closed: unknown[] = [];
    t.on('host.status', (s) => closed.push(s));
    const big = 'x'.repeat(MAX_MESSAGE_BYTES + 1);
    const r = await t.invoke('drafts.save', { siteId, route: '/a', title: 'T', content: big, header: {} });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(!r.ok && r.error.message).toMatch(/64 MB/);
    // the same socket still answers, and it never looked like the Host went away
    expect(await t.invoke('app.info', {})).toMatchObject({ ok: true });
    expect(closed).toEqual([]);
  });

  test('Electron: the preload’s peer refuses it before it reaches the port', async () => {
    const posted: unknown[] = [];
    const peer = createPeer((message) => {
      if (frameTooLarge(JSON.stringify(message))) return 'too_large';
      posted.push(message);
    });
    const r = await peer.invoke('drafts.save', { content: 'é'.repeat(MAX_MESSAGE_BYTES / 2 + 1) });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(posted).toEqual([]);
  });

  test('the size is counted in UTF-8 bytes, as the socket counts it', () => {
    expect(frameTooLarge('x'.repeat(MAX_MESSAGE_BYTES))).toBe(false);
    expect(frameTooLarge('x'.repeat(MAX_MESSAGE_BYTES + 1))).toBe(true);
    expect(frameTooLarge('é'.repeat(MAX_MESSAGE_BYTES / 2))).toBe(false);
    expect(frameTooLarge('é'.repeat(MAX_MESSAGE_BYTES / 2 + 1))).toBe(true);
  });
});
