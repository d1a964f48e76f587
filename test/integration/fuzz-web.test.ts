/**
 * Fuzzing browser mode's server (issue 13, "Fuzzing"): the real process (test/support/web-process.ts)
 * gets random bytes, request lines, paths (escapes valid and broken, `..`, NUL, very long),
 * headers (odd bytes in names and values, duplicates, huge) and upgrade requests over raw sockets.
 * The process never exits; every answer is a well-formed HTTP response that is not 5xx (a 200 only
 * ever serves a renderer file) or that one connection closed, never a hang; afterwards a page load
 * and a bridge call still work.
 *
 * Seeded like the contract's fuzz test: the seed is printed; `FUZZ_SEED=<n>` repeats a run,
 * `FUZZ_SEED=random` tries a new one.
 */
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { fuzzSeed, rng, type Rng } from '../support/fuzz';
import { tempDir } from '../support/tmp';
import { removeWebBuild, STAND_IN_RENDERER, startWeb, type WebProcess } from '../support/web-process';

const SEED = fuzzSeed();
const CASES = 1200;
const PARALLEL = 16;
/** A socket neither answered nor closed this long after the request was sent whole is a hang. */
const HANG_MS = 5_000;

let dir: ReturnType<typeof tempDir>;
let web: WebProcess & { port: number; token: string };
let files: Buffer[];

beforeAll(async () => {
  // the stand-in renderer this test process's browser mode serves (its own folder: see web-process)
  files = Object.values(STAND_IN_RENDERER).map((text) => Buffer.from(text));
  dir = tempDir();
  // a file beside the data that no path may reach
  writeFileSync(join(dir.path, 'canary.txt'), 'CANARY-not-for-the-web');
  web = await startWeb(dir.path);
}, 60_000);

afterAll(async () => {
  await web?.stop();
  dir?.remove();
  removeWebBuild();
});

interface Reply {
  bytes: Buffer;
  closed: boolean;
}

/**
 * Sends `bytes` and answers what came back before the server closed the socket (closed false: a
 * hang). Our side ends only after a pause: Node drops a request whose client half-closes before the
 * answer, so ending at once would hide every answer; a request still unfinished then meets its end.
 */
function exchange(bytes: Buffer): Promise<Reply> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const s = connect(web.port, '127.0.0.1');
    let settled = false;
    const done = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      s.destroy();
      resolve({ bytes: Buffer.concat(chunks), closed });
    };
    const timer = setTimeout(() => done(false), HANG_MS);
    s.on('data', (d) => chunks.push(d));
    s.on('error', () => done(true)); // a reset is that one connection closed
    s.on('close', () => done(true));
    s.on('connect', () => {
      s.write(bytes);
      setTimeout(() => s.end(), 250).unref();
    });
  });
}

// ── random requests ──────────────────────────────────────────────────────────────────────────

const bytesOf = (r: Rng, n: number) => Buffer.from(Array.from({ length: n }, () => r.int(256)));
const oddByte = (r: Rng) => String.fromCharCode(r.pick([0, 1, 8, 9, 10, 13, 0x7f, 0x80, 0xff, 0x3a, 0x20, 0x22, 0x5c, 0xe9]));

function randomPath(r: Rng): string {
  const plain = ['', 'index.html', 'assets', 'app.js', 'pages', 'blog', '..', '.', '%2e%2e', '%2E%2e%2f', '%2f', '%5c', '%C3%A9', 'bridge', '?', '#', ';', '~', 'canary.txt', 'sitedesk.db'];
  const broken = ['%00', '%', '%zz', '%E0%A4%A', '%C0%AE', '%ff', 'é', '..\\..'];
  const piece = () => (r.chance(0.15) ? r.pick(broken) : r.pick(plain));
  let p = '';
  for (let n = r.between(1, 6); n > 0; n--) p += `/${piece()}${r.chance(0.2) ? piece() : ''}`;
  switch (r.int(12)) {
    case 0:
      return `/${'a'.repeat(r.pick([300, 5_000, 20_000, 70_000]))}`;
    case 1:
      return r.pick(['*', '//[', 'http://[::1', `http://127.0.0.1:${web.port}/index.html`, 'http://evil.example/', '', ' ', '/\u0000', '/a b', '\\..\\..\\canary.txt']);
    case 2:
      return `${p}?token=${r.chance(0.5) ? web.token : '%E0%A4%A'}&x=${oddByte(r)}`;
    default:
      return p;
  }
}

