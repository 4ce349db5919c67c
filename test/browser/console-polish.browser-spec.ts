/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { answers, type TestReceiver } from '../../apps/webhook-dispatcher/test/support/https-receiver';
import { ApiSession, type RunningSystem } from '../e2e/support';
import {
  acceptInvite,
  consoleRequest,
  consoleUrl,
  eventually,
  inviteUser,
  screenshot,
  settled,
  startConsoleWithReceiver,
  userPage,
} from './support/console';

jest.setTimeout(180_000);

const WIDTHS = [1280, 375] as const;

/**
 * What a new user saw in the console: money and minutes shown two ways (docs/money-and-minutes.md), a cut-off
 * remove-member dialog offered for the last owner, identifiers broken mid-word in tables, the live key count in test
 * mode, and a greeting field pointing at a default it did not show.
 */
describe('the console writes money, minutes and identifiers one way, at 1280 and 375 px', () => {
  let system: RunningSystem;
  let browser: Browser;
  let stopConsole: (() => Promise<void>) | undefined;
  let receiver: TestReceiver;
  let api: ApiSession;
  let numberId: string;
  let owner: { context: BrowserContext; page: Page; problems: string[] };
  const password = 'lantern over the quay';

  beforeAll(async () => {
    ({
      system,
      browser,
      receiver,
      stop: stopConsole,
    } = await startConsoleWithReceiver(answers({ status: 200 }), { RATE_LIMIT_REQUESTS: '100000' }));
    // $100, less a number's $5 month, less a 167 s call at Starter's 49¢ a minute (136.383 cents): 9363.617 cents.
    api = await ApiSession.create(system, { name: 'Quayside Ferries', balance_cents: 10_000 });
    expect((await api.admin.request('PUT', '/admin/provider/stock/415', { available: 10 })).status).toBe(200);
    const created = await api.post('/numbers', {
      business_phone: '+14155550123',
      webhook_url: receiver.url('/hooks/quayside', 'localhost'),
    });
    expect(created.status).toBe(201);
    numberId = created.body.id;
    expect((await api.post(`/numbers/${numberId}/webhook-test`)).status).toBe(200);
    const reported = await api.admin.request('POST', '/admin/provider/calls', {
      to: created.body.phone_number,
      caller: '+14155550199',
      duration_sec: 167,
      outcome: 'order_placed',
    });
    expect(reported.status).toBe(202);
    // A second live key, allowed from many ranges: its wide "Allowed from" cell leaves the key's own cell narrow.
    await api.admin.createKey(
      api.accountId,
      Array.from({ length: 8 }, (_, i) => `198.51.${100 + i}.0/24`),
    );

    owner = await userPage(browser);
    const ownerInvite = await inviteUser(system, api.accountId, 'owner@quayside.test', 'owner');
    await acceptInvite(owner.page, ownerInvite, password).catch(async (error) => {
      throw new Error(`${String(error)}\n${await owner.page.locator('body').innerText()}`);
    });
    await inviteUser(system, api.accountId, 'a.very.long.name.for.a.deckhand@quayside-ferries.test', 'developer');
  });

  afterAll(async () => {
    await owner?.context.close();
    await stopConsole?.();
  });

  afterEach(async () => {
    await owner.page.setViewportSize({ width: 1280, height: 860 });
    expect(owner.problems.splice(0)).toEqual([]);
  });

  it('shows 9363.617 cents as $93.63 in the balance and the newest ledger row, and 167 s as 2 minutes twice', async () => {
    const { page } = owner;
    await page.goto(consoleUrl(system, 'money'));
    await settled(page);
    // The call is billed when its event arrives: reload until the ledger has it.
    await eventually(
      async () => {
        await page.reload();
        await settled(page);
        return page.getByTestId('ledger-table').locator('tbody tr').count();
      },
      (rows) => rows >= 3,
    );
    // The balance is its own request: it may still show its placeholder when the ledger is there.
    const balance = await eventually(
      () => page.getByTestId('balance').textContent(),
      (text) => text !== null && text !== '…',
    );
    const newest = page.getByTestId('ledger-table').locator('tbody tr').first();
    expect(await newest.locator('td[data-label="Amount"]').textContent()).toBe('-$1.37');
    expect(await newest.locator('td[data-label="Balance after"]').textContent()).toBe(balance);
    expect(balance).toBe('$93.63');
    expect(await page.getByTestId('talk-time-note').locator('xpath=..').locator('.stat-value').textContent()).toBe(
      '2 min',
    );
    expect(await page.getByTestId('usage-chart').locator('figcaption').textContent()).toBe(
      '1 call and 2 minutes in the last 30 days.',
    );
    // The number's month in the ledger says its start as a person reads it, in UTC, not as ISO 8601.
    const month = await page.getByTestId('ledger-table').locator('tbody tr', { hasText: 'month 1' }).textContent();
    expect(month).toMatch(/month 1, from [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} UTC/);
    expect(month).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      await screenshot(page, width === 1280 ? 'billing' : 'billing-phone');
    }
  });

  it('does not offer to remove the last owner, which the server refuses too; the remove dialog wraps its text', async () => {
    const { page } = owner;
    await page.goto(consoleUrl(system, 'team'));
    await settled(page);
    const members = await consoleRequest(page, 'GET', '/users');
    const me = (members.body.data as { id: string; email: string }[]).find((m) => m.email === 'owner@quayside.test')!;
    expect(await page.getByRole('button', { name: 'Remove owner@quayside.test' }).count()).toBe(0);
    expect(await page.getByTestId('last-owner').textContent()).toBe('Last owner');
    const refused = await consoleRequest(page, 'DELETE', `/users/${encodeURIComponent(me.id)}`);
    expect([refused.status, refused.body.error.code]).toEqual([409, 'last_owner']);

    // The invitation e-mail says until when its link works as a person reads it, in UTC.
    const mail = await api.admin.request(
      'GET',
      `/admin/email?to=${encodeURIComponent('a.very.long.name.for.a.deckhand@quayside-ferries.test')}`,
    );
    const body = String(mail.body.data[0].body);
    expect(body).toMatch(/works once, until [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} UTC\)/);
    expect(body).not.toMatch(/\d{4}-\d{2}-\d{2}T/);

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      await page.getByRole('button', { name: 'Remove a.very.long.name.for.a.deckhand@quayside-ferries.test' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      // Every line of the dialog fits inside it: nothing is cut off at its edge.
      const fits = await dialog.evaluate((element) =>
        [...element.querySelectorAll('h2, p')].map((node) => ({
          text: node.textContent,
          fits:
            node.scrollWidth <= node.clientWidth &&
            node.getBoundingClientRect().right <= element.getBoundingClientRect().right,
          whiteSpace: getComputedStyle(node).whiteSpace,
        })),
      );
      for (const line of fits) expect(line).toEqual({ ...line, fits: true, whiteSpace: 'normal' });
      await screenshot(page, width === 1280 ? 'team-remove' : 'team-remove-phone');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
  });

  it('counts the live keys in test mode, where the list shows the test keys alone', async () => {
    const { page } = owner;
    await page.goto(consoleUrl(system, 'keys'));
    await settled(page);
    const all = await consoleRequest(page, 'GET', '/keys');
    const live = (all.body.data as { mode: string; revoked_at: string | null }[]).filter(
      (key) => key.mode === 'live' && !key.revoked_at,
    ).length;
    expect(live).toBe(2);
    expect((await consoleRequest(page, 'PUT', '/session/mode', { mode: 'test' })).status).toBe(200);
    try {
      await page.reload();
      await settled(page);
      await expect(page.getByText(/of 5 live keys/).textContent()).resolves.toContain(
        `${live} of 5 live keys, 0 of 5 test keys`,
      );
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 860 });
        await screenshot(page, width === 1280 ? 'keys-test-mode' : 'keys-test-mode-phone');
      }
    } finally {
      expect((await consoleRequest(page, 'PUT', '/session/mode', { mode: 'live' })).status).toBe(200);
    }
  });

  it('breaks identifiers in the keys and deliveries tables only after their dots and underscores', async () => {
    const { page } = owner;
    await page.goto(consoleUrl(system, `numbers/${numberId}`));
    await settled(page);
    const rows = page.getByTestId('deliveries-table').locator('tbody tr');
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Refresh deliveries' }).click();
        await page.waitForTimeout(200);
        return rows.count();
      },
      (count) => count >= 2,
    );
    await page.goto(consoleUrl(system, 'keys'));
    await settled(page);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      expect(await brokenMidWord(page, '.table code')).toEqual([]);
      await screenshot(page, width === 1280 ? 'keys-live' : 'keys-live-phone');
      await page.goto(consoleUrl(system, `numbers/${numberId}`));
      await settled(page);
      await page.getByTestId('deliveries-table').waitFor();
      expect(await brokenMidWord(page, '[data-testid="deliveries-table"] code')).toEqual([]);
      await screenshot(page, width === 1280 ? 'number-deliveries' : 'number-deliveries-phone');
      await page.goto(consoleUrl(system, 'keys'));
      await settled(page);
    }
  });

  it("shows the agent's default greeting beside the empty greeting field", async () => {
    const { page } = owner;
    await page.goto(consoleUrl(system, `numbers/${numberId}`));
    await settled(page);
    const field = page.getByLabel('Greeting');
    expect(await field.inputValue()).toBe('');
    const hint = await page
      .locator('#agent-title')
      .locator('xpath=..')
      .locator('.hint', { hasText: 'Left empty' })
      .textContent();
    expect(hint).toBe(
      'What the agent says when it answers. Left empty, it says: “Hello, thanks for calling. How can I help you today?”',
    );
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      await page.locator('#agent-title').scrollIntoViewIfNeeded();
      await screenshot(page, width === 1280 ? 'number-agent' : 'number-agent-phone');
    }
  });
});

/**
 * The identifiers matched by `selector` that the browser laid out over more than one line with a break anywhere but
 * after a dot, an underscore, a hyphen or the ellipsis: each as `text: where it broke`.
 */
function brokenMidWord(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const broken: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      const text = element.textContent ?? '';
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const tops: { char: string; top: number }[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < (node.textContent ?? '').length; i += 1) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (rect) tops.push({ char: node.textContent![i], top: Math.round(rect.top) });
        }
      }
      for (let i = 1; i < tops.length; i += 1) {
        if (tops[i].top > tops[i - 1].top && !/[._\-…]/.test(tops[i - 1].char))
          broken.push(`${text}: after "${text.slice(0, i)}"`);
      }
    }
    return broken;
  }, selector);
}
