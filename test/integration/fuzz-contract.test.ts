/**
 * Fuzzing every contract channel (issue 13, "Fuzzing"): for each channel, inputs made from its
 * valibot schema (test/support/fuzz.ts), valid ones and ones mutated at a known path, sent to a real
 * Host (a SQLite file, a CMS and a store sandbox added as sites, so valid inputs reach real
 * handlers) through `host.invoke` and, for a share of them, as frames over browser mode's WebSocket
 * bridge; then random frames on the bridge itself. Zero crashes (no `internal`, no throw, no
 * unhandled rejection, no hang), every refusal `invalid_input` naming the mutated field, no
 * prototype touched, and the Host still answers afterwards.
 *
 * Seeded: the seed is printed; `FUZZ_SEED=<n>` repeats a run case for case (`FUZZ_SEED=random` tries
 * a new one). The sites' ids are the run's own, the rest follows from the seed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import * as v from 'valibot';
import { channels, isChannelName, type ChannelName, type ErrorInfo, type Result, type Site } from '../../electron/contract';
import { startWebServer, type WebServer } from '../../electron/web/server';
import { isRequestMessage } from '../../electron/contract/protocol';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { withHost, type DemoHost } from '../support/demo-host';
import { fuzzSeed, mutate, rng, unboundedPlaces, validInput, type Dictionary, type Mutated, namesMutation } from '../support/fuzz';

const SEED = fuzzSeed();
/** Cases per channel: 85 channels today make about 3,000 cases. */
const PER_CHANNEL = 36;
/** The run's own time limit grows with the contract (a case takes a few ms; each hang is caught per call): 40 ms a case, at least two minutes. */
const FUZZ_TIMEOUT_MS = Math.max(120_000, Object.keys(channels).length * PER_CHANNEL * 40);
/** A call answered later than this is a hang. */
const HANG_MS = 15_000;

let fx: DemoHost;
let store: StoreSandbox;
let storeSite: Site;
let web: WebServer;
let ws: WebSocket;
let frameId = 0;
const logs: { level: string; message: string }[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (err: unknown) => unhandled.push(err);
const protoKeys = () => [Object.getOwnPropertyNames(Object.prototype), Object.getOwnPropertyNames(Array.prototype), Object.getOwnPropertyNames(Function.prototype)].map((k) => k.sort().join());
let cleanProto: string[];

/** Values a field of that name takes on this Host: the real sites, routes that exist, languages. */
let routes: string[] = ['/'];
/** The channel being fuzzed: its site ids are mostly of its own kind, so valid inputs go past the kind check to the service. */
let current = '';
const siteIds = () => {
  const own = current.startsWith('store.') ? storeSite.id : current.startsWith('sites.') || current.startsWith('drafts.') || current.startsWith('search.') || current.startsWith('workspace.') ? null : fx.site.id;
  return own ? [own, own, own, own, own, own, own, own, own, fx.site.id === own ? storeSite.id : fx.site.id] : [fx.site.id, storeSite.id];
};
const dict: Dictionary = {
  siteId: siteIds,
  id: siteIds,
  ids: siteIds,
  tabs: siteIds,
  active: siteIds,
  split: siteIds,
  route: () => routes,
  routes: () => routes,
  parent: () => ['/', ...routes],
  childrenOf: () => ['/', ...routes],
  destination: () => routes.map((r) => `${r}-copy`),
  lang: () => ['en', 'fr', 'de'],
  source: () => ['en', 'fr'],
  target: () => ['fr', 'de'],
  sourceLang: () => ['en'],
  targetLang: () => ['fr'],
  baseUrl: () => [fx.cms.url, store.url, 'http://127.0.0.1:9/api'],
  username: () => ['admin', 'user1', 'fuzzer'],
  draftId: () => [1, 2, 3],
  itemId: () => [1, 2, 3],
  petId: () => [1, 2, 3, 10],
  orderId: () => [1, 2, 3],
  header: () => [{ title: 'Fuzzed' }, {}],
  // the audit copies' import and export files: inside the run's own folder, never elsewhere
  file: () => [join(fx.dir.path, 'fuzz-audit.csv'), join(fx.dir.path, 'fuzz-audit.json')],
};

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  store = await startStoreSandbox({});
  fx = await withHost({ host: { log: (level, message, extra) => logs.push({ level, message: `${message} ${level === "error" ? JSON.stringify(extra) : ""}` }) } });
  storeSite = await fx.call('sites.add', { name: 'Shop', kind: 'store', baseUrl: store.url, environment: null, authMode: 'apikey', apiKey: store.seeded!.keys.enterprise });
  const level = await fx.call('pages.level', { siteId: fx.site.id, route: '/' });
  routes = level.items.map((p) => p.route);
  expect(routes.length).toBeGreaterThan(0);
  const staticDir = join(fx.dir.path, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Sitedesk</title>');
  web = await startWebServer({ host: fx.host, staticDir });
  ws = await openBridge();
  cleanProto = protoKeys();
}, 60_000);