function randomHeaders(r: Rng): string[] {
  const host = r.chance(0.85) ? r.pick([`127.0.0.1:${web.port}`, `localhost:${web.port}`]) : r.pick(['evil.example', '', `127.0.0.1:${web.port}\u0000`, `127.0.0.1:${web.port + 1}`]);
  const headers = r.chance(0.9) ? [`Host: ${host}`] : [];
  if (r.chance(0.1)) headers.push(`Host: other.example`); // a duplicate Host
  for (let n = r.int(r.chance(0.05) ? 300 : 4); n > 0; n--) {
    if (r.chance(0.75)) {
      headers.push(r.pick(['Accept: text/html', 'User-Agent: fuzz', 'Accept-Language: fr, en;q=0.5', 'Cookie: a=b', 'X-A: 1', 'Cache-Control: no-cache', 'Connection: keep-alive', 'Connection: close']));
      continue;
    }
    const name = r.pick(['X-A', 'Accept', 'Content-Length', 'Transfer-Encoding', 'Cookie', 'Origin', `X-${oddByte(r)}`, `Bad${oddByte(r)}Name`, '', ' Leading', 'X-Long']);
    const value = r.pick(['1', '0', '-1', '18446744073709551616', 'chunked', 'gzip, chunked', 'a'.repeat(r.pick([10, 9_000, 70_000])), `a${oddByte(r)}b`, '', ' ', 'é', `http://127.0.0.1:${web.port}`]);
    headers.push(`${name}: ${value}`);
  }
  return headers;
}

function randomUpgrade(r: Rng): string[] {
  return [
    `Upgrade: ${r.chance(0.8) ? 'websocket' : r.pick(['WebSocket', 'h2c', '', 'websocket, x'])}`,
    `Connection: ${r.chance(0.8) ? 'Upgrade' : r.pick(['upgrade, keep-alive', 'close', 'Upgrade\u0001'])}`,
    ...(r.chance(0.9) ? [`Sec-WebSocket-Version: ${r.chance(0.8) ? '13' : r.pick(['8', 'x', ''])}`] : []),
    ...(r.chance(0.9) ? [`Sec-WebSocket-Key: ${r.chance(0.8) ? 'dGhlIHNhbXBsZSBub25jZQ==' : r.pick(['short', '', 'é'.repeat(30)])}`] : []),
    ...(r.chance(0.9) ? [`Origin: ${r.chance(0.8) ? `http://127.0.0.1:${web.port}` : r.pick([`http://localhost:${web.port}`, 'http://evil.example', 'null', ''])}`] : []),
  ];
}

/** One random request (or random bytes), and what it is, for the failure message: a clean request with one part made odd, or none. */
function randomRequest(r: Rng): { what: string; bytes: Buffer } {
  const roll = r.int(20);
  if (roll === 0) return { what: 'random bytes', bytes: bytesOf(r, r.between(1, 4_000)) };
  if (roll === 1) return { what: 'a request line of random bytes', bytes: Buffer.concat([bytesOf(r, r.between(1, 200)), Buffer.from('\r\n\r\n')]) };
  const odd = r.pick(['none', 'path', 'path', 'path', 'headers', 'headers', 'method', 'version', 'line ends', 'body', 'upgrade', 'upgrade']);
  const method = odd === 'method' ? r.pick(['POST', 'PUT', 'DELETE', 'OPTIONS', 'CONNECT', 'get', 'G\u0000T', 'PRI', 'BREW', '']) : r.pick(['GET', 'GET', 'HEAD']);
  const version = odd === 'version' ? r.pick(['HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1 extra', '']) : 'HTTP/1.1';
  const token = r.chance(0.5) ? web.token : r.pick(['wrong', '', '%E0%A4%A', web.token.slice(1)]);
  const path =
    odd === 'upgrade' ? `/bridge?token=${token}${r.chance(0.2) ? '&retry=1' : ''}` : odd === 'path' ? randomPath(r) : r.pick(['/', '/index.html', '/assets/app.js', '/pages/blog', `/?token=${web.token}`]);
  const headers = odd === 'headers' ? randomHeaders(r) : [`Host: 127.0.0.1:${web.port}`, 'Accept: text/html', 'Connection: close'];
  const lines = [`${method} ${path} ${version}`.trimEnd(), ...headers, ...(odd === 'upgrade' ? randomUpgrade(r) : [])];
  const eol = odd === 'line ends' ? r.pick(['\n', '\r', '\n\r']) : '\r\n';
  // after an upgrade, random bytes where WebSocket frames belong
  const frames = () => Array.from({ length: r.between(1, 300) }, () => String.fromCharCode(r.int(256))).join('');
  const body = odd === 'body' ? r.pick(['abc', '5\r\nhello\r\n0\r\n\r\n', 'zz\r\n', '{"id":1}', 'x'.repeat(10_000)]) : odd === 'upgrade' && r.chance(0.4) ? frames() : '';
  const text = lines.join(eol) + eol + eol + body;
  return { what: `${method || '(no method)'} ${path.length > 80 ? `${path.slice(0, 60)}…(${path.length})` : JSON.stringify(path)} (odd: ${odd})`, bytes: Buffer.from(text, 'latin1') };
}

/** What is wrong with a reply, or null. */
function problemWith(reply: Reply): string | null {
  if (!reply.closed) return `neither answered nor closed within ${HANG_MS / 1000} s`;
  if (reply.bytes.length === 0) return null; // that one connection closed
  const text = reply.bytes.toString('latin1');
  if (!/^HTTP\/1\.1 \d{3} /.test(text)) return `not an HTTP response: ${JSON.stringify(text.slice(0, 80))}`;
  const head = text.indexOf('\r\n\r\n');
  if (head < 0) return `a response without the end of its headers: ${JSON.stringify(text.slice(0, 80))}`;
  const status = Number(text.slice(9, 12));
  if (status >= 500) return `answered ${status}`;
  if (status === 200) {
    // the body (chunked or not) holds a renderer file whole; after a HEAD, nothing or the next answer
    const rest = reply.bytes.subarray(head + 4);
    if (rest.length && !rest.toString('latin1').startsWith('HTTP/1.1 ') && !files.some((f) => rest.includes(f))) return `a 200 with a body that is no renderer file: ${JSON.stringify(rest.subarray(0, 60).toString())}`;
  }
  if (text.includes('CANARY')) return 'served a file from outside the renderer';
  return null;
}

async function pageLoads(): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${web.port}/`);
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(files[0]!)).toBe(true);
}

async function bridgeAnswers(): Promise<void> {
  const ws = await new Promise<WebSocket>((resolve, reject) => {
    const s = new WebSocket(`ws://127.0.0.1:${web.port}/bridge?token=${web.token}`, { origin: `http://127.0.0.1:${web.port}` });
    s.once('open', () => resolve(s));
    s.once('error', reject);
  });
  const answer = await new Promise<Record<string, unknown>>((resolve) => {
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as Record<string, unknown>;
      if (m.id === 1) resolve(m);
    });
    ws.send(JSON.stringify({ id: 1, channel: 'app.info', input: {} }));
  });
  ws.close();
  expect(answer).toMatchObject({ id: 1, ok: true, value: { shell: 'browser' } });
}

