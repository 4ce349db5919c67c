import type { Browser, BrowserContext, Page } from 'playwright-core';
import { answers, type TestReceiver } from '../../apps/webhook-dispatcher/test/support/https-receiver';
import { AdminClient, type JsonBody, type RunningSystem } from '../e2e/support';
import {
  acceptInvite,
  consoleRequest,
  consoleUrl,
  eventually,
  inviteUser,
  screenshot,
  seriousAccessibilityProblems,
  settled,
  startConsoleWithReceiver,
  signIn,
  userPage,
} from './support/console';

jest.setTimeout(120_000);

/** A console GET from inside the page (its session cookie), answered as JSON. */
async function consoleRequestOf(page: Page, path: string): Promise<JsonBody> {
  return (await consoleRequest(page, 'GET', path)).body;
}

/**
 * Issue 15, the owner's way through the web console in a real browser against the whole system: invited by an
 * operator, a password set, signed in; a key made, used and revoked; a number provisioned with its webhook and
 * its delivery attempts; a simulated call listened to (seeking included) and read; auto top-up changed; and
 * every page checked by axe at desktop and phone width.
 */
describe('the web console, as an account owner', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let stopConsole: (() => Promise<void>) | undefined;
  let receiver: TestReceiver;
  let accountId: string;
  let number: { id: string; phone_number: string };
  let callSid: string;
  const email = 'ada@pizza-planet.test';
  const password = 'plum tuesday lantern 42';
  const transcript = [
    { role: 'agent', text: 'Pizza Planet, how can I help?' },
    { role: 'caller', text: 'A large margherita for pick-up, please.' },
    { role: 'agent', text: 'Ready in twenty minutes. Anything else?' },
  ];

  beforeAll(async () => {
    // The number's webhook: refuses the first attempt, takes the second, so the page has two attempts to show.
    ({
      system,
      browser,
      receiver,
      stop: stopConsole,
    } = await startConsoleWithReceiver(answers({ status: 500 }, { status: 200 }), { WEBHOOK_BACKOFF_BASE_MS: '100' }));
    admin = new AdminClient(system);
    accountId = (await admin.createAccount({ name: 'Pizza Planet', balance_cents: 10_000 })).id;
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);
    ({ context, page, problems } = await userPage(browser));
  });

  afterAll(async () => {
    await context?.close();
    await stopConsole?.();
  });

  afterEach(() => {
    // Nothing the strict CSP refused, no uncaught error in the page.
    expect(problems.splice(0)).toEqual([]);
  });

  it("follows the operator's invitation link, shows the account and email, sets a password and is signed in", async () => {
    const link = await inviteUser(system, accountId, email);
    await page.goto(link);
    const facts = page.getByTestId('invite-facts');
    await expect(facts.textContent()).resolves.toContain('Pizza Planet');
    await expect(facts.textContent()).resolves.toContain(email);
    await screenshot(page, 'accept-invite');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // A password the two boxes disagree on changes nothing and says so next to the field.
    await page.getByLabel('Choose a password').fill(password);
    await page.getByLabel('Type it again').fill('something else entirely');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(page.getByText('The two passwords are not the same.').isVisible()).resolves.toBe(true);
    // The server's rule (12 characters at least) comes back as a 400 naming the field, shown next to it.
    await page.getByLabel('Choose a password').fill('too short');
    await page.getByLabel('Type it again').fill('too short');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    const passwordField = page.getByLabel('Choose a password');
    await eventually(
      () => passwordField.getAttribute('aria-invalid'),
      (value) => value === 'true',
    );
    await page.locator('.field-error', { hasText: 'password must be at least 12 characters' }).waitFor();
    // Long enough but easy to guess: the strength estimator's reason, shown next to the field the same way.
    await page.getByLabel('Choose a password').fill('letmein12345!');
    await page.getByLabel('Type it again').fill('letmein12345!');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page
      .locator('.field-error', { hasText: 'password is too easy to guess. Add more words that are less common.' })
      .waitFor();

    await acceptInvite(page, link, password);
    await expect(page.getByTestId('account-name').textContent()).resolves.toBe('Pizza Planet');
    await expect(page.getByTestId('user-role').textContent()).resolves.toBe('owner');
    // The token has done its work: it is gone from the address, and the link does not work twice.
    expect(page.url()).not.toContain('token=');
    const again = await context.newPage();
    await again.goto(link);
    await again.getByText('This invitation link is not valid any more').waitFor();
    await again.close();
  });

  it('signs out, refuses a wrong password with a readable message, and signs in again', async () => {
    await page.getByText('Account', { exact: true }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await page.goto(consoleUrl(system, 'keys'));
    // Signed out, every page leads to the sign-in form.
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await screenshot(page, 'sign-in');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'That email and password do not match an account.' }).waitFor();

    await signIn(page, system, email, password);
  });

  it('makes a key with an IP allowlist, shows it once, the key works on /v1, and once revoked it is refused', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByLabel(/Allowed IP addresses/).fill('127.0.0.1, 10.0.0.0/8');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByTestId('one-time-secret');
    const key = await secret.getByRole('textbox').inputValue();
    expect(key).toMatch(/^sk_/);

    const row = page.getByTestId('keys-table').locator('tbody tr').first();
    await expect(row.textContent()).resolves.toContain('127.0.0.1, 10.0.0.0/8');
    const prefix = (await row.locator('code').textContent())!.replace('…', '');
    expect(key.startsWith(prefix)).toBe(true);
    await screenshot(page, 'keys');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    const listNumbers = () => fetch(`${system.publicUrl}/v1/numbers`, { headers: { authorization: `Bearer ${key}` } });
    expect((await listNumbers()).status).toBe(200);
    // Used once: the list says when.
    await eventually(
      async () => {
        await page.reload();
        return page
          .getByTestId('keys-table')
          .locator('tbody tr')
          .first()
          .locator('td[data-label="Last used"]')
          .textContent();
      },
      (text) => text !== null && text !== 'never',
    );
    // Reloaded, the secret is nowhere on the page any more.
    await expect(page.getByTestId('one-time-secret').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(key);

    await page.getByRole('button', { name: `Revoke key ${prefix}` }).click();
    const dialog = page.getByRole('dialog', { name: `Revoke key ${prefix}…?` });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText(`Key ${prefix}… is revoked`).waitFor();
    await eventually(
      () => page.getByTestId('keys-table').locator('tbody tr', { hasText: prefix }).textContent(),
      (text) => text!.includes('revoked'),
    );
    expect((await listNumbers()).status).toBe(401);
  });

  it('rotates a key: the new one is shown once, the old one works until the owner revokes it', async () => {
    const status = async (key: string) =>
      (await fetch(`${system.publicUrl}/v1/numbers`, { headers: { authorization: `Bearer ${key}` } })).status;
    const shownKey = () => page.getByTestId('one-time-secret').getByRole('textbox').inputValue();
    await page.getByRole('button', { name: 'Create key' }).click();
    const old = await eventually(shownKey, (value) => value.startsWith('sk_'));
    const prefixOf = async (key: string) =>
      (await page.getByTestId('keys-table').locator('tbody code').allTextContents())
        .map((text) => text.replace('…', ''))
        .find((candidate) => key.startsWith(candidate));
    const oldPrefix = (await eventually(
      () => prefixOf(old),
      (found) => found !== undefined,
    ))!;

    await page.getByRole('button', { name: `Rotate key ${oldPrefix}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Make the new key' }).click();
    const fresh = await eventually(shownKey, (value) => value.startsWith('sk_') && value !== old);
    expect([await status(old), await status(fresh)]).toEqual([200, 200]);

    await page.getByRole('button', { name: `Revoke old key ${oldPrefix}…` }).click();
    await page
      .getByRole('dialog', { name: 'Revoke the old key?' })
      .getByRole('button', { name: 'Revoke old key' })
      .click();
    await page.getByText(`Key ${oldPrefix}… is revoked`).waitFor();
    expect([await status(old), await status(fresh)]).toEqual([401, 200]);
  });

  it('explains the five-active-keys limit when it is hit', async () => {
    // One key is active (the rotated one): four more make five, the sixth is refused.
    for (let made = 0; made < 4; made++) {
      const before = await page.getByTestId('keys-table').locator('tbody tr').count();
      await page.getByRole('button', { name: 'Create key' }).click();
      await eventually(
        () => page.getByTestId('keys-table').locator('tbody tr').count(),
        (count) => count === before + 1,
      );
    }
    await page.getByText('5 of 5 live keys, 0 of 5 test keys').waitFor();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'An account can have at most 5 active keys of each mode' })
      .waitFor();
    await expect(page.getByTestId('keys-table').locator('tbody tr').count()).resolves.toBe(7);
  });

  it('makes a test key beside five live ones: sk_test_, marked test, its answers livemode false', async () => {
    await page.getByLabel('Mode', { exact: true }).selectOption('test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByTestId('one-time-secret');
    await secret.locator('.secret-title', { hasText: 'test mode' }).waitFor();
    const key = await secret.getByRole('textbox').inputValue();
    expect(key).toMatch(/^sk_test_/);
    await page.getByText('5 of 5 live keys, 1 of 5 test keys').waitFor();
    const row = page.getByTestId('keys-table').locator('tbody tr').first();
    await expect(row.locator('td[data-label="Mode"]').textContent()).resolves.toBe('test');
    await screenshot(page, 'keys-test-mode');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    const answer = await fetch(`${system.publicUrl}/v1/numbers`, { headers: { authorization: `Bearer ${key}` } });
    expect(await answer.json()).toEqual({ data: [], has_more: false, livemode: false });
    await page.getByLabel('Mode', { exact: true }).selectOption('live');
  });

  it("shows the server's validation message next to the field and creates nothing, then provisions a number and shows its webhook secret once", async () => {
    await page.getByRole('link', { name: 'Numbers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Numbers' }).waitFor();
    await page.getByLabel('Business phone').fill('+14155550123');
    await page.getByLabel(/Webhook URL/).fill('http://localhost/not-https');
    await page.getByRole('button', { name: 'Provision number' }).click();
    const webhookField = page.getByLabel(/Webhook URL/);
    await eventually(
      () => webhookField.getAttribute('aria-invalid'),
      (value) => value === 'true',
    );
    const describedBy = (await webhookField.getAttribute('aria-describedby'))!.split(' ');
    const fieldError = await page.locator(`[id="${describedBy[describedBy.length - 1]}"]`).textContent();
    expect(fieldError).toContain('webhook_url');
    // Nothing was provisioned.
    await page.getByText('No numbers yet.').waitFor();

    await page.getByLabel(/Webhook URL/).fill(receiver.url('/hooks/switchboard', 'localhost'));
    // Provisioning charges the account: the page sends an Idempotency-Key, so a retried request cannot buy twice.
    const provisioning = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/console/api/numbers'),
    );
    await page.getByRole('button', { name: 'Provision number' }).click();
    expect((await provisioning).headers()['idempotency-key']).toMatch(/^console-[0-9a-f]{32}$/);
    const secret = page.getByTestId('one-time-secret');
    await secret.waitFor();
    expect(await secret.getByRole('textbox').inputValue()).toMatch(/\S{16,}/);
    const link = page.getByTestId('numbers-table').locator('tbody tr').first().getByRole('link');
    const phoneNumber = (await link.textContent())!;
    expect(phoneNumber).toMatch(/^\+1\d{10}$/);
    await expect(page.getByTestId('numbers-table').textContent()).resolves.toContain('active');
    await screenshot(page, 'numbers');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await link.click();
    await page.getByRole('heading', { level: 1, name: phoneNumber }).waitFor();
    number = { id: decodeURIComponent(page.url().split('/numbers/')[1]), phone_number: phoneNumber };
    await expect(page.getByTestId('one-time-secret').count()).resolves.toBe(0);
  });

  it('lists a simulated call in the calls table, and the webhook delivery attempts on the number page', async () => {
    const reported = await admin.request('POST', '/admin/provider/calls', {
      to: number.phone_number,
      caller: '+14155550199',
      duration_sec: 120,
      outcome: 'order_placed',
      started_at: new Date(Date.now() - 3600_000).toISOString(),
      transcript,
      recording: true,
    });
    expect(reported.status).toBe(202);
    callSid = reported.body.call_sid;

    await page.getByRole('link', { name: 'Calls', exact: true }).click();
    const row = page.locator(`[data-call-id="${callSid}"]`);
    await eventually(
      async () => {
        await page.reload();
        await settled(page);
        return row.count();
      },
      (count) => count === 1,
    );
    await expect(row.textContent()).resolves.toContain('+14155550199');
    await expect(row.textContent()).resolves.toContain('2 min 00 s');
    await expect(row.textContent()).resolves.toContain('Order placed');

    // Filtered to another day, it is not there; filtered to its number, it is.
    await page.getByLabel('To').fill('2020-01-01');
    await page.getByLabel('From').fill('2020-01-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No calls match these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Number').selectOption(number.id);
    await page.getByRole('button', { name: 'Apply' }).click();
    await row.waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // The receiver refused the first delivery and took the second: both attempts are on the number's page.
    await receiver.received(2, 20_000);
    await page.goto(consoleUrl(system, `numbers/${number.id}`));
    const deliveries = page.getByTestId('deliveries-table').locator('tbody tr');
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Refresh deliveries' }).click();
        await page.waitForTimeout(200);
        return deliveries.count();
      },
      (count) => count === 2,
    );
    await expect(deliveries.nth(0).textContent()).resolves.toContain('200');
    await expect(deliveries.nth(1).textContent()).resolves.toContain('500');
    await expect(deliveries.nth(1).locator('td[data-label="Error"]').textContent()).resolves.not.toBe('none');
    await screenshot(page, 'number');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
  });

  it("plays the call's recording through the session, seeks in it, and shows the transcript as a conversation", async () => {
    const ranged: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith(`/calls/${callSid}/recording`)) ranged.push(response.status());
    });
    await page.goto(consoleUrl(system, 'calls'));
    await page.locator(`[data-call-id="${callSid}"]`).getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Call from +14155550199' }).waitFor();

    const turns = page.getByTestId('transcript').locator('li');
    await turns.first().waitFor();
    await expect(turns.count()).resolves.toBe(3);
    await expect(turns.nth(0).textContent()).resolves.toBe('AI agentPizza Planet, how can I help?');
    await expect(turns.nth(1).textContent()).resolves.toBe('CallerA large margherita for pick-up, please.');

    const audio = page.locator('audio');
    expect(await audio.getAttribute('src')).toBe(`/console/api/calls/${callSid}/recording`);
    // No key anywhere in the page: the recording comes with the session cookie.
    expect(await page.content()).not.toMatch(/sk_(live|test)_/);
    const played = await audio.evaluate(async (element) => {
      const player = element as unknown as {
        muted: boolean;
        duration: number;
        currentTime: number;
        readyState: number;
        play(): Promise<void>;
        pause(): void;
        addEventListener(type: string, listener: () => void, options?: { once: boolean }): void;
      };
      player.muted = true;
      await player.play();
      player.pause();
      const seeked = new Promise<void>((resolve) => player.addEventListener('seeked', () => resolve(), { once: true }));
      player.currentTime = 60;
      await seeked;
      return { duration: player.duration, currentTime: player.currentTime };
    });
    expect(played.duration).toBeGreaterThan(100);
    expect(played.currentTime).toBeGreaterThan(0);
    // The browser asked for byte ranges (206) to seek, through the console's own route.
    expect(ranged).toContain(206);
    await screenshot(page, 'call');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
  });

  it('changes auto top-up: an amount the server refuses is shown next to its field and saves nothing; a good one is kept', async () => {
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    await eventually(
      () => page.getByTestId('balance').textContent(),
      (text) => /^\$\d/.test(text ?? ''),
    );
    await page.getByTestId('usage-chart').waitFor();
    await expect(page.getByTestId('usage-chart').textContent()).resolves.toContain(
      '1 call and 2 minutes in the last 30 days',
    );

    const enabled = page.getByLabel('Top up automatically');
    expect(await enabled.isChecked()).toBe(false);
    await enabled.check();
    await page.getByLabel('When the balance falls below (USD)').fill('15');
    await page.getByLabel('Add this much (USD)').fill('2');
    await page.getByRole('button', { name: 'Save auto top-up' }).click();
    const amount = page.getByLabel('Add this much (USD)');
    await eventually(
      () => amount.getAttribute('aria-invalid'),
      (value) => value === 'true',
    );
    expect((await admin.request('GET', `/admin/accounts/${accountId}`)).body.auto_top_up ?? null).toBeNull();

    await amount.fill('25.50');
    await page.getByRole('button', { name: 'Save auto top-up' }).click();
    await page.getByText('Auto top-up saved.').waitFor();
    expect((await admin.request('GET', `/admin/accounts/${accountId}`)).body.auto_top_up).toEqual({
      threshold_cents: 1500,
      amount_cents: 2550,
    });
    await page.reload();
    await expect(page.getByLabel('Add this much (USD)').inputValue()).resolves.toBe('25.50');
    await page.getByTestId('ledger-table').locator('tbody tr').first().waitFor();
    await screenshot(page, 'billing');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Turned off, it is saved as off; the fields keep their amounts (disabled) for turning it on again.
    await page.getByLabel('Top up automatically').uncheck();
    await page.getByRole('button', { name: 'Save auto top-up' }).click();
    await page.getByText(/^Off: when the balance runs out/).waitFor();
    expect((await admin.request('GET', `/admin/accounts/${accountId}`)).body.auto_top_up ?? null).toBeNull();
    const kept = page.getByLabel('Add this much (USD)');
    await expect(kept.inputValue()).resolves.toBe('25.50');
    await expect(kept.isDisabled()).resolves.toBe(true);
  });

  it("pages through calls and the ledger with the API's cursor, forward and back", async () => {
    // Twenty more calls: 21 in all, one more than a page of calls; each adds a talk-time row to the ledger.
    for (let i = 1; i <= 20; i++) {
      const reported = await admin.request('POST', '/admin/provider/calls', {
        to: number.phone_number,
        caller: `+141555502${String(i).padStart(2, '0')}`,
        duration_sec: 30,
        outcome: 'question_answered',
        started_at: new Date(Date.now() - 7200_000 - i * 60_000).toISOString(),
        transcript: [{ role: 'caller', text: `Question ${i}` }],
      });
      expect(reported.status).toBe(202);
    }
    const rows = page.getByTestId('calls-table').locator('tbody tr');
    await page.goto(consoleUrl(system, 'calls'));
    await eventually(
      async () => {
        await page.reload();
        await rows.first().waitFor();
        return page.getByRole('button', { name: 'Next' }).isEnabled();
      },
      (enabled) => enabled,
    );
    await expect(rows.count()).resolves.toBe(20);
    await screenshot(page, 'calls');
    const firstPage = await rows.first().getAttribute('data-call-id');
    expect(firstPage).toBe(callSid);
    await page.getByRole('button', { name: 'Next' }).click();
    await eventually(
      () => rows.count(),
      (count) => count === 1,
    );
    await expect(rows.first().textContent()).resolves.toContain('+14155550220');
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous' }).click();
    await eventually(
      () => rows.count(),
      (count) => count === 20,
    );
    await expect(rows.first().getAttribute('data-call-id')).resolves.toBe(firstPage);

    await page.getByRole('link', { name: 'Billing' }).click();
    const ledger = page.getByTestId('ledger-table').locator('tbody tr');
    await eventually(
      () => ledger.count(),
      (count) => count === 20,
    );
    const newest = await ledger.first().textContent();
    await page.getByRole('navigation', { name: 'Pages of the ledger' }).getByRole('button', { name: 'Next' }).click();
    await eventually(
      async () => (await ledger.first().textContent()) !== newest,
      (moved) => moved,
    );
    await expect(ledger.last().textContent()).resolves.toContain('Opening balance');
  });

  it('passes the accessibility check on every page at phone width (375 px), where nothing scrolls sideways', async () => {
    const phone = await userPage(browser, { width: 375 });
    try {
      await signIn(phone.page, system, email, password);
      const paths = ['calls', `calls/${callSid}`, 'numbers', `numbers/${number.id}`, 'keys', 'money', 'team'];
      const found: string[] = [];
      for (const path of paths) {
        await phone.page.goto(consoleUrl(system, path));
        await settled(phone.page);
        found.push(...(await seriousAccessibilityProblems(phone.page)).map((problem) => `${path}: ${problem}`));
        const overflow = await phone.page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        if (Number(overflow) > 0) found.push(`${path}: the page is ${String(overflow)} px wider than the screen`);
        if (path === 'calls') await screenshot(phone.page, 'calls-phone');
        if (path === 'money') await screenshot(phone.page, 'billing-phone');
      }
      await phone.page.goto(consoleUrl(system, 'team'));
      await settled(phone.page); // else the picture can be the shell's "Loading the console…"
      await screenshot(phone.page, 'team-phone');
      expect(found).toEqual([]);
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it('works by keyboard alone: skip link, navigation, and a visible focus ring', async () => {
    await page.goto(consoleUrl(system, 'team'));
    await page.locator('main h1').waitFor();
    await page.keyboard.press('Tab');
    const skip = await page.evaluate('document.activeElement && document.activeElement.textContent');
    expect(skip).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(
      "(() => { const e = document.activeElement; const s = getComputedStyle(e); return { inMain: !!e.closest('main'), outline: s.outlineStyle, width: s.outlineWidth }; })()",
    );
    expect(focused).toEqual({ inMain: true, outline: 'solid', width: '3px' });
    await screenshot(page, 'team');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
  });

  it("sets the agent's greeting and instructions on the number page", async () => {
    await page.goto(consoleUrl(system, `numbers/${number.id}`));
    const greeting = page.getByLabel(/^Greeting/);
    await greeting.waitFor();
    await page.getByTestId('agent-status').getByText('The agent answering this number has these settings.').waitFor();
    await greeting.fill('Thanks for calling Pizza Planet!');
    await page.getByLabel(/^Instructions/).fill('We are open 11am to 10pm. Take pickup orders.');
    await page.getByRole('button', { name: 'Save agent' }).click();
    await page.getByText('Saved. The agent gets the new settings within seconds.').waitFor();
    expect(await consoleRequestOf(page, `/numbers/${number.id}/agent`)).toMatchObject({
      greeting: 'Thanks for calling Pizza Planet!',
      instructions: 'We are open 11am to 10pm. Take pickup orders.',
    });
    await eventually(
      () => page.reload().then(() => page.getByTestId('agent-status').textContent()),
      (text) => text === 'The agent answering this number has these settings.',
    );
    await expect(greeting.inputValue()).resolves.toBe('Thanks for calling Pizza Planet!');
    await screenshot(page, 'number-agent');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // The field holds the saved greeting in the very paint that shows the loaded settings, not one effect later: a
    // mutation observer (it runs before React's effects) reads the field when the status first appears.
    const fresh = await page.context().newPage();
    try {
      await fresh.addInitScript(`
        const seen = (window.greetingWhenLoaded = []);
        new MutationObserver(() => {
          if (seen.length > 0 || !document.querySelector('[data-testid="agent-status"]')) return;
          const field = document.querySelector('input[name="greeting"]');
          seen.push(field ? field.value : null);
        }).observe(document, { childList: true, subtree: true });
      `);
      await fresh.goto(consoleUrl(system, `numbers/${number.id}`));
      await fresh.getByTestId('agent-status').waitFor();
      await expect(fresh.evaluate('window.greetingWhenLoaded')).resolves.toEqual(['Thanks for calling Pizza Planet!']);
    } finally {
      await fresh.close();
    }
  });

  it("changes a number's webhook URL (a refused one shown at its field) and releases the number after confirmation", async () => {
    await page.goto(consoleUrl(system, `numbers/${number.id}`));
    const field = page.getByLabel(/Webhook URL/);
    await eventually(
      () => field.inputValue(),
      (value) => value.startsWith('https://localhost'),
    );
    await field.fill('ftp://localhost/hooks');
    await page.getByRole('button', { name: 'Save webhook URL' }).click();
    await eventually(
      () => field.getAttribute('aria-invalid'),
      (value) => value === 'true',
    );
    await page.locator('.field-error', { hasText: 'webhook_url' }).waitFor();
    const changed = receiver.url('/hooks/changed', 'localhost');
    await field.fill(changed);
    await page.getByRole('button', { name: 'Save webhook URL' }).click();
    await page.getByText('Webhook URL saved.').waitFor();
    expect((await consoleRequestOf(page, `/numbers/${number.id}`)).webhook_url).toBe(changed);

    await page.getByRole('button', { name: 'Release number' }).click();
    const dialog = page.getByRole('dialog', { name: `Release ${number.phone_number}?` });
    // Cancel first: nothing happens.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await consoleRequestOf(page, `/numbers/${number.id}`)).status).toBe('active');
    await page.getByRole('button', { name: 'Release number' }).click();
    await dialog.getByRole('button', { name: 'Release number' }).click();
    await page.getByRole('heading', { level: 1, name: 'Numbers' }).waitFor();
    await eventually(
      () => page.getByTestId('numbers-table').locator('tr', { hasText: number.phone_number }).textContent(),
      (text) => text!.includes('released'),
    );
  });
});
