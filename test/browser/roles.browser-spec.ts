import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AdminClient, type RunningSystem } from '../e2e/support';
import {
  acceptInvite,
  consoleRequest,
  consoleUrl,
  eventually,
  inviteUser,
  launchChromium,
  screenshot,
  seriousAccessibilityProblems,
  startConsoleSystem,
  userPage,
} from './support/console';

jest.setTimeout(120_000);

/**
 * Issue 15, who may see and do what: an owner invites a viewer from the team page; the viewer is offered no
 * owner action and the server refuses one anyway (403, its message shown); a user of one account never sees
 * another account's numbers, calls or keys; "sign out everywhere" ends the user's other sessions.
 */
describe('the web console: roles, tenants and sessions', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let browser: Browser;
  const password = 'a long enough passphrase';
  const users: Record<'ownerA' | 'ownerB' | 'viewerA', { context: BrowserContext; page: Page; problems: string[] }> =
    {} as never;
  let accountA: string;
  let accountB: string;
  /** Account B's own things, made through the public API with its key. */
  const b = { number: { id: '', phone_number: '' }, callSid: '', keyPrefix: '' };

  beforeAll(async () => {
    [system, browser] = await Promise.all([
      startConsoleSystem({ services: ['numbers-billing', 'calls-media'] }),
      launchChromium(),
    ]);
    admin = new AdminClient(system);
    accountA = (await admin.createAccount({ name: 'Alpha Diner', balance_cents: 5_000 })).id;
    accountB = (await admin.createAccount({ name: 'Bravo Bakery', balance_cents: 5_000 })).id;
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);

    const keyB = await admin.createKey(accountB);
    b.keyPrefix = keyB.key.slice(0, 12);
    const numberB = await fetch(`${system.publicUrl}/v1/numbers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keyB.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ business_phone: '+14155550123' }),
    });
    expect(numberB.status).toBe(201);
    b.number = (await numberB.json()) as { id: string; phone_number: string };
    const call = await admin.request('POST', '/admin/provider/calls', {
      to: b.number.phone_number,
      caller: '+14155550177',
      duration_sec: 30,
      outcome: 'order_placed',
      started_at: new Date(Date.now() - 600_000).toISOString(),
      transcript: [{ role: 'caller', text: "Bravo's secret recipe" }],
      recording: true,
    });
    expect(call.status).toBe(202);
    b.callSid = call.body.call_sid;

    for (const [name, account, email] of [
      ['ownerA', accountA, 'owner@alpha.test'],
      ['ownerB', accountB, 'owner@bravo.test'],
    ] as const) {
      users[name] = await userPage(browser);
      await acceptInvite(users[name].page, await inviteUser(system, account, email), password);
    }
  });

  afterAll(async () => {
    for (const user of Object.values(users)) await user?.context.close();
    await browser?.close();
    await system?.stop();
  });

  afterEach(() => {
    for (const [name, user] of Object.entries(users))
      expect({ [name]: user.problems.splice(0) }).toEqual({ [name]: [] });
  });

  it('an owner invites a viewer from the team page, and the emailed link signs the viewer in', async () => {
    const { page } = users.ownerA;
    await page.goto(consoleUrl(system, 'team'));
    await page.getByLabel('Email').fill('viewer@alpha.test');
    await page.getByLabel('Role').selectOption('viewer');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent to viewer@alpha.test').waitFor();
    await expect(
      page.getByTestId('team-table').locator('tr', { hasText: 'viewer@alpha.test' }).textContent(),
    ).resolves.toContain('invited');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    const mail = await eventually(
      async () =>
        (await admin.request('GET', `/admin/email?to=${encodeURIComponent('viewer@alpha.test')}`)).body?.data ?? [],
      (data: { body: string }[]) => data.length > 0,
    );
    const token = /accept-invite#token=([A-Za-z0-9_\-.~%]+)/.exec(mail[0].body)?.[1];
    expect(token).toBeDefined();
    users.viewerA = await userPage(browser);
    await acceptInvite(users.viewerA.page, `${consoleUrl(system, 'accept-invite')}#token=${token}`, password);
    await expect(users.viewerA.page.getByTestId('user-role').textContent()).resolves.toBe('viewer');
    await page.reload();
    await expect(
      page.getByTestId('team-table').locator('tr', { hasText: 'viewer@alpha.test' }).textContent(),
    ).resolves.toContain('active');
  });

  it('offers a viewer no owner action, and the server refuses one anyway with 403 naming the role', async () => {
    const { page } = users.viewerA;
    await page.goto(consoleUrl(system, 'money'));
    await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    await page.getByText('Your role (viewer) cannot change billing settings').waitFor();
    expect(await page.getByLabel('Top up automatically').isDisabled()).toBe(true);
    await expect(page.getByRole('button', { name: 'Save auto top-up' }).count()).resolves.toBe(0);
    await screenshot(page, 'billing-viewer');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.goto(consoleUrl(system, 'keys'));
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await expect(page.getByRole('button', { name: 'Create key' }).count()).resolves.toBe(0);
    await page.goto(consoleUrl(system, 'team'));
    await page.getByTestId('team-table').locator('tr', { hasText: 'viewer@alpha.test' }).waitFor();
    await expect(page.getByRole('button', { name: /^Remove/ }).count()).resolves.toBe(0);

    const refused = await consoleRequest(page, 'PUT', '/account/auto-top-up', {
      threshold_cents: 1000,
      amount_cents: 2000,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect(refused.body.error.message).toMatch(/viewer/);
    const keys = await consoleRequest(page, 'POST', '/keys', {});
    expect(keys.status).toBe(403);
    expect((await admin.request('GET', `/admin/accounts/${accountA}`)).body.auto_top_up ?? null).toBeNull();
  });

  it("never shows a user of account A anything of account B's, whatever the address", async () => {
    const { page } = users.ownerA;
    await page.goto(consoleUrl(system, 'calls'));
    await page.getByText('No calls yet.').waitFor();
    await page.goto(consoleUrl(system, 'numbers'));
    await page.getByText('No numbers yet.').waitFor();

    await page.goto(consoleUrl(system, `calls/${b.callSid}`));
    await page
      .getByRole('alert')
      .filter({ hasText: 'That no longer exists, or it belongs to another account.' })
      .waitFor();
    expect(await page.content()).not.toContain("Bravo's secret recipe");
    await page.goto(consoleUrl(system, `numbers/${b.number.id}`));
    await page
      .getByRole('alert')
      .filter({ hasText: 'That no longer exists, or it belongs to another account.' })
      .waitFor();
    expect(await page.content()).not.toContain(b.number.phone_number);

    for (const path of [
      `/calls/${b.callSid}/recording`,
      `/calls/${b.callSid}/transcript`,
      `/numbers/${b.number.id}/webhook-deliveries`,
    ]) {
      expect({ path, status: (await consoleRequest(page, 'GET', path)).status }).toEqual({ path, status: 404 });
    }
    expect((await consoleRequest(page, 'DELETE', `/numbers/${b.number.id}`)).status).toBe(404);
    await page.goto(consoleUrl(system, 'keys'));
    await page.getByText('No keys yet.').waitFor();
    expect(await page.content()).not.toContain(b.keyPrefix);

    // B's owner, meanwhile, sees B's call.
    await users.ownerB.page.goto(consoleUrl(system, 'calls'));
    await users.ownerB.page.locator(`[data-call-id="${b.callSid}"]`).waitFor();
  });

  it("'sign out everywhere' ends the user's other sessions too", async () => {
    const elsewhere = await userPage(browser);
    try {
      await elsewhere.page.goto(consoleUrl(system, 'sign-in'));
      await elsewhere.page.getByLabel('Email').fill('owner@bravo.test');
      await elsewhere.page.getByLabel('Password').fill(password);
      await elsewhere.page.getByRole('button', { name: 'Sign in' }).click();
      await elsewhere.page.getByRole('heading', { level: 1, name: 'Calls' }).waitFor();

      const { page } = users.ownerB;
      await page.getByText('Account', { exact: true }).click();
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();

      await elsewhere.page.goto(consoleUrl(system, 'keys'));
      await elsewhere.page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      expect(elsewhere.problems).toEqual([]);
    } finally {
      await elsewhere.context.close();
    }
  });
});