afterAll(async () => {
  ws?.close();
  await web?.close();
  await fx?.close();
  await store?.close();
  process.off('unhandledRejection', onUnhandled);
});

function openBridge(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${web.port}/bridge?token=${web.token}`, { origin: `http://127.0.0.1:${web.port}` });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends a frame and answers the Host's answer to `id` (null when none came within `ms`). */
function overBridge(frame: string, id: number | null, ms = HANG_MS): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(null), ms);
    const onMessage = (data: WebSocket.RawData) => {
      const m = JSON.parse(data.toString()) as Record<string, unknown>;
      if (id !== null && m.id === id) done(m);
    };
    const done = (m: Record<string, unknown> | null) => {
      clearTimeout(timer);
      ws.off('message', onMessage);
      resolve(m);
    };
    ws.on('message', onMessage);
    ws.send(frame);
    if (id === null) setTimeout(() => done(null), 0);
  });
}

/** Whether the input survives JSON as it is (no NaN, undefined or -0 a frame would change). */
const jsonFaithful = (input: unknown) => {
  try {
    return input === undefined || isDeepStrictEqual(JSON.parse(JSON.stringify(input)), input);
  } catch {
    return false; // nested past the comparison's stack: sent to the Host directly
  }
};

type Via = 'host' | 'bridge';

async function send(channel: string, input: unknown, via: Via): Promise<Result<unknown> | 'hang' | { threw: unknown }> {
  try {
    if (via === 'bridge') {
      const id = ++frameId;
      const m = await overBridge(JSON.stringify({ id, channel, input }), id);
      if (!m) return 'hang';
      const { id: _, ...result } = m;
      return result as Result<unknown>;
    }
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), HANG_MS)));
    const r = await Promise.race([fx.host.invoke(channel, input), hang]);
    clearTimeout(timer);
    return r;
  } catch (threw) {
    return { threw };
  }
}

const describeInput = (x: unknown) => {
  const s = (() => {
    try {
      return JSON.stringify(x, (_k, val) => (typeof val === 'string' && val.length > 80 ? `${val.slice(0, 40)}…(${val.length} chars)` : Number.isNaN(val) ? 'NaN' : val));
    } catch {
      return String(x);
    }
  })();
  return s && s.length > 400 ? `${s.slice(0, 400)}…` : s;
};

/**
 * What is wrong with an answer, or null. `refusedBy`: the mutation the channel's schema refuses
 * (the input is out of contract), or null for an input the contract takes (valid, or mutated in a
 * way it accepts: `..` in a text, a header key called `__proto__`), which may get a Result of
 * either kind, the Host's own refusals (a store's id on a CMS channel) included.
 */
function problemWith(answer: Awaited<ReturnType<typeof send>>, refusedBy: Mutated | null): string | null {
  if (answer === 'hang') return `no answer within ${HANG_MS / 1000} s`;
  if ('threw' in answer) return `the call threw: ${String(answer.threw)}`;
  if (typeof answer.ok !== 'boolean') return `not a Result: ${describeInput(answer)}`;
  if (answer.ok) return refusedBy ? `accepted an input its schema refuses (${refusedBy.kind})` : null;
  const e: ErrorInfo = answer.error;
  if (!e || typeof e.message !== 'string' || !e.message) return `an error without a message: ${describeInput(e)}`;
  if (e.code === 'internal') return `internal: ${e.message}`;
  for (const [field, text] of Object.entries(e.fields ?? {})) {
    if (typeof text !== 'string' || !text) return `field ${field.slice(0, 60)} has no message`;
    if (text.length > 500) return `field ${field.slice(0, 60)}'s message is ${text.length} characters long`;
  }
  if (!refusedBy) return null;
  if (e.code !== 'invalid_input') return `answered ${e.code} instead of invalid_input (${e.message})`;
  const names = Object.keys(e.fields ?? {});
  if (!names.length) return `a refusal without a field: ${e.message}`;
  if (!names.some((n) => namesMutation(n, refusedBy))) return `the refusal names ${names.map((n) => n.slice(0, 60)).join(', ')}, not ${refusedBy.path.join('.') || '_'} or its parent`;
  return null;
}

