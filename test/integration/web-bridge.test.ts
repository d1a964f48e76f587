import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { WebServer } from '../../electron/web/server';
import { startBrowserModeHost, type BrowserModeHost } from '../support/browser-mode';

let mode: BrowserModeHost | undefined;
let web: WebServer;

afterEach(async () => {
  await mode?.close();
  mode = undefined;
});

async function start() {
  mode = await startBrowserModeHost();
  web = mode.web;
}

function connect(url: string, origin: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { origin });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

const ask = (ws: WebSocket, msg: unknown) =>
  new Promise<Record<string, unknown>>((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const m = JSON.parse(data.toString());
      if ('id' in m) {
        ws.off('message', onMessage);
        resolve(m);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify(msg));
  });

describe('the browser-mode bridge', () => {
  test('listens on loopback only and prints a URL with the per-run token', async () => {
    await start();
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
  });

  test('with the token and our origin: the contract answers, events arrive', async () => {
    await start();
    const origin = `http://127.0.0.1:${web.port}`;
    const ws = await connect(`ws://127.0.0.1:${web.port}/bridge?token=${web.token}`, origin);
    const events: unknown[] = [];
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.event === 'sites.changed') events.push(m);
    });
    expect(await ask(ws, { id: 1, channel: 'sites.list', input: {} })).toEqual({ id: 1, ok: true, value: [] });
    const bad = await ask(ws, { id: 2, channel: 'sites.add', input: { name: '' } });
    expect(bad).toMatchObject({ id: 2, ok: false, error: { code: 'invalid_input' } });
    await ask(ws, { id: 3, channel: 'sites.add', input: { name: 'A', kind: 'cms', baseUrl: 'https://a.test', environment: null, authMode: 'password' } });
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toMatchObject([{ event: 'sites.changed', payload: [{ name: 'A' }] }]);
    ws.close();
  });

  test('garbage frames are ignored and the connection keeps working', async () => {
    await start();
    const ws = await connect(`ws://127.0.0.1:${web.port}/bridge?token=${web.token}`, `http://127.0.0.1:${web.port}`);
    ws.send('this is not json');
    ws.send(JSON.stringify({ hello: 'world' }));
    expect(await ask(ws, { id: 9, channel: 'app.info', input: {} })).toMatchObject({ id: 9, ok: true, value: { shell: 'browser' } });
    ws.close();
  });

  test('refuses a wrong token, a foreign origin and a foreign Host header', async () => {
    await start();
    const own = `http://127.0.0.1:${web.port}`;
    await expect(connect(`ws://127.0.0.1:${web.port}/bridge?token=wrong`, own)).rejects.toThrow();
    await expect(connect(`ws://127.0.0.1:${web.port}/bridge`, own)).rejects.toThrow();
    await expect(connect(`ws://127.0.0.1:${web.port}/bridge?token=${web.token}`, 'http://evil.example')).rejects.toThrow();
    // fetch() may not set Host; a raw request can, like a DNS-rebound page would
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port: web.port, path: '/', headers: { Host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(421);
  });

  test('serves the renderer with a strict CSP and refuses path traversal', async () => {
    await start();
    const res = await fetch(`http://127.0.0.1:${web.port}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const trav = await fetch(`http://127.0.0.1:${web.port}/..%2f..%2fsitedesk.db`);
    expect([403, 404]).toContain(trav.status);
    expect(await trav.text()).not.toContain('SQLite');
  });
});
