/**
 * A webhook receiver on loopback for tests: it records every POST (headers and body as sent) and
 * answers `status`; `signed(r, secret)` checks a delivery's HMAC-SHA256 signature as each flavour
 * sends it (spec `X-Hub-Signature-256: sha256=<hex>`, real `X-Grav-Signature: <hex>`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** the parsed body ({event, timestamp, data, webhook_id}) */
  json: { event?: string; webhook_id?: string; data?: unknown };
}

export interface Receiver {
  url: string;
  got: Received[];
  /** what the next requests are answered */
  status: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let server: Server;
  const rx: Receiver = {
    url: '',
    got: [],
    status: 200,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Received['json'] = {};
      try {
        json = JSON.parse(body) as Received['json'];
      } catch {
        json = {};
      }
      rx.got.push({ headers: req.headers, body, json });
      res.writeHead(rx.status, { 'Content-Type': 'text/plain' }).end(rx.status < 300 ? 'thanks' : 'receiver says no');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  rx.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return rx;
}

/** The signature header a delivery carries (either flavour's), as hex. */
export function signatureOf(r: Received): string | null {
  const spec = r.headers['x-hub-signature-256'];
  if (typeof spec === 'string') return spec.replace(/^sha256=/, '');
  const real = r.headers['x-grav-signature'];
  return typeof real === 'string' ? real : null;
}

/** Whether the delivery's body is signed with `secret` (HMAC-SHA256 of the body as sent). */
export function signed(r: Received, secret: string): boolean {
  const got = signatureOf(r);
  if (!got || !/^[0-9a-f]{64}$/.test(got)) return false;
  const want = createHmac('sha256', secret).update(r.body).digest();
  return timingSafeEqual(Buffer.from(got, 'hex'), want);
}
