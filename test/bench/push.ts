/**
 * Push 1,000 drafts: edits saved locally (drafts.save), then one sync.push replays the outbox
 * against the CMS sandbox (in its own process): PATCH with If-Match and a fresh read per page,
 * each step its own transaction. Prints drafts per second of the push (and of the local saves).
 * Usage: npm run bench -- push [DRAFTS]
 */
import { benchHost } from './support/mirror-host';
import { withSandbox } from './support/figures';

const DRAFTS = Number(process.argv[2] ?? 1000);

await withSandbox(DRAFTS, async (sandbox) => {
  const bench = await benchHost(sandbox);
  const { call, site } = bench;
  await bench.mirror(); // the drafts' bases come from the cache
  const routes: string[] = [];
  for (let page = 1; routes.length < DRAFTS; page++) {
    const r = await call('pages.list', { siteId: site.id, sort: 'default', perPage: 100, page });
    routes.push(...r.items.map((p) => p.route));
    if (r.items.length === 0) break;
  }
  const t0 = performance.now();
  for (const [i, route] of routes.slice(0, DRAFTS).entries()) {
    const page = await call('pages.get', { siteId: site.id, route });
    await call('drafts.save', { siteId: site.id, route, title: page.title, header: page.header, content: `${page.content}\nEdited offline, draft ${i}.\n` });
  }
  const saveMs = performance.now() - t0;
  const t1 = performance.now();
  const r = await call('sync.push', { siteId: site.id });
  const pushMs = performance.now() - t1;
  const left = (await call('sync.status', {})).find((s) => s.siteId === site.id)!;
  await bench.close();
  const n = routes.length;
  console.log(`drafts: ${n} (one per page of a ${sandbox.pages}-page site), saved locally in ${(saveMs / 1000).toFixed(2)} s (${(n / (saveMs / 1000)).toFixed(0)}/s, each with a read of its page)`);
  console.log(`push: ${(pushMs / 1000).toFixed(2)} s → ${(r.pushed / (pushMs / 1000)).toFixed(0)} drafts/s (pushed ${r.pushed}, conflicted ${r.conflicted}, rejected ${r.rejected}, remaining ${left.pending})`);
  console.log(JSON.stringify({ bench: 'push', drafts: n, pushed: r.pushed, push_s: +(pushMs / 1000).toFixed(2), drafts_per_s: Math.round(r.pushed / (pushMs / 1000)) }));
});
