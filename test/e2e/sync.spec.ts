/**
 * Issue 5 end to end, the renderer side of sync: browser mode in Debian's Chromium against an
 * in-process CMS sandbox with the demo site. Drafts are made through the bridge (`drafts.save`, as
 * the editor does), the other side's edits go through the sandbox's own HTTP API, "offline" is the
 * sandbox dropping every connection (fault injection). What the UI claims is checked on the site.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { bridge, openArea, saveDraft, siteButton, useDemoSite, type SitePage } from './support/app';

const demo = useDemoSite('sitedesk-sync-e2e-');

/** The sandbox's own API, as another editor (or another app) uses it. */
async function onSite(method: 'GET' | 'PATCH', route: string, body?: unknown): Promise<SitePage> {
  const res = await fetch(`${demo.cms.url}/pages${route}`, {
    method,
    headers: { 'X-API-Key': demo.cms.seeded!.adminApiKey!, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.status, `${method} ${route}`).toBe(200);
  return ((await res.json()) as { data: SitePage }).data;
}

/** An edit of the demo site saved locally (see saveDraft). */
const draft = (page: Page, route: string, edit: (p: SitePage) => Partial<SitePage>) => saveDraft(page, demo.siteId, route, edit);

async function openChanges(page: Page): Promise<Locator> {
  const pane = await openArea(page, 'Demo', 'Changes');
  await expect(pane.getByRole('heading', { name: 'Changes', level: 2 })).toBeVisible();
  return pane;
}

const L = (...xs: string[]) => xs.join('\n');
const BASE = L('# History', '', 'We started in 1998.', 'The first shop was small.', '', 'Then we grew.', 'Now we are many.', '', 'Thanks for reading.');

test('a conflict: pushed, shown in Changes, resolved per hunk and by hand, then on the site', async ({ page }) => {
  await demo.connect(page);
  await onSite('PATCH', '/about/history', { content: BASE, header: { menu: 'History' } });
  await draft(page, '/about/history', (p) => ({
    content: p.content.replace('We started in 1998.', 'We started in 1998, in a garage.').replace('Now we are many.', 'Now we are forty.'),
    header: { ...p.header, menu: 'Our story' },
  }));
  const row = siteButton(page, 'Demo');
  await expect(row).toHaveAccessibleDescription(/1 unsynced change$/);

  // meanwhile someone changes the same lines (and the same header field) on the site
  await onSite('PATCH', '/about/history', {
    content: BASE.replace('We started in 1998.', 'We started in 1999.').replace('Now we are many.', 'Now we are a team of 40.'),
    header: { menu: 'Story' },
  });

  const pane = await openChanges(page);
  const item = pane.getByRole('listitem', { name: 'History' });
  await expect(item).toContainText('Waiting to be pushed');
  await expect(item).toContainText('/about/history');

  // review: base against mine
  await item.getByRole('button', { name: 'Review History' }).click();
  await expect(item.getByRole('button', { name: 'Review History' })).toHaveAttribute('aria-expanded', 'true');
  const text = item.getByRole('region', { name: 'Text' });
  await expect(text.getByRole('group', { name: 'Text: Yours' })).toContainText('in a garage');
  await expect(text.getByRole('group', { name: 'Text: On the site when you started' })).toContainText('We started in 1998.');
  await expect(item.getByRole('definition').filter({ hasText: 'Our story' })).toBeVisible();

  // push: the site has other text on the same lines, so it waits for a person
  await pane.getByRole('button', { name: 'Push now' }).click();
  const result = pane.getByRole('alert', { name: 'Push result' });
  await expect(result).toContainText('1 conflict');
  await expect(item).toContainText('Conflict: changed on the site too');
  await expect(row).toHaveAccessibleDescription(/1 unsynced change, 1 conflict$/);
  await expect(page.getByRole('contentinfo', { name: 'Status bar' })).toContainText('1 unsynced change · 1 conflict');
  expect((await onSite('GET', '/about/history')).content).toContain('We started in 1999.'); // theirs untouched

  // the merge view; closing it after choices were made asks first, and the conflict stays
  await item.getByRole('button', { name: 'Resolve… History' }).click();
  const merge = pane.getByRole('region', { name: 'Resolve conflict: History' });
  await expect(merge.getByRole('heading', { name: 'Resolve conflict: History' })).toBeFocused();
  const first = merge.getByRole('radiogroup', { name: 'Conflict 1 of 2' });
  const second = merge.getByRole('radiogroup', { name: 'Conflict 2 of 2' });
  await first.getByRole('radio', { name: 'Theirs', exact: true }).check();
  await merge.getByRole('button', { name: 'Cancel' }).click();
  const leave = page.getByRole('alertdialog', { name: 'Close without resolving?' });
  await leave.getByRole('button', { name: 'Keep merging' }).click();
  await expect(leave).toBeHidden();
  await expect(first.getByRole('radio', { name: 'Theirs', exact: true })).toBeChecked();
  await merge.getByRole('button', { name: 'Close merge view' }).click();
  await leave.getByRole('button', { name: 'Close merge view' }).click();
  await expect(merge).toBeHidden();
  await expect(item.getByRole('button', { name: 'Resolve… History' })).toBeFocused();
  await expect(item).toContainText('Conflict: changed on the site too');
  await item.getByRole('button', { name: 'Resolve… History' }).click();
  await expect(merge.getByRole('group', { name: 'Conflict 1: Base' })).toContainText('We started in 1998.');
  await expect(merge.getByRole('group', { name: 'Conflict 1: Mine' })).toContainText('in a garage');
  await expect(merge.getByRole('group', { name: 'Conflict 1: Theirs' })).toContainText('We started in 1999.');
  // unchanged text between the conflicts is shown as context
  await expect(merge.getByRole('listitem', { name: /^Unchanged text/ }).filter({ hasText: 'The first shop was small.' })).toBeVisible();
  await expect(first.getByRole('radio', { name: 'Mine', exact: true })).toBeChecked();
  const result$ = merge.getByRole('textbox', { name: 'Merged text' });
  await expect(result$).toContainText('in a garage');

  // keyboard: the arrow keys move within a hunk's choices
  await first.getByRole('radio', { name: 'Mine', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(first.getByRole('radio', { name: 'Theirs', exact: true })).toBeChecked();
  await second.getByRole('radio', { name: 'Both (mine then theirs)', exact: true }).check();
  await expect(result$).toContainText('We started in 1999.');
  await expect(result$).toContainText('Now we are forty.');
  await expect(result$).toContainText('Now we are a team of 40.');
  // the header field: its values side by side, theirs chosen
  const menu = merge.getByRole('radiogroup', { name: 'Header field menu' });
  await expect(menu.getByRole('radio', { name: /^Mine/ })).toHaveAccessibleName('Mine Our story');
  await menu.getByRole('radio', { name: /^Theirs/ }).check();

  // free editing; a later choice waits until the person starts again from the choices
  await result$.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nEdited by hand.');
  await expect(result$).toContainText('Edited by hand.');
  await first.getByRole('radio', { name: 'Base', exact: true }).check();
  await expect(merge.getByText('You edited the result by hand, so your latest choices are not in it yet.')).toBeVisible();
  await expect(result$).toContainText('We started in 1999.');
  await merge.getByRole('button', { name: /^Start again from the choices/ }).click();
  await expect(result$).toContainText('We started in 1998.');
  await expect(result$).not.toContainText('Edited by hand.');
  await first.getByRole('radio', { name: 'Theirs', exact: true }).check();
  await result$.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nEdited by hand.');
  await merge.getByLabel('Title', { exact: true }).fill('History, merged');

  await merge.getByRole('button', { name: 'Resolve and push' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Resolved and pushed /about/history');
  await expect(merge).toBeHidden();
  await expect(pane.getByRole('heading', { name: 'Everything is on the site' })).toBeVisible();
  await expect(row).toHaveAccessibleDescription(/signed in$/);

  const onServer = await onSite('GET', '/about/history');
  expect(onServer.content).toBe(
    // "Both" puts the two sides in as separate paragraphs, never glued into one
    L('# History', '', 'We started in 1999.', 'The first shop was small.', '', 'Then we grew.', 'Now we are forty.', '', 'Now we are a team of 40.', '', 'Thanks for reading.', 'Edited by hand.'),
  );
  expect(onServer.title).toBe('History, merged');
  expect(onServer.header.menu).toBe('Story');
});

test('a header key holding a dot and a nested key of the same text are two fields, each resolved as chosen', async ({ page }) => {
  await demo.connect(page);
  await onSite('PATCH', '/about/history', { header: { 'og.title': 'Base', og: { title: 'Base nested' } } });
  await draft(page, '/about/history', (p) => ({ header: { ...p.header, 'og.title': 'Mine', og: { title: 'Mine nested' } } }));
  await onSite('PATCH', '/about/history', { header: { 'og.title': 'Theirs', og: { title: 'Theirs nested' } } });

  const pane = await openChanges(page);
  const item = pane.getByRole('listitem', { name: 'History' });
  await pane.getByRole('button', { name: 'Push now' }).click();
  await expect(item).toContainText('Conflict: changed on the site too');
  await item.getByRole('button', { name: 'Resolve… History' }).click();
  const merge = pane.getByRole('region', { name: 'Resolve conflict: History' });
  const dotted = merge.getByRole('radiogroup', { name: 'Header field og.title', exact: true });
  const nested = merge.getByRole('radiogroup', { name: 'Header field og › title', exact: true });
  await expect(dotted.getByRole('radio', { name: /^Theirs/ })).toHaveAccessibleName('Theirs Theirs');
  await expect(nested.getByRole('radio', { name: /^Theirs/ })).toHaveAccessibleName('Theirs Theirs nested');
  await dotted.getByRole('radio', { name: /^Theirs/ }).check();
  await expect(nested.getByRole('radio', { name: /^Mine/ })).toBeChecked();

  await merge.getByRole('button', { name: 'Resolve and push' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Resolved and pushed /about/history');
  const header = (await onSite('GET', '/about/history')).header as Record<string, unknown>;
  expect(header['og.title']).toBe('Theirs');
  expect(header.og).toEqual({ title: 'Mine nested' });
});

test('offline: the push says so, the rail and status bar show it, a change is discarded, back online it syncs', async ({ page }) => {
  await demo.connect(page);
  await draft(page, '/about/history', () => ({ content: 'Written on a train.\n' }));
  await draft(page, '/about/press', (p) => ({ title: 'Press corner', content: `${p.content}\nMore press.\n` }));
  const row = siteButton(page, 'Demo');
  await expect(row).toHaveAccessibleDescription(/2 unsynced changes$/);
  const status = page.getByRole('contentinfo', { name: 'Status bar' });

  const pane = await openChanges(page);
  await expect(pane.getByRole('status').filter({ hasText: '2 unsynced changes' })).toBeVisible();
  await expect(pane.getByRole('listitem')).toHaveCount(2);

  // the site stops answering (every connection dropped)
  demo.cms.faults.set({ route: '*', drop: true });
  await pane.getByRole('button', { name: 'Push now' }).click();
  const result = pane.getByRole('alert', { name: 'Push result' });
  await expect(result).toContainText('the site could not be reached');
  await expect(result).toContainText('Nothing is lost; the changes wait here.');
  await expect(row).toHaveAccessibleDescription(/offline, 2 unsynced changes$/);
  await expect(status).toContainText('Offline · 2 unsynced changes');
  const history = pane.getByRole('listitem', { name: 'History' });
  await expect(history).toContainText('Not sent: will try again');
  await expect(history.getByRole('definition').filter({ hasText: /^1$/ })).toBeVisible(); // one attempt
  await expect(history).toContainText('Next try');
  await expect(history).toContainText('Last error');

  // discard one: the confirm says the local text is lost
  const press = pane.getByRole('listitem', { name: 'Press corner' });
  await press.getByRole('button', { name: 'Discard… Press corner' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Discard this change?' });
  await expect(confirm).toContainText('Your local text of “Press corner” (/about/press) is deleted and cannot be brought back.');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Discard change' }).click();
  await expect(confirm).toBeHidden();
  await expect(press).toHaveCount(0);
  await expect(pane.getByRole('heading', { name: /^Not on the site yet/ })).toBeFocused();
  await expect(row).toHaveAccessibleDescription(/offline, 1 unsynced change$/);
  expect(await bridge<unknown[]>(page, 'drafts.list', { siteId: demo.siteId })).toHaveLength(1);

  // "Sync now" in the status bar, once the backoff has passed, while the site is still away
  await expect(history).toContainText('with the next push', { timeout: 15_000 });
  const toasts = page.getByRole('region', { name: 'Notifications' });
  await status.getByRole('button', { name: 'Sync now' }).click();
  await expect(toasts).toContainText('Demo: sync stopped');
  await expect(history.getByRole('definition').filter({ hasText: /^2$/ })).toBeVisible(); // a second attempt

  // back online: it goes out (by itself when the Host's auto-sync sees the site again, else with Push now)
  demo.cms.faults.clear();
  await expect(async () => {
    if ((await history.count()) > 0) await pane.getByRole('button', { name: 'Push now' }).click({ timeout: 1000 });
    await expect(pane.getByRole('heading', { name: 'Everything is on the site' })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(status).toContainText('All changes on the site');
  await expect(row).toHaveAccessibleDescription(/signed in$/);
  expect((await onSite('GET', '/about/history')).content).toBe('Written on a train.\n');
  expect((await onSite('GET', '/about/press')).title).toBe('Press');
});