describe('fuzzing the browser-mode server', () => {
  test(`${CASES} random requests over raw sockets: never a 5xx, a hang or an exit`, async () => {
    await pageLoads();
    const r = rng(SEED);
    const started = Date.now();
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    const cases = Array.from({ length: CASES }, () => randomRequest(r.fork()));
    // a few sockets at a time, as a page's parallel loads come; each case stands alone, so the order they end in does not matter
    for (let from = 0; from < CASES; from += PARALLEL) {
      const batch = cases.slice(from, from + PARALLEL);
      const replies = await Promise.all(batch.map((c) => exchange(c.bytes)));
      replies.forEach((reply, k) => {
        const status = reply.bytes.length ? reply.bytes.toString('latin1', 9, 12) : 'closed';
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const problem = problemWith(reply);
        if (problem) failures.push(`case ${from + k} ${batch[k]!.what}: ${problem}`);
      });
      if (web.child.exitCode !== null || web.child.signalCode !== null) {
        failures.push(`cases ${from}–${from + PARALLEL - 1}: the process exited (${web.child.exitCode ?? web.child.signalCode})\n${web.output().slice(-2000)}`);
        break;
      }
      if (from % 200 === 0) await pageLoads();
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(
      [
        `browser-mode fuzz: FUZZ_SEED=${SEED} (repeat: FUZZ_SEED=${SEED} node scripts/keyring-session.mjs npx vitest run test/integration/fuzz-web.test.ts)`,
        `  ${CASES} requests in ${seconds.toFixed(1)} s; answers: ${[...statuses].sort().map(([s, n]) => `${s} ${n}`).join(', ')}`,
      ].join('\n'),
    );
    expect(failures, failures.slice(0, 20).join('\n')).toEqual([]);
    expect(web.child.exitCode).toBeNull();
    // nothing reached the server's last-resort handlers (a handler that threw, an error nobody caught, the Host restarted)
    expect(web.output()).not.toMatch(/failed:|escaped every handler|nothing handled it|server reported an error|background service/i);
    await pageLoads();
    await bridgeAnswers();
  }, 120_000);
});
