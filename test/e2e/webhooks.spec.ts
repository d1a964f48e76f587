/**
 * Issue 16 end to end, webhooks: a webhook made in the Webhooks area (its full secret shown once),
 * then a page saved in the editor reaches a receiver on loopback signed with that secret (spec
 * `X-Hub-Signature-256`, real `X-Grav-Signature`; the real flavour reaches loopback through the
 * sandbox's `webhookPrivateTargets`, as the real service would a public address); a test the
 * receiver fails read as its delivery (the site's 502) with the receiver's status, the failed ones
 * first; an edit after a change behind the app's back answered with what changed and applied again
 * on top; delete with its confirm.
 */
import { expect, test, type Page } from '@playwright/test';
import { bridge, flavorOf, markdown, openArea, openInEditor, switchArea, UNHURRIED, useDemoSite } from './support/app';
import { signatureOf, signed, startReceiver, type Receiver } from '../support/webhook-receiver';

const demo = useDemoSite('sitedesk-webhooks-e2e-', { webhookPrivateTargets: true, ...UNHURRIED });

let rx: Receiver;
test.beforeEach(async () => {
  rx = await startReceiver();
});
test.afterEach(async () => {
  await rx?.close();
});

/** The sandbox's API as the admin, past the app (a change behind its back). */
async function behindTheBack(method: string, path: string, body?: unknown): Promise<void> {
  const r = await fetch(`${demo.cms.url}${path}`, { method, headers: { 'X-API-Key': demo.cms.seeded!.adminApiKey!, 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  expect(r.ok, await r.text()).toBe(true);
}

const detail = (page: Page) => page.getByRole('region', { name: /^http:\/\/127\.0\.0\.1/ });

test('a webhook made here: its secret shown once; a page saved in the editor arrives signed with it', async ({ page }, info) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Webhooks');
  await expect(pane.getByRole('heading', { name: 'No webhooks' })).toBeVisible();
  await pane.getByRole('button', { name: 'New webhook…' }).first().click();

  const dialog = page.getByRole('dialog', { name: 'New webhook' });
  await dialog.getByRole('button', { name: 'Make webhook' }).click();
  await expect(dialog.getByText('Enter the address the site should send to.')).toBeVisible();
  await dialog.getByLabel('Address').fill(rx.url);
  await dialog.getByRole('radio', { name: 'Chosen events' }).check();
  await expect(dialog.getByRole('checkbox', { name: 'A page is saved' })).toBeChecked();
  await dialog.getByRole('checkbox', { name: 'A page is created' }).uncheck();
  await dialog.getByRole('checkbox', { name: 'A page is deleted' }).uncheck();
  await dialog.getByRole('button', { name: 'Make webhook' }).click();

  const made = page.getByRole('dialog', { name: 'Webhook made' });
  const secretBox = made.getByRole('region', { name: 'The new webhook’s secret' });
  const secret = (await secretBox.getByLabel('Secret').textContent())!.trim();
  expect(secret.length).toBeGreaterThanOrEqual(16);
  await secretBox.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Copied the secret')).toBeVisible();
  await made.getByRole('button', { name: 'Done' }).click();
  await expect(made).toHaveCount(0);

  // from now on the secret is shown as the site shows it: redacted
  await expect(detail(page).getByText(`${secret.slice(0, 6)}${'*'.repeat(secret.length - 10)}${secret.slice(-4)}`)).toBeVisible();
  await expect(page.getByText(secret, { exact: true })).toHaveCount(0);
  await expect(detail(page).getByText('A page is saved', { exact: true })).toBeVisible();
  await expect(detail(page).getByText('No deliveries yet.')).toBeVisible();

  // a page saved in the editor
  await switchArea(pane, 'Demo', 'Pages');
  const editor = await openInEditor(pane, 'About', 'History');
  await markdown(editor).press('Control+End');
  await markdown(editor).pressSequentially(' Sent to a webhook.');
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();
  await demo.cms.webhooks.settled();
  expect(rx.got).toHaveLength(1);
  const got = rx.got[0]!;
  expect(got.json.event).toBe('page.updated');
  // the header each flavour signs with, and the signature checks out with the secret shown once
  expect(got.headers[flavorOf(info) === 'real' ? 'x-grav-signature' : 'x-hub-signature-256']).toEqual(expect.any(String));
  expect(signatureOf(got)).toMatch(/^[0-9a-f]{64}$/);
  expect(signed(got, secret)).toBe(true);

  // and the delivery is in the webhook's history
  await switchArea(pane, 'Demo', 'Webhooks');
  const table = detail(page).getByRole('table', { name: `Deliveries to ${rx.url}` });
  await expect(table.getByRole('row').nth(1)).toContainText('A page is saved');
  await expect(table.getByRole('row').nth(1)).toContainText('Delivered');
  await expect(table.getByRole('row').nth(1)).toContainText('200');
});

test('a failed test read as its 502 with the receiver’s status; an edit after a change on the site; delete with confirm', async ({ page }) => {
  await demo.connect(page);
  const made = await bridge<{ hook: { id: string } }>(page, 'webhooks.create', { siteId: demo.siteId, url: rx.url, events: ['*'] });
  const pane = await openArea(page, 'Demo', 'Webhooks');
  const card = detail(page);
  await expect(card.getByRole('heading', { name: rx.url })).toBeVisible();

  // the receiver refuses: the site answers the test with 502 and the delivery
  rx.status = 500;
  await card.getByRole('button', { name: 'Send test' }).click();
  const last = card.getByRole('status', { name: 'Last test' });
  await expect(last).toContainText('Test not delivered: the receiver answered HTTP 500');
  await expect(last).toContainText('The site answered the test with HTTP 502.');
  rx.status = 200;
  await card.getByRole('button', { name: 'Send test' }).click();
  await expect(last).toContainText('Test delivered');
  const table = card.getByRole('table', { name: `Deliveries to ${rx.url}` });
  await expect(table.getByRole('row')).toHaveCount(3);
  // failed first (the default), then only the failed ones
  await expect(table.getByRole('row').nth(1)).toContainText('Failed');
  await expect(table.getByRole('row').nth(1)).toContainText('500');
  await card.getByRole('radio', { name: 'Newest first' }).click();
  await expect(table.getByRole('row').nth(1)).toContainText('Delivered');
  await card.getByRole('radio', { name: 'Failed only' }).click();
  await expect(table.getByRole('row')).toHaveCount(2);

  // an edit while someone changes the hook on the site
  await card.getByRole('button', { name: 'Edit…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit webhook' });
  await expect(dialog.getByLabel('Address')).toHaveValue(rx.url);
  await behindTheBack('PATCH', `/webhooks/${made.hook.id}`, { events: ['page.deleted'] });
  await dialog.getByLabel('Address').fill(`${rx.url}?v=2`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('This webhook was changed on the site since you opened it.')).toBeVisible();
  const changed = dialog.getByRole('table', { name: 'What changed on the site' });
  await expect(changed.getByRole('row', { name: /events/ })).toContainText('A page is deleted');
  await expect(dialog.getByText(`address: ${rx.url}?v=2`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Apply my edit again' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Your edit is on the site, over what changed there.')).toBeVisible();
  // both: the site's events and the person's address
  const edited = page.getByRole('region', { name: `${rx.url}?v=2` });
  await expect(edited.getByText('A page is deleted', { exact: true })).toBeVisible();
  expect(demo.cms.webhooks.get(made.hook.id)).toMatchObject({ url: `${rx.url}?v=2`, events: ['page.deleted'] });

  // off, then delete with its confirm
  await edited.getByRole('switch', { name: 'Enabled' }).click();
  await expect(edited.getByRole('switch', { name: 'Enabled' })).toHaveAttribute('aria-checked', 'false');
  expect(demo.cms.webhooks.get(made.hook.id)?.enabled).toBe(false);
  await edited.getByRole('button', { name: 'Delete…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this webhook?' });
  await expect(confirm).toContainText('its delivery history is deleted with it');
  await confirm.getByRole('button', { name: 'Delete webhook' }).click();
  await expect(pane.getByRole('heading', { name: 'No webhooks' })).toBeVisible();
  // focus is not lost with the deleted hook: it is on the area's empty panel
  await expect(page.locator(':focus')).toContainText('No webhooks');
  expect(demo.cms.webhooks.list()).toEqual([]);
});
