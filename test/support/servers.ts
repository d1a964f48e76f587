import { createServer as createHttp } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { createServer as createNet, type Server as NetServer, type Socket } from 'node:net';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { tempDir } from './tmp';

/** A port nothing listens on: bound, read, released. */
export async function closedPort(): Promise<number> {
  const s = createNet();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Accepts connections and never answers: the timeout case. */
export async function silentServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const s: NetServer = createNet((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const sock of sockets) sock.destroy();
        s.close(() => r());
      }),
  };
}

/** HTTPS with a self-signed certificate (made by openssl for this run): the TLS-refused case. */
export async function selfSignedServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const dir = tempDir('sitedesk-tls-');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1',
    '-keyout', join(dir.path, 'key.pem'), '-out', join(dir.path, 'cert.pem'),
  ], { stdio: 'ignore' });
  const s = createHttps({ key: readFileSync(join(dir.path, 'key.pem')), cert: readFileSync(join(dir.path, 'cert.pem')) }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":{"pong":true}}');
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => (dir.remove(), r()));
      }),
  };
}

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Records every request it gets (webhook deliveries) and answers `status` (changeable while
 * running: `receiver.status = 500` makes the sender retry).
 */
export async function recordingServer(): Promise<{ url: string; received: Received[]; status: number; close(): Promise<void> }> {
  const received: Received[] = [];
  const state = { url: '', received, status: 200, close: async () => {} };
  const s = createHttp((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(state.status, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/hooks`;
  state.close = () =>
    new Promise<void>((r) => {
      s.closeAllConnections();
      s.close(() => r());
    });
  return state;
}
