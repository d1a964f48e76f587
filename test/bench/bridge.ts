/**
 * What the browser-mode bridge costs: the same contract call (`sites.list` over 100 sites) made
 * straight on the Host and over the loopback WebSocket, in one run. Ratio = bridge / direct.
 */
import WebSocket from 'ws';
import { createHost } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import { startWebServer } from '../../electron/web/server';
import { tempDir } from '../support/tmp';
import { percentile as pct } from './support/figures';

const N = Number(process.argv[2] ?? 3000);

const dir = tempDir('sitedesk-bench-');
const host = await createHost({ dataDir: dir.path, shell: 'browser', version: 'bench', secrets: new MemorySecretStore(), log: () => {} });
for (let i = 0; i < 100; i++) {
  const r = await host.invoke('sites.add', { name: `Site ${i}`, kind: i % 2 ? 'store' : 'cms', baseUrl: `https://s${i}.example.com`, environment: null, authMode: 'password' });
  if (!r.ok) throw new Error(r.error.message);
}
const web = await startWebServer({ host, staticDir: dir.path });

// direct
const direct: number[] = [];
for (let i = 0; i < N; i++) {
  const t = performance.now();
  await host.invoke('sites.list', {});
  direct.push(performance.now() - t);
}

// bridge
const ws = new WebSocket(`ws://127.0.0.1:${web.port}/bridge?token=${web.token}`, { origin: `http://127.0.0.1:${web.port}` });
await new Promise((r) => ws.once('open', r));
const waiting = new Map<number, () => void>();
ws.on('message', (d) => {
  const m = JSON.parse(d.toString());
  waiting.get(m.id)?.();
  waiting.delete(m.id);
});
const bridge: number[] = [];
const wallStart = performance.now();
for (let i = 0; i < N; i++) {
  const t = performance.now();
  await new Promise<void>((resolve) => {
    waiting.set(i, resolve);
    ws.send(JSON.stringify({ id: i, channel: 'sites.list', input: {} }));
  });
  bridge.push(performance.now() - t);
}
const wall = performance.now() - wallStart;
ws.close();
await web.close();
await host.close();
dir.remove();

const f = (x: number) => x.toFixed(3);
console.log(`calls: ${N} × sites.list (100 sites)`);
console.log(`direct  p50 ${f(pct(direct, 50))} ms  p95 ${f(pct(direct, 95))} ms`);
console.log(`bridge  p50 ${f(pct(bridge, 50))} ms  p95 ${f(pct(bridge, 95))} ms  (${Math.round(N / (wall / 1000))} calls/s)`);
const ratio = pct(bridge, 50) / pct(direct, 50);
console.log(`bridge/direct p50 ratio: ${ratio.toFixed(2)}`);
console.log(
  JSON.stringify({
    bench: 'bridge',
    calls: N,
    direct_p50_ms: +f(pct(direct, 50)),
    bridge_p50_ms: +f(pct(bridge, 50)),
    bridge_p95_ms: +f(pct(bridge, 95)),
    calls_per_s: Math.round(N / (wall / 1000)),
    ratio_to_direct: +ratio.toFixed(2),
  }),
);
