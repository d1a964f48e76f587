/**
 * Browser mode under hostile requests, over raw sockets against the real process: a malformed URL,
 * a malformed upgrade, an oversized header, garbage, a reset mid-upgrade, a half-open socket. Each
 * gets a 4xx or its own connection closed, and the server keeps serving everybody else.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';
import { tempDir } from '../support/tmp';
import { removeWebBuild, startWeb, type WebProcess } from '../support/web-process';

let dir: ReturnType<typeof tempDir>;
let web: WebProcess & { port: number; token: string };

beforeAll(async () => {
  dir = tempDir();
  web = await startWeb(dir.path);
}, 60_000);

afterAll(async () => {
  await web?.stop();
  dir?.remove();
  removeWebBuild();
});

const open = (port = web.port) =>
  new Promise<Socket>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });

/** Sends `bytes` and answers what came back before the server closed the socket (or `ms` passed). */
async function raw(bytes: string | Buffer, ms = 3000): Promise<{ text: string; closed: boolean }> {
  const s = await open();
  s.on('error', () => {}); // a reset from the server is an answer too
  let text = '';
  s.on('data', (d) => (text += d.toString('latin1')));
  const closed = new Promise<boolean>((resolve) => {
    s.once('close', () => resolve(true));
    setTimeout(() => resolve(false), ms);
  });
  s.write(bytes);
  const wasClosed = await closed;
  s.destroy();
  return { text, closed: wasClosed };
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);

/** The server still answers a plain request, and the process is alive. */
async function stillServing() {
  expect(web.child.exitCode, web.output()).toBeNull();
  const res = await fetch(`http://127.0.0.1:${web.port}/`);
  expect(res.status).toBe(200); // the stand-in renderer beside the test bundle (web-process)
  await res.arrayBuffer();
}

const get = (target: string, extra = '') => `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\n${extra}Connection: close\r\n\r\n`;
const upgrade = (target: string, extra = '') =>
  get(target, `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://127.0.0.1:${web.port}\r\n${extra}`);

describe('browser mode under hostile requests', () => {
  test('a malformed escape in the URL gets 400', async () => {
    const r = await raw(get('/%E0%A4%A'));
    expect(statusOf(r.text)).toBe(400);
    await stillServing();
  });

  test('a malformed escape fetched by a page (the img-tag attack) gets 400', async () => {
    const res = await fetch(`http://127.0.0.1:${web.port}/assets/%E0%A4%A.js`);
    expect(res.status).toBe(400);
    await stillServing();
  });

  test('an upgrade whose target is not a URL gets 400', async () => {
    const r = await raw(upgrade('//['));
    expect(statusOf(r.text)).toBe(400);
    await stillServing();
  });

  test('an upgrade with a malformed escape in its token gets 403 or 400', async () => {
    const r = await raw(upgrade(`/bridge?token=%E0%A4%A`));
    expect([400, 403]).toContain(statusOf(r.text));
    await stillServing();
  });

  test('an upgrade refused, its client gone before the answer: the server does not trip on the reset', async () => {
    for (let i = 0; i < 20; i++) {
      const s = await open();
      s.on('error', () => {});
      s.write(upgrade('/bridge?token=wrong'));
      s.resetAndDestroy();
    }
    await new Promise((r) => setTimeout(r, 200));
    await stillServing();
  });

  test('an oversized header gets 431', async () => {
    const r = await raw(get('/', `X-Big: ${'a'.repeat(70_000)}\r\n`));
    expect(statusOf(r.text)).toBe(431);
    await stillServing();
  });

  test('bytes that are not HTTP get 400', async () => {
    const r = await raw(Buffer.from('\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n', 'latin1'));
    expect(statusOf(r.text)).toBe(400);
    await stillServing();
  });

  test('a header with a bad character gets 400', async () => {
    const r = await raw(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nX-Bad: a\x00b\r\n\r\n`);
    expect(statusOf(r.text)).toBe(400);
    await stillServing();
  });

  test('half-open sockets (nothing sent, half a request) do not block anyone and are closed after the header timeout', async () => {
    const silent = await open();
    const half = await open();
    half.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nX-Partial: `);
    const closedSilent = new Promise<void>((r) => silent.once('close', () => r()));
    const closedHalf = new Promise<void>((r) => half.once('close', () => r()));
    silent.on('error', () => {});
    half.on('error', () => {});
    await stillServing();
    // the header timeout (10 s) plus the server's check interval (1 s) closes both
    await Promise.race([Promise.all([closedSilent, closedHalf]), new Promise((_, reject) => setTimeout(() => reject(new Error('half-open sockets were never closed')), 14_000))]);
    await stillServing();
  }, 20_000);

  test('a request body on GET, a bad method and an absolute-form target are answered, not thrown', async () => {
    expect(statusOf((await raw(`POST / HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc`)).text)).toBe(405);
    expect([400, 421]).toContain(statusOf((await raw(`GET http://[::1 HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nConnection: close\r\n\r\n`)).text));
    expect([200, 400, 403, 404]).toContain(statusOf((await raw(get('/%00'))).text));
    await stillServing();
  });

  test('on the bridge, with the token: a binary frame is ignored, a frame over 64 MiB closes that socket (1009), and the next socket works', async () => {
    const open = () =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${web.port}/bridge?token=${web.token}`, { origin: `http://127.0.0.1:${web.port}` });
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
    const ask = (ws: WebSocket, id: number) =>
      new Promise<{ id: number; ok: boolean }>((resolve) => {
        ws.on('message', (d) => {
          const m = JSON.parse(d.toString());
          if (m.id === id) resolve(m);
        });
        ws.send(JSON.stringify({ id, channel: 'app.info', input: {} }));
      });
    const a = await open();
    a.send(Buffer.from([0xff, 0x00, 0x01]), { binary: true });
    expect(await ask(a, 1)).toMatchObject({ id: 1, ok: true });
    const closed = new Promise<number>((resolve) => a.once('close', (code) => resolve(code)));
    a.on('error', () => {});
    a.send('x'.repeat(64 * 1024 * 1024 + 1));
    expect(await closed).toBe(1009);
    const b = await open();
    expect(await ask(b, 2)).toMatchObject({ id: 2, ok: true });
    b.close();
    await stillServing();
  }, 30_000);
});
