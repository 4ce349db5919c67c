import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { answers, type TestReceiver } from '../../apps/webhook-dispatcher/test/support/https-receiver';
import { ApiSession, type RunningSystem } from '../e2e/support';
import {
  acceptInvite,
  consoleUrl,
  eventually,
  inviteUser,
  screenshot,
  seriousAccessibilityProblems,
  settled,
  startConsoleWithReceiver,
  userPage,
} from './support/console';

jest.setTimeout(120_000);

/**
 * Issue 48, what a new user saw: a signed-out page logging a 401, a claim link without its location dead-ending, the
 * high-value claim page saying one thing and showing another, webhook test events as links to no call, talk-time
 * minutes read as free, ledger calls not linked, and the desk's forms before its list on a phone.
 */
describe('the console as a new user first sees it', () => {
  let system: RunningSystem;
  let browser: Browser;
  let stopConsole: (() => Promise<void>) | undefined;
  let receiver: TestReceiver;
  let api: ApiSession;
  let owner: { context: BrowserContext; page: Page; problems: string[] };
  let numberId: string;
  let callSid: string;
  /** The second of two lost-and-found locations: a link without `?location=` must still find what it holds. */
  let location: { id: number; public_slug: string };
  const ids = { wallet: 0, walletClaim: 0 };
  const password = 'copper kettle on the moor';

  beforeAll(async () => {
    ({
      system,
      browser,
      receiver,
      stop: stopConsole,
    } = await startConsoleWithReceiver(answers({ status: 200 }), { RATE_LIMIT_REQUESTS: '100000' }));
    api = await ApiSession.create(system, { name: 'Moorside Rail', balance_cents: 10_000 });
    expect((await api.admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);
    for (const name of ['Moorside Depot', 'Moorside Station']) {
      const created = await api.admin.request('POST', `/admin/accounts/${api.accountId}/locations`, {
        name,
        hold_days: 30,
      });
      expect(created.status).toBe(201);
      location = created.body;
    }
    // Each test's data, made here so that each test stands alone: a stored wallet and a claim that fits it (at the
    // second location), a number whose webhook got a test event and a call's event.
    const item = await api.post('/lostfound/found-items', {
      location_id: location.id,
      category: 'wallet',
      description: 'Brown leather wallet with a rail pass',
      color: 'brown',
    });
    expect(item.status).toBe(201);
    ids.wallet = item.body.id;
    const claim = await api.post('/lostfound/claims', {
      location_id: location.id,
      claimant_name: 'Iris Moor',
      claimant_phone: '+14155550161',
      category: 'wallet',
      description: 'brown leather wallet, rail pass inside',
    });
    expect(claim.status).toBe(201);
    ids.walletClaim = claim.body.id;
    const created = await api.post('/numbers', {
      business_phone: '+14155550123',
      webhook_url: receiver.url('/hooks/moorside', 'localhost'),
    });
    expect(created.status).toBe(201);
    numberId = created.body.id;
    const test = await api.post(`/numbers/${numberId}/webhook-test`);
    expect(test.status).toBe(200);
    expect(test.body.delivered).toBe(true);
    const reported = await api.admin.request('POST', '/admin/provider/calls', {
      to: created.body.phone_number,
      caller: '+14155550199',
      duration_sec: 90,
      outcome: 'order_placed',
    });
    expect(reported.status).toBe(202);
    callSid = reported.body.call_sid;

    owner = await userPage(browser);
    await acceptInvite(owner.page, await inviteUser(system, api.accountId, 'owner@moorside.test'), password);
  });

  afterAll(async () => {
    await owner?.context.close();
    await stopConsole?.();
  });

  afterEach(() => {
    expect(owner.problems.splice(0)).toEqual([]);
  });

  it('logs no console error on the signed-out pages: sign-in, accepting an invitation, the claimant page', async () => {
    const inviteUrl = await inviteUser(system, api.accountId, 'second@moorside.test', 'viewer');
    const visitor = await userPage(browser);
    const errors: string[] = [];
    const onConsole = (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(`${visitor.page.url()}: ${message.text()}`);
    };
    visitor.page.on('console', onConsole);
    try {
      await visitor.page.goto(consoleUrl(system, 'sign-in'));
      await visitor.page.getByRole('button', { name: 'Sign in' }).waitFor();
      await visitor.page.goto(inviteUrl);
      await visitor.page.getByLabel('Choose a password').waitFor();
      await visitor.page.goto(consoleUrl(system, `claim/${location.public_slug}`));
      await visitor.page.getByRole('heading', { level: 1, name: 'Lost something at Moorside Station?' }).waitFor();
      // Anything logged late (a probe answered after the page drew) is in by now.
      await visitor.page.waitForLoadState('networkidle');
      expect(errors).toEqual([]);
      expect(visitor.problems).toEqual([]);
    } finally {
      await visitor.context.close();
    }
    // The probe itself: 200 either way, the session only when one came with the request.
    const probe = await fetch(`${system.publicUrl}/console/api/session-status`);
    expect({ status: probe.status, body: await probe.json() }).toEqual({ status: 200, body: { signed_in: false } });

    const signedIn = await owner.page.evaluate(() =>
      fetch('/console/api/session-status').then((answer) => answer.json()),
    );
    expect(signedIn).toMatchObject({ signed_in: true, user: { email: 'owner@moorside.test', role: 'owner' } });
  });

  it('opens a claim and an item from links without ?location=, at whichever location holds them', async () => {
    const { page } = owner;
    await page.goto(consoleUrl(system, `lostfound/claims/${ids.walletClaim}`));
    await page
      .getByRole('heading', { level: 1, name: `Claim #${ids.walletClaim}: brown leather wallet, rail pass inside` })
      .waitFor();
    await expect(page.locator('main').textContent()).resolves.not.toContain('location_id');
    // Its breadcrumb goes back to the claims of the location that holds it.
    await expect(page.getByRole('link', { name: 'Claims', exact: true }).getAttribute('href')).resolves.toBe(
      `/console/lostfound/claims?location=${location.id}`,
    );

    await page.goto(consoleUrl(system, `lostfound/items/${ids.wallet}`));
    await page
      .getByRole('heading', { level: 1, name: `#${ids.wallet} Brown leather wallet with a rail pass` })
      .waitFor();

    // An id no location holds: the desk says so, not that a parameter is missing.
    await page.goto(consoleUrl(system, 'lostfound/claims/999999'));
    await page.getByRole('heading', { level: 1, name: 'Claim' }).waitFor();
    const said = await page.locator('main [role="alert"], main .notice').first().textContent();
    expect(said).not.toMatch(/location_id/);
    expect(said).toMatch(/no longer exists/);
  });

  it('says on a high-value claim what the list below it is, and after the reunite only that it was given back', async () => {
    const { page } = owner;
    await page.goto(consoleUrl(system, `lostfound/claims/${ids.walletClaim}?location=${location.id}`));
    const card = page.getByTestId('claim-candidates');
    await card.locator(`[data-candidate-id="${ids.wallet}"]`).waitFor();
    // The list is the stored items the claim matched (those that made has_match true), under its own heading.
    await expect(card.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Candidate matches');
    const notice = await card.locator('.notice').first().textContent();
    expect(notice).not.toMatch(/not listed/);
    expect(notice).toContain("checking the claimant's proof of ownership in person");
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'lostfound-claim-high-value');

    await card.locator(`[data-candidate-id="${ids.wallet}"]`).getByRole('radio').check();
    await page.getByLabel("I have verified the claimant's proof of ownership").check();
    await page.getByRole('button', { name: 'Reunite' }).click();
    await page.getByText(`Item #${ids.wallet} was given back to Iris Moor, with verified proof.`).waitFor();
    await card.getByRole('heading', { level: 2, name: 'Given back' }).waitFor();
    const after = (await card.textContent()) ?? '';
    expect(after).toContain('This claim is closed: its item was given back.');
    expect(after).not.toMatch(/matches it yet|fits|not listed|listed below/);
    await expect(card.locator('[data-candidate-id]').count()).resolves.toBe(0);
  });

  it("lists a webhook test event by its type with no call link, and a call's event with a link to the call", async () => {
    await receiver.received(2, 20_000);

    const { page } = owner;
    await page.goto(consoleUrl(system, `numbers/${numberId}`));
    const rows = page.getByTestId('deliveries-table').locator('tbody tr');
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Refresh deliveries' }).click();
        await page.waitForTimeout(200);
        return rows.count();
      },
      (count) => count === 2,
    );
    await expect(page.getByTestId('deliveries-table').locator('thead th').allTextContents()).resolves.toEqual([
      'Time',
      'Event',
      'Call',
      'Attempt',
      'Result',
      'Error',
    ]);
    const testRow = rows.filter({ hasText: 'webhook.test' });
    await expect(testRow.locator('td[data-label="Call"]').textContent()).resolves.toBe('not about a call');
    await expect(testRow.getByRole('link').count()).resolves.toBe(0);
    const callRow = rows.filter({ hasText: 'call.completed' });
    await expect(callRow.getByRole('link').getAttribute('href')).resolves.toBe(
      `/console/calls/${encodeURIComponent(callSid)}`,
    );
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
  });

  it("calls the tier's minutes a cap with every second billed, and links each call in the ledger to its page", async () => {
    const { page } = owner;
    await page.goto(consoleUrl(system, 'money'));
    const note = page.getByTestId('talk-time-note');
    await note.waitFor();
    const said = (await note.textContent()) ?? '';
    expect(said).not.toMatch(/included/);
    expect(said).toContain("of your 200 min monthly cap. Every second is billed at your tier's rate");

    const row = page.getByTestId('ledger-table').locator('tbody tr', { hasText: callSid });
    await eventually(
      async () => {
        await page.reload();
        await settled(page);
        return row.count();
      },
      (count) => count === 1,
    );
    const link = row.getByRole('link', { name: callSid });
    await expect(link.getAttribute('href')).resolves.toBe(`/console/calls/${encodeURIComponent(callSid)}`);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await link.click();
    await page.waitForURL(new RegExp(`/console/calls/${callSid}$`));
    await page.getByRole('heading', { level: 1 }).filter({ hasText: '+14155550199' }).waitFor();
  });

  it('shows the desk its list first at 375 px, the log and search forms behind buttons', async () => {
    const phone = await userPage(browser, { width: 375 });
    try {
      const { page } = phone;
      await page.goto(consoleUrl(system, 'sign-in'));
      await page.getByLabel('Email').fill('owner@moorside.test');
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Calls' }).waitFor();
      await page.goto(consoleUrl(system, `lostfound?location=${location.id}`));
      const table = page.getByTestId('items-table');
      await table.waitFor();
      await settled(page);
      // Nothing of either form before the list: its first row is on the first screen.
      await expect(page.getByRole('form', { name: 'Log a found item' }).count()).resolves.toBe(0);
      await expect(page.getByRole('search', { name: 'Search items' }).count()).resolves.toBe(0);
      const firstRow = await table.locator('tbody tr').first().boundingBox();
      expect(firstRow!.y).toBeLessThan(860);
      expect(await seriousAccessibilityProblems(page)).toEqual([]);

      const log = page.getByRole('button', { name: 'Log a found item' });
      await expect(log.getAttribute('aria-expanded')).resolves.toBe('false');
      await log.click();
      await page.getByRole('form', { name: 'Log a found item' }).getByLabel('What is it?').waitFor();
      await expect(log.getAttribute('aria-expanded')).resolves.toBe('true');
      await page.getByRole('button', { name: 'Search items' }).click();
      await page.getByRole('search', { name: 'Search items' }).getByLabel('Search').waitFor();

      await page.goto(consoleUrl(system, `lostfound/claims?location=${location.id}`));
      await page.getByTestId('claims-table').waitFor();
      await expect(page.getByRole('search', { name: 'Search claims' }).count()).resolves.toBe(0);
      await page.getByRole('button', { name: 'Search claims' }).waitFor();
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