/** The demo sites as the run found them: a valid sites.update or sites.remove may change them; put them back so later cases reach real handlers. */
async function restoreSites(): Promise<void> {
  const sites = await fx.call('sites.list', {});
  const restore = async (site: Site, fields: { name: string; kind: 'cms' | 'store'; baseUrl: string; apiKey: string }) => {
    const now = sites.find((s) => s.id === site.id);
    if (!now) return fx.call('sites.add', { ...fields, environment: null, authMode: 'apikey' });
    if (now.baseUrl !== site.baseUrl || now.kind !== site.kind || now.environment !== null || now.authMode !== 'apikey' || !now.hasApiKey) {
      return fx.call('sites.update', { id: site.id, ...fields, environment: null, authMode: 'apikey' });
    }
    return now;
  };
  fx.site = await restore(fx.site, { name: 'Demo', kind: 'cms', baseUrl: fx.cms.url, apiKey: fx.cms.seeded!.adminApiKey! });
  storeSite = await restore(storeSite, { name: 'Shop', kind: 'store', baseUrl: store.url, apiKey: store.seeded!.keys.enterprise });
}

/** A random frame for the bridge: text that is not JSON, JSON that is not a request, requests with odd ids, channels and inputs. */
function randomFrame(r: ReturnType<typeof rng>, names: readonly string[]): string {
  const id = () => r.pick<unknown>([r.between(1, 1e6), 0, -1, 1.5, 2 ** 53, '7', null, [], {}, 1e308]);
  const channel = () => r.pick<unknown>([r.pick(names), r.pick(names), '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'x'.repeat(10_000), 'pages.', 42, null]);
  const input = () => r.pick<unknown>([{}, null, [], 'x', 0, { siteId: fx.site.id }, { __proto__: null, polluted: 1 }, JSON.parse('{"__proto__":{"polluted":"yes"}}')]);
  const request = () => JSON.stringify({ id: id(), channel: channel(), input: input() });
  switch (r.int(10)) {
    case 0:
      return Array.from({ length: r.between(0, 200) }, () => String.fromCharCode(r.int(0x10000))).join('');
    case 1:
      return request().slice(0, r.int(40)); // cut short
    case 2:
      return `${'['.repeat(r.pick([100, 10_000, 200_000]))}1${']'.repeat(r.chance(0.5) ? 0 : 100)}`;
    case 3:
      return `{"id":${r.between(1, 1e6)},"channel":"app.info","input":{},"id":"dup","__proto__":{"polluted":"yes"}}`;
    case 4:
      return `{"id":${r.between(1, 1e6)},"channel":"${r.pick(names)}","input":${r.pick(['1e999', '-1e999', '"\\ud800"', '{"a":"\\u0000"}', '[[[[[]]]]]'])}}`;
    case 5:
      return r.pick(['null', 'true', '0', '""', '[]', '{}', '"\\u0000"', '1e999']);
    default:
      return request();
  }
}

describe('the bounds the fuzzer relies on', () => {
  test('every string and list a channel takes has an upper bound (a very long list of pet statuses asked the store once per entry: 10,000 requests, no answer in 15 s)', () => {
    const unbounded = Object.entries(channels).flatMap(([name, c]) => unboundedPlaces(c.input as v.GenericSchema).map((at) => `${name}: ${at}`));
    expect(unbounded).toEqual([]);
  });
});

/** Cases the fuzzer found, kept as they were found (each failed before its fix); they run first, on the Host as set up. */
describe('what the fuzzer found', () => {
  test('an unknown key called constructor, __proto__ or toString is refused naming it (the field map lost inherited names: a refusal without a field)', async () => {
    for (const key of ['constructor', '__proto__', 'toString']) {
      const input = Object.defineProperty({ siteId: fx.site.id }, key, { value: { prototype: { polluted: 'yes' } }, enumerable: true });
      const r = await fx.host.invoke('auth.refreshMe', input);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error.code).toBe('invalid_input');
      expect(!r.ok && Object.hasOwn(r.error.fields ?? {}, key), key).toBe(true);
      const overWire = await overBridge(`{"id":${++frameId},"channel":"auth.refreshMe","input":{"siteId":"${fx.site.id}","${key}":1}}`, frameId);
      expect(Object.keys((overWire?.error as ErrorInfo).fields ?? {})).toEqual([key]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a refusal quotes at most a short piece of the value it refused (it quoted all 100,000 characters)', async () => {
    const r = await fx.host.invoke('drafts.discard', { draftId: 'x'.repeat(100_000) });
    expect(!r.ok && r.error.fields?.draftId).toMatch(/^Invalid type: Expected number but received "x{59}…$/);
    const key = await fx.host.invoke('app.info', { ['k'.repeat(100_000)]: 1 });
    expect(!r.ok && !key.ok && Object.values(key.error.fields ?? {})[0]!.length).toBeLessThan(200);
  });

  test('a list of pet statuses names each status at most once (10,000 of them asked the store 10,000 times and hung the call)', async () => {
    const started = Date.now();
    const r = await fx.host.invoke('store.pets.list', { siteId: storeSite.id, statuses: Array<string>(10_000).fill('sold') });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { statuses: 'Choose each status at most once.' } } });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await fx.host.invoke('store.pets.list', { siteId: storeSite.id, statuses: ['sold', 'sold'] })).toMatchObject({ ok: false, error: { fields: { statuses: expect.any(String) } } });
    expect(await fx.host.invoke('store.pets.list', { siteId: storeSite.id, statuses: ['sold', 'pending'] })).toMatchObject({ ok: true });
  });

  test('a lone surrogate is refused naming its field, wherever it is (a route with one answered internal: no URL can encode it)', async () => {
    const copy = { siteId: fx.site.id, route: '/archive/\ud800', title: 'T', content: 'c', header: { title: 'T' } };
    expect(await fx.host.invoke('pages.copyAsNew', copy)).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { route: expect.stringMatching(/broken character/) } } });
    const header = { siteId: fx.site.id, route: '/blog', title: 'T', content: 'c', header: { meta: { 'x\udc00': 1 } } };
    expect(await fx.host.invoke('drafts.save', header)).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { 'header.meta.x\udc00': expect.any(String) } } });
    const key = { name: 'K', kind: 'cms', baseUrl: fx.cms.url, environment: null, authMode: 'apikey', apiKey: 'abc\ud800defghijkl' };
    expect(await fx.host.invoke('sites.add', key)).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { apiKey: expect.any(String) } } });
    // a pair is a character like any other
    const route = `/pair-${Date.now()}`;
    await fx.call('pages.create', { siteId: fx.site.id, route, title: 'Pair 😀' });
    await fx.call('pages.open', { siteId: fx.site.id, route });
    expect(await fx.host.invoke('drafts.save', { ...header, route, header: { title: '😀' } })).toMatchObject({ ok: true });
  });
});

