import type { Browser } from 'playwright-core';
import { AdminClient, type RunningSystem } from '../e2e/support';
import {
  acceptInvite,
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
 * Issue 48 in Chromium: "Forgot your password?" from the sign-in page through the emailed link to signed in (other
 * sessions ended, the link then spent), and an owner changing a member's role on the team page, which the member's
 * console follows at their next navigation (docs/adr/0066).
 */
describe('the web console: password reset by email, and changing roles', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let browser: Browser;
  let accountId: string;
  const password = 'a long enough passphrase';
  const newPassword = 'violet kettle orbits quietly';

  beforeAll(async () => {
    [system, browser] = await Promise.all([
      startConsoleSystem({ services: ['numbers-billing', 'calls-media'] }),
      launchChromium(),
    ]);
    admin = new AdminClient(system);
    accountId = (await admin.createAccount({ name: 'Charlie Cafe', balance_cents: 5_000 })).id;
  });

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  /** The reset links mailed to `address`, newest first. */
  const resetLinks = async (address: string): Promise<string[]> =>
    ((await admin.request('GET', `/admin/email?to=${encodeURIComponent(address)}`)).body?.data ?? [])
      .map((mail: { body: string }) => /\/console\/reset-password#token=([A-Za-z0-9_-]+)/.exec(mail.body)?.[1])
      .filter(Boolean)
      .map((token: string) => `${consoleUrl(system, 'reset-password')}#token=${token}`);

  it('resets a forgotten password from the sign-in page through the emailed link, ending the other sessions', async () => {
    const earlier = await userPage(browser);
    const forgetful = await userPage(browser);
    const later = await userPage(browser);
    try {
      await acceptInvite(earlier.page, await inviteUser(system, accountId, 'ada@charlie.test', 'developer'), password);

      const { page } = forgetful;
      await page.goto(consoleUrl(system, 'sign-in'));
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
      await page.getByLabel('Email').fill('ada@charlie.test');
      await screenshot(page, 'forgot-password-form');
      await page.getByRole('button', { name: 'Email me a link' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'If this email address has a Switchboard console user, a link' })
        .waitFor();
      await screenshot(page, 'forgot-password');
      expect(await seriousAccessibilityProblems(page)).toEqual([]);

      const [link] = await eventually(
        () => resetLinks('ada@charlie.test'),
        (links) => links.length > 0,
      );
      await page.goto(link);
      await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
      await expect(page.getByTestId('reset-facts').textContent()).resolves.toContain('ada@charlie.test');
      await page.getByLabel('New password').fill('password1234');
      await page.getByLabel('Type it again').fill('password1234');
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.locator('.field-error', { hasText: /^password is too easy to guess/ }).waitFor();
      await screenshot(page, 'reset-password');
      expect(await seriousAccessibilityProblems(page)).toEqual([]);

      await page.getByLabel('New password').fill(newPassword);
      await page.getByLabel('Type it again').fill(newPassword);
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Calls' }).waitFor();
      await expect(page.getByTestId('user-role').textContent()).resolves.toBe('developer');
      expect(page.url()).not.toContain('token=');

      // The session from before the reset has ended; the link is spent.
      await earlier.page.goto(consoleUrl(system, 'keys'));
      await earlier.page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      await later.page.goto(link);
      await later.page
        .getByRole('alert')
        .filter({ hasText: 'This password reset link is not valid any more' })
        .waitFor();
      await later.page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
      for (const user of [earlier, forgetful, later]) expect(user.problems).toEqual([]);
    } finally {
      for (const user of [earlier, forgetful, later]) await user.context.close();
    }
  });

  it("lets an owner change a member's role on the team page, and the member's console follows", async () => {
    const owner = await userPage(browser);
    const member = await userPage(browser);
    try {
      await acceptInvite(owner.page, await inviteUser(system, accountId, 'owner@charlie.test', 'owner'), password);
      await acceptInvite(member.page, await inviteUser(system, accountId, 'bo@charlie.test', 'developer'), password);
      await member.page.getByRole('link', { name: 'API keys' }).click();
      await member.page.getByRole('button', { name: 'Create key' }).waitFor();

      const { page } = owner;
      await page.goto(consoleUrl(system, 'team'));
      const role = page.getByLabel('Role of bo@charlie.test');
      await expect(role.inputValue()).resolves.toBe('developer');
      // No role control for the owner's own row: an owner changes other people's roles.
      await expect(page.getByLabel('Role of owner@charlie.test').count()).resolves.toBe(0);
      // The list's reload after the change held back: the select shows the changed role from the change's own answer,
      // with its notice, not the old one until the reload lands.
      await page.route('**/console/api/users', async (route) => {
        if (route.request().method() === 'GET') await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      await role.selectOption('viewer');
      await page.getByRole('status').filter({ hasText: 'bo@charlie.test is now a viewer.' }).waitFor();
      await expect(role.inputValue()).resolves.toBe('viewer');
      // The held reload may still be in its handler: wait for it rather than let unroute continue it underneath.
      await page.unrouteAll({ behavior: 'wait' });
      await screenshot(page, 'team-role');
      await page.setViewportSize({ width: 375, height: 800 });
      await expect(role.inputValue()).resolves.toBe('viewer');
      await screenshot(page, 'team-role-phone');
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await seriousAccessibilityProblems(page)).toEqual([]);

      // The member moves on in the console, without reloading: the page now offers what a viewer may do.
      await member.page.getByRole('link', { name: 'Calls' }).click();
      await member.page.getByRole('heading', { level: 1, name: 'Calls' }).waitFor();
      await member.page.getByRole('link', { name: 'API keys' }).click();
      await member.page.getByText('Your role (viewer) cannot manage API keys').waitFor();
      await expect(member.page.getByRole('button', { name: 'Create key' }).count()).resolves.toBe(0);
      await expect(member.page.getByTestId('user-role').textContent()).resolves.toBe('viewer');
      for (const user of [owner, member]) expect(user.problems).toEqual([]);
    } finally {
      for (const user of [owner, member]) await user.context.close();
    }
  });
});
