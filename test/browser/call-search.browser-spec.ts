import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AnalysisFieldsRepository } from '../../apps/calls-media/src/number-ownership/analysis-fields.repository';
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
  settled,
  signIn,
  startConsoleSystem,
  userPage,
} from './support/console';

jest.setTimeout(120_000);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A simulated call as the operator API reports it (`POST /admin/provider/calls`). */
interface SeededCall {
  to: string;
  caller: string;
  duration_sec: number;
  outcome: string;
  started_at: string;
  transcript?: { role: string; text: string }[];
  analysis?: {
    summary?: string;
    sentiment?: string;
    successful?: boolean;
    custom?: Record<string, unknown>;
  };
}

/**
 * Calls a business can read, in Chromium against the whole system: an owner declares the agent's analysis fields on
 * the number page (a refused one shown at its field), searches the calls' transcripts and summaries (the match shown
 * highlighted, and as text: a caller's markup never becomes HTML), narrows the list with each filter (kept in the
 * address, so Back goes back a search), reads the chart of calls per day by outcome with the success rate, and reads
 * a call's analysis.
 */
describe('calls a business can read: search, filters, chart, analysis', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let accountId: string;
  let pizza: { id: string; phone_number: string };
  let catering: { id: string; phone_number: string };
  /** The seeded calls' ids, by name. */
  const sid: Record<string, string> = {};
  const password = 'saffron lighthouse tuesday 7';

  beforeAll(async () => {
    [system, browser] = await Promise.all([
      startConsoleSystem({ env: { RATE_LIMIT_REQUESTS: '100000' } }),
      launchChromium(),
    ]);
    admin = new AdminClient(system);
    accountId = (await admin.createAccount({ name: 'Pizza Planet', balance_cents: 10_000 })).id;
    ({ context, page, problems } = await userPage(browser));
    await acceptInvite(page, await inviteUser(system, accountId, 'ada@pizza-planet.test', 'owner'), password);
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 5 })).status).toBe(200);
    const provision = async () => {
      const created = await consoleRequest(page, 'POST', '/numbers', {
        business_phone: '+14155550100',
        area_code: '415',
      });
      expect(created.status).toBe(201);
      return { id: created.body.id as string, phone_number: created.body.phone_number as string };
    };
    pizza = await provision();
    catering = await provision();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await system?.stop();
  });

  afterEach(() => {
    // Nothing the strict CSP refused, no uncaught error in the page.
    expect(problems.splice(0)).toEqual([]);
  });

  /** The calls the table shows, once it shows exactly `expected` (any order). */
  async function expectCalls(expected: string[]): Promise<void> {
    const want = expected.map((name) => sid[name]).sort();
    await eventually(
      async () => {
        if (want.length === 0) return (await page.getByText(/^No calls match/).count()) > 0 ? [] : ['(not empty)'];
        // One read of the rows as they are now (the list may be changing under the test).
        const ids = await page
          .locator('[data-testid="calls-table"] tbody tr[data-call-id]')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-call-id') ?? ''));
        return ids.sort();
      },
      (ids) => JSON.stringify(ids) === JSON.stringify(want),
    );
  }

  const filterForm = () => page.getByRole('search', { name: 'Search calls' });
  const apply = () => filterForm().getByRole('button', { name: 'Apply' }).click();
  const param = (name: string) => new URL(page.url()).searchParams.get(name);

  it("declares the agent's analysis fields on the number page; a refused one is shown at its field", async () => {
    await page.goto(consoleUrl(system, `numbers/${pizza.id}`));
    const editor = page.getByRole('group', { name: 'Analysis fields' });
    await editor.getByText('No analysis fields').waitFor();
    const rows = editor.getByTestId('analysis-field');
    const fill = async (index: number, name: string, type: string, description: string, choices?: string) => {
      const row = rows.nth(index);
      await row.getByLabel('Name', { exact: true }).fill(name);
      await row.getByLabel('Type', { exact: true }).selectOption({ label: type });
      await row.getByLabel('Description', { exact: true }).fill(description);
      if (choices !== undefined) await row.getByLabel('Choices', { exact: true }).fill(choices);
    };
    for (let i = 0; i < 3; i++) await editor.getByRole('button', { name: 'Add field' }).click();
    await fill(0, 'order_total', 'Number', 'The order total in US dollars, if the caller ordered.');
    // `outcome` is Switchboard's own: the server refuses it, and the page says so next to that name.
    await fill(1, 'outcome', 'Yes or no', 'Whether the order is for pickup.');
    await fill(2, 'order_type', 'One of a list', 'Pickup or delivery.', 'pickup, delivery');
    await page.getByRole('button', { name: 'Save agent' }).click();
    const nameError = rows.nth(1).locator('.field-error');
    await nameError.waitFor();
    await expect(nameError.textContent()).resolves.toMatch(/^name must .*\boutcome\b.*\blost_item\b.*\.$/);
    await expect(rows.nth(1).getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByRole('alert').filter({ hasText: 'Not saved: an analysis field needs a change' }).waitFor();
    expect((await consoleRequest(page, 'GET', `/numbers/${pizza.id}/agent`)).body.analysis_fields).toEqual([]);
    await screenshot(page, 'number-agent-fields-error');

    // A field added and removed again is not sent.
    await editor.getByRole('button', { name: 'Add field' }).click();
    await expect(rows.count()).resolves.toBe(4);
    await rows
      .nth(3)
      .getByRole('button', { name: /^Remove Field 4/ })
      .click();
    await expect(rows.count()).resolves.toBe(3);

    await rows.nth(1).getByLabel('Name', { exact: true }).fill('pickup');
    await expect(nameError.count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Save agent' }).click();
    await page.getByText('Saved. The agent gets the new settings within seconds.').waitFor();
    const declared = [
      { name: 'order_total', type: 'number', description: 'The order total in US dollars, if the caller ordered.' },
      { name: 'pickup', type: 'boolean', description: 'Whether the order is for pickup.' },
      { name: 'order_type', type: 'enum', description: 'Pickup or delivery.', choices: ['pickup', 'delivery'] },
    ];
    expect((await consoleRequest(page, 'GET', `/numbers/${pizza.id}/agent`)).body.analysis_fields).toEqual(declared);

    // Read back after a reload: the choices one per line.
    await page.reload();
    await rows.nth(2).waitFor();
    await expect(rows.nth(2).getByLabel('Choices', { exact: true }).inputValue()).resolves.toBe('pickup\ndelivery');
    await expect(rows.nth(0).getByLabel('Type', { exact: true }).inputValue()).resolves.toBe('number');
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await editor.scrollIntoViewIfNeeded();
    await screenshot(page, 'number-agent-fields');

    // calls-media reads each call's custom values against the fields it heard of: the calls below need them there.
    const known = system.services['calls-media']!.get(AnalysisFieldsRepository);
    await eventually(
      () => known.fieldsOf(pizza.id),
      (fields) => fields.length === 3,
    );
  });

  it('lists the seeded calls, their analysis kept', async () => {
    const now = Date.now();
    const calls: Record<string, SeededCall> = {
      gluten: {
        to: pizza.phone_number,
        caller: '+14155550101',
        duration_sec: 240,
        outcome: 'order_placed',
        started_at: new Date(now - 2 * DAY).toISOString(),
        transcript: [
          { role: 'agent', text: 'Pizza Planet, how can I help?' },
          { role: 'caller', text: 'Do you have a gluten-free crust? A large one for pickup at seven, please.' },
        ],
        analysis: {
          summary: 'The caller ordered a large gluten-free pizza for pickup at 7pm.',
          sentiment: 'positive',
          successful: true,
          custom: { order_total: 23.5, pickup: true, order_type: 'pickup' },
        },
      },
      manager: {
        to: pizza.phone_number,
        caller: '+14155550102',
        duration_sec: 45,
        outcome: 'transferred',
        started_at: new Date(now - 1 * DAY).toISOString(),
        transcript: [{ role: 'caller', text: 'I need to talk to a manager about a catering complaint.' }],
        analysis: { summary: 'Asked for a manager about a complaint.', sentiment: 'negative', successful: false },
      },
      party: {
        to: catering.phone_number,
        caller: '+14155550103',
        duration_sec: 90,
        outcome: 'message_taken',
        started_at: new Date(now - 3 * DAY).toISOString(),
        transcript: [{ role: 'caller', text: "Tom & Jerry's <b>party</b> needs a table for twelve on Friday." }],
        analysis: { sentiment: 'neutral', successful: true },
      },
      pepperoni: {
        to: pizza.phone_number,
        caller: '+14155550101',
        duration_sec: 600,
        outcome: 'order_placed',
        started_at: new Date(now - 5 * DAY).toISOString(),
        transcript: [{ role: 'caller', text: 'Two pepperoni pizzas for delivery to Elm Street.' }],
        analysis: {
          summary: 'Ordered two pepperoni pizzas for delivery.',
          sentiment: 'positive',
          successful: true,
          custom: { order_total: 31, pickup: false, order_type: 'delivery' },
        },
      },
      silent: {
        to: catering.phone_number,
        caller: '+14155550104',
        duration_sec: 20,
        outcome: 'hung_up',
        started_at: new Date(now - 2 * HOUR).toISOString(),
      },
    };
    for (const [name, call] of Object.entries(calls)) {
      const reported = await admin.request('POST', '/admin/provider/calls', call);
      expect([name, reported.status]).toEqual([name, 202]);
      sid[name] = reported.body.call_sid;
    }
    await eventually(
      async () => (await consoleRequest(page, 'GET', '/calls?limit=20')).body.data?.length,
      (count) => count === 5,
    );
    const gluten = (await consoleRequest(page, 'GET', `/calls/${sid.gluten}`)).body;
    expect(gluten.analysis).toEqual(calls.gluten.analysis);

    await page.goto(consoleUrl(system, 'calls'));
    await expectCalls(['gluten', 'manager', 'party', 'pepperoni', 'silent']);
  });

  it('finds a call by what was said and shows the match highlighted, as text', async () => {
    await page.goto(consoleUrl(system, 'calls'));
    await filterForm().getByLabel('Search').fill('gluten');
    await apply();
    await expectCalls(['gluten']);
    expect(param('q')).toBe('gluten');
    await expect(page.getByTestId('calls-count').textContent()).resolves.toBe('1 call matches.');
    const match = page.locator(`[data-call-id="${sid.gluten}"]`).getByTestId('call-match');
    const marked = await match.locator('mark').allTextContents();
    expect(marked.length).toBeGreaterThan(0);
    for (const word of marked) expect(word.toLowerCase()).toContain('gluten');
    expect(await match.textContent()).toMatch(/gluten-free/i);
    // Words in any form: "ordering" finds the summary's "ordered".
    await filterForm().getByLabel('Search').fill('ordering pepperoni');
    await apply();
    await expectCalls(['pepperoni']);

    // A caller's markup is words in the transcript: shown as they said it, never as an element.
    await filterForm().getByLabel('Search').fill('party');
    await apply();
    await expectCalls(['party']);
    const party = page.locator(`[data-call-id="${sid.party}"]`).getByTestId('call-match');
    await expect(party.locator('mark').allTextContents()).resolves.toEqual(['party']);
    await expect(party.locator('b').count()).resolves.toBe(0);
    // The server's escaping undone once: the caller's ampersand and apostrophe, not `&amp;` or `&#39;`.
    await expect(party.textContent()).resolves.toContain("Tom & Jerry's");

    // Nothing matches: said so, with the words searched.
    await filterForm().getByLabel('Search').fill('anchovies');
    await apply();
    await page.getByText('No calls match “anchovies”. Try other words, or fewer of them.').waitFor();

    // Shared as a link, the search is the same page.
    const shared = consoleUrl(system, 'calls?q=gluten');
    await page.goto(shared);
    await expectCalls(['gluten']);
    await expect(filterForm().getByLabel('Search').inputValue()).resolves.toBe('gluten');
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'calls-search');
  });

  it('narrows the list with each filter, keeps them in the address, and Back goes back a search', async () => {
    await page.goto(consoleUrl(system, 'calls'));
    await expectCalls(['gluten', 'manager', 'party', 'pepperoni', 'silent']);
    const form = filterForm();

    // Outcome: one, then two (a comma list in the address).
    await form.getByRole('checkbox', { name: 'Transferred', exact: true }).check();
    await apply();
    await expectCalls(['manager']);
    expect(param('outcome')).toBe('transferred');
    await form.getByRole('checkbox', { name: 'Message taken', exact: true }).check();
    await apply();
    await expectCalls(['manager', 'party']);
    expect(param('outcome')).toBe('transferred,message_taken');
    await expect(page.getByTestId('calls-count').textContent()).resolves.toBe('2 calls match.');

    // Back: the previous search, its list and its form.
    await page.goBack();
    await expectCalls(['manager']);
    await expect(form.getByRole('checkbox', { name: 'Message taken', exact: true }).isChecked()).resolves.toBe(false);
    await expect(form.getByRole('checkbox', { name: 'Transferred', exact: true }).isChecked()).resolves.toBe(true);
    await page.goForward();
    await expectCalls(['manager', 'party']);
    await form.getByRole('button', { name: 'Clear filters' }).click();
    await expectCalls(['gluten', 'manager', 'party', 'pepperoni', 'silent']);
    expect(new URL(page.url()).search).toBe('');

    // Sentiment.
    await form.getByLabel('Sentiment').selectOption('positive');
    await apply();
    await expectCalls(['gluten', 'pepperoni']);
    expect(param('sentiment')).toBe('positive');
    await form.getByLabel('Sentiment').selectOption('');
    await apply();
    await expectCalls(['gluten', 'manager', 'party', 'pepperoni', 'silent']);

    // Duration, in minutes (the address keeps the API's seconds); both ends included.
    await form.getByLabel('At least').fill('4');
    await apply();
    await expectCalls(['gluten', 'pepperoni']);
    expect(param('min_duration')).toBe('240');
    await form.getByLabel('At least').fill('');
    await form.getByLabel('At most').fill('1.5');
    await apply();
    await expectCalls(['manager', 'party', 'silent']);
    expect(param('max_duration')).toBe('90');
    await form.getByLabel('At least').fill('5');
    await apply();
    await form.getByText('The longest is shorter than the shortest.').waitFor();
    expect(param('max_duration')).toBe('90');
    await form.getByLabel('At least').fill('');
    await form.getByLabel('At most').fill('');
    await apply();
    await expectCalls(['gluten', 'manager', 'party', 'pepperoni', 'silent']);

    // Caller, as pasted.
    await form.getByLabel('Caller').fill('+1 (415) 555-0101');
    await apply();
    await expectCalls(['gluten', 'pepperoni']);
    expect(param('caller')).toBe('+14155550101');
    await form.getByLabel('Caller').fill('');

    // Number.
    await form.getByLabel('Number', { exact: true }).selectOption(catering.id);
    await apply();
    await expectCalls(['party', 'silent']);
    expect(param('number_id')).toBe(catering.id);

    // Together with a search: both apply.
    await form.getByLabel('Number', { exact: true }).selectOption(pizza.id);
    await form.getByLabel('Search').fill('pizza');
    await apply();
    await expectCalls(['gluten', 'pepperoni']);
    await form.getByLabel('Sentiment').selectOption('positive');
    await form.getByLabel('At least').fill('5');
    await apply();
    await expectCalls(['pepperoni']);
    await form.getByRole('button', { name: 'Clear filters' }).click();
    await expectCalls(['gluten', 'manager', 'party', 'pepperoni', 'silent']);
  });

  it("shows a filter the API refuses as the page shows the API's errors, at its field too", async () => {
    await page.goto(consoleUrl(system, 'calls'));
    await filterForm().getByLabel('Caller').fill('12345');
    await apply();
    const alert = page.getByRole('alert').filter({ hasText: 'caller must be a phone number in E.164 form' });
    await alert.waitFor();
    await expect(filterForm().getByLabel('Caller').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByTestId('calls-table').count()).resolves.toBe(0);
    await filterForm().getByRole('button', { name: 'Clear filters' }).click();
    await expectCalls(['gluten', 'manager', 'party', 'pepperoni', 'silent']);
    await expect(alert.count()).resolves.toBe(0);
  });

  it('draws calls per day by outcome with the success rate, following the number filter', async () => {
    await page.goto(consoleUrl(system, 'calls'));
    const chart = page.getByTestId('calls-chart');
    await chart.waitFor();
    await expect(chart.locator('figcaption').textContent()).resolves.toMatch(/^5 calls in the last 30 days/);
    await expect(chart.locator('svg.recharts-surface').first().isVisible()).resolves.toBe(true);
    await eventually(
      () => chart.locator('.recharts-bar-rectangle').count(),
      (bars) => bars >= 5,
    );
    const legend = await chart.locator('.recharts-legend-item-text').allTextContents();
    expect(legend).toEqual(
      expect.arrayContaining(['Order placed', 'Transferred', 'Message taken', 'Hung up', 'Success rate']),
    );
    expect(legend.indexOf('Order placed')).toBe(0); // most calls first
    await expect(chart.locator('.recharts-line-curve').count()).resolves.toBe(1);

    // The same numbers as a table.
    await chart.getByText('Show as a table').click();
    const dayRows = chart.locator('.chart-table tbody tr');
    await expect(dayRows.count()).resolves.toBeGreaterThanOrEqual(30);
    const twoDaysAgo = await dayRows.filter({ hasText: 'Order placed: 1' }).allTextContents();
    expect(twoDaysAgo.some((text) => text.includes('100%'))).toBe(true);

    // Following the number: the catering line's two calls.
    await filterForm().getByLabel('Number', { exact: true }).selectOption(catering.id);
    await apply();
    await eventually(
      () => chart.locator('figcaption').textContent(),
      (text) => (text ?? '').startsWith(`2 calls to ${catering.phone_number} in the last 30 days`),
    );
    const numberLegend = await chart.locator('.recharts-legend-item-text').allTextContents();
    expect(numberLegend).toEqual(expect.arrayContaining(['Message taken', 'Hung up']));
    expect(numberLegend).not.toContain('Order placed');

    // And the dates: a range without calls says so.
    await filterForm().getByLabel('From').fill('2020-01-01');
    await filterForm().getByLabel('To').fill('2020-01-31');
    await apply();
    await page.getByText(`No calls to ${catering.phone_number} from Jan 1 to Jan 31.`).waitFor();
    await filterForm().getByRole('button', { name: 'Clear filters' }).click();
    await chart.waitFor();
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'calls-chart');
  });

  it("shows a call's analysis: summary, sentiment, success and the number's own fields", async () => {
    await page.goto(consoleUrl(system, `calls/${sid.gluten}`));
    const panel = page.getByTestId('call-analysis');
    await panel.waitFor();
    await expect(panel.getByTestId('analysis-summary').textContent()).resolves.toBe(
      'The caller ordered a large gluten-free pizza for pickup at 7pm.',
    );
    const facts = async (locator: ReturnType<Page['locator']>) =>
      Object.fromEntries(
        await Promise.all(
          (await locator.locator(':scope > div').all()).map(
            async (row) => [await row.locator('dt').textContent(), await row.locator('dd').textContent()] as const,
          ),
        ),
      );
    await expect(facts(panel.locator('dl.facts--row'))).resolves.toEqual({ Sentiment: 'Positive', Successful: 'Yes' });
    await expect(facts(panel.getByTestId('analysis-custom'))).resolves.toEqual({
      order_total: '23.5',
      pickup: 'Yes',
      order_type: 'pickup',
    });
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'call-analysis');

    // Judged unsuccessful, no custom fields.
    await page.goto(consoleUrl(system, `calls/${sid.manager}`));
    await panel.getByTestId('analysis-summary').waitFor();
    await expect(facts(panel.locator('dl.facts--row'))).resolves.toEqual({ Sentiment: 'Negative', Successful: 'No' });
    await panel.getByText('No values for this call.').waitFor();

    // Nothing from the agent at all.
    await page.goto(consoleUrl(system, `calls/${sid.silent}`));
    await panel.getByText('The agent gave no analysis of this call.').waitFor();
    await expect(panel.getByRole('link', { name: "the number's agent settings" }).getAttribute('href')).resolves.toBe(
      `/console/numbers/${catering.id}`,
    );
  });

  it('fits a phone: the search, the chart, the analysis and the fields at 375 px, nothing wider than the screen', async () => {
    const phone = await userPage(browser, { width: 375 });
    try {
      await signIn(phone.page, system, 'ada@pizza-planet.test', password);
      const wide = () =>
        phone.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

      await phone.page.goto(consoleUrl(system, 'calls?q=gluten'));
      await phone.page.getByTestId('call-match').waitFor();
      await phone.page.getByTestId('calls-chart').locator('.recharts-bar-rectangle').first().waitFor();
      await settled(phone.page);
      // The filters wait behind a button; opened, they fit too.
      await phone.page.getByRole('button', { name: 'Filters', exact: true }).click();
      await phone.page.getByLabel('Sentiment').waitFor();
      await expect(wide()).resolves.toBe(false);
      expect(await seriousAccessibilityProblems(phone.page)).toEqual([]);
      await screenshot(phone.page, 'calls-search-phone');

      await phone.page.goto(consoleUrl(system, `calls/${sid.gluten}`));
      await phone.page.getByTestId('analysis-custom').waitFor();
      await settled(phone.page);
      await expect(wide()).resolves.toBe(false);
      await screenshot(phone.page, 'call-analysis-phone');

      await phone.page.goto(consoleUrl(system, `numbers/${pizza.id}`));
      await phone.page.getByTestId('analysis-field').nth(2).waitFor();
      await settled(phone.page);
      await expect(wide()).resolves.toBe(false);
      expect(await seriousAccessibilityProblems(phone.page)).toEqual([]);
      await screenshot(phone.page, 'number-agent-fields-phone');
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