describe('fuzzing the contract channels', () => {
  test(`${PER_CHANNEL} cases per channel, valid and mutated, through the Host and the bridge`, async () => {
    const started = Date.now();
    const master = rng(SEED);
    const names = Object.keys(channels) as ChannelName[];
    const schedule = master.shuffle(names.flatMap((n) => Array<ChannelName>(PER_CHANNEL).fill(n)));
    const perChannel = new Map<string, number>();
    const tally = { valid: 0, mutated: 0, bridge: 0, refused: 0, accepted: 0, otherErrors: 0 };
    const kinds = new Map<string, number>();
    const failures: string[] = [];

    for (const [i, channel] of schedule.entries()) {
      const r = master.fork(); // one generator per case: a case is the same whatever the Host answered before it
      current = channel;
      const schema = channels[channel].input as v.GenericSchema;
      let input: unknown;
      let m: Mutated | null = null;
      try {
        input = validInput(schema, r, dict);
        if (r.chance(0.75)) {
          m = mutate(schema, input, r, dict);
          input = m.input;
        }
      } catch (err) {
        failures.push(`case ${i} ${channel}: ${(err as Error).message}`);
        continue;
      }
      if (m?.mustRefuse && v.is(schema, input)) {
        failures.push(`case ${i} ${channel}: the generator's ${m.kind} at ${m.path.join('.')} is valid after all (a fault in test/support/fuzz.ts)`);
        continue;
      }
      if (!m && !v.is(schema, input)) {
        failures.push(`case ${i} ${channel}: the generator's valid input is not (a fault in test/support/fuzz.ts): ${describeInput(input)}`);
        continue;
      }
      const via: Via = jsonFaithful(input) && r.chance(0.3) ? 'bridge' : 'host';
      const answer = await send(channel, input, via);
      perChannel.set(channel, (perChannel.get(channel) ?? 0) + 1);
      tally[m ? 'mutated' : 'valid']++;
      if (via === 'bridge') tally.bridge++;
      if (m) kinds.set(m.kind, (kinds.get(m.kind) ?? 0) + 1);
      if (answer !== 'hang' && !('threw' in answer)) {
        if (answer.ok) tally.accepted++;
        else if (answer.error?.code === 'invalid_input') tally.refused++;
        else tally.otherErrors++;
      }
      const problem = problemWith(answer, m && !v.is(schema, input) ? m : null);
      if (problem) failures.push(`case ${i} ${channel} via ${via}${m ? ` (${m.kind} at ${m.path.join('.') || '_'})` : ' (valid)'}: ${problem}\n    input: ${describeInput(input)}`);
      if (({} as Record<string, unknown>).polluted !== undefined || !isDeepStrictEqual(protoKeys(), cleanProto)) {
        failures.push(`case ${i} ${channel}: a prototype was touched`);
        break;
      }
      if (channel === 'sites.update' || channel === 'sites.remove') await restoreSites();
    }

    const seconds = (Date.now() - started) / 1000;
    const counts = [...perChannel.values()];
    console.log(
      [
        `contract fuzz: FUZZ_SEED=${SEED} (repeat: FUZZ_SEED=${SEED} node scripts/keyring-session.mjs npx vitest run test/integration/fuzz-contract.test.ts)`,
        `  ${schedule.length} cases over ${names.length} channels (${Math.min(...counts)}–${Math.max(...counts)} each) in ${seconds.toFixed(1)} s`,
        `  ${tally.valid} valid, ${tally.mutated} mutated, ${tally.bridge} over the bridge; answers: ${tally.accepted} ok, ${tally.refused} invalid_input, ${tally.otherErrors} other errors`,
        `  mutations: ${[...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`,
      ].join('\n'),
    );
    expect(failures, failures.slice(0, 30).join('\n')).toEqual([]);
    expect(perChannel.size).toBe(names.length);
    expect(counts.every((n) => n === PER_CHANNEL)).toBe(true);
    expect(schedule.length).toBeGreaterThanOrEqual(2000);
    expect(unhandled).toEqual([]);
    expect(logs.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([]);
    expect(await fx.host.invoke('app.info', {})).toMatchObject({ ok: true });
    expect(await overBridge(JSON.stringify({ id: ++frameId, channel: 'app.info', input: {} }), frameId)).toMatchObject({ ok: true });
  }, FUZZ_TIMEOUT_MS);
});

describe('fuzzing the bridge with raw frames', () => {
  test('600 random frames: requests are answered and never internal, the rest are ignored, the socket stays open', async () => {
    const r = rng(SEED ^ 0x5eed);
    const names = Object.keys(channels);
    const started = Date.now();
    let answered = 0;
    const failures: string[] = [];
    for (let i = 0; i < 600; i++) {
      const frame = randomFrame(r, names);
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(frame);
      } catch {
        // not JSON: ignored by the bridge
      }
      const request = isRequestMessage(parsed) ? parsed : null;
      const answer = await overBridge(frame, request ? request.id : null, 5_000);
      if (!request) continue;
      answered++;
      const problem = answer ? problemWith({ ...(answer as object) } as Result<unknown>, null) : 'no answer within 5 s';
      if (problem) failures.push(`frame ${i}: ${problem}\n    frame: ${describeInput(frame)}`);
      else if (!isChannelName(request.channel) && (answer!.error as ErrorInfo | undefined)?.code !== 'unknown_channel') failures.push(`frame ${i}: an unknown channel answered ${describeInput(answer)}`);
      if (({} as Record<string, unknown>).polluted !== undefined) failures.push(`frame ${i}: a prototype was touched`);
    }
    console.log(`bridge frames: FUZZ_SEED=${SEED}, 600 frames (${answered} requests) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(failures, failures.slice(0, 20).join('\n')).toEqual([]);
    expect(answered).toBeGreaterThan(100);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect(await overBridge(JSON.stringify({ id: ++frameId, channel: 'app.info', input: {} }), frameId)).toMatchObject({ ok: true });
    expect(unhandled).toEqual([]);
  }, 60_000);
});
