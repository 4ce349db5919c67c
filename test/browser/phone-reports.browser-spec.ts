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
  settled,
  signIn,
  startConsoleSystem,
  userPage,
} from './support/console';

jest.setTimeout(120_000);

/**
 * Issue 16's reports by phone in Chromium against the whole system (docs/adr/0079): an owner makes a number the
 * location's lost-and-found line on the number's page, a caller reports a lost umbrella to the agent (the simulated
 * provider's call report), the report is a claim on the desk with `source` phone, and logging the matching item
 * texts the caller, which the claim page then shows. A system of its own: the calls-media service is needed here and
 * nowhere else in the browser tests.
 */
describe('a report by phone becomes a claim and a text', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let browser: Browser;
  let owner: { context: BrowserContext; page: Page; problems: string[] };
  let location: { id: number; name: string };
  let number: { id: string; phone_number: string };
  let accountId: string;
  const caller = '+14155550188';
  const password = 'copper kettle on the moor';

  beforeAll(async () => {
    [system, browser] = await Promise.all([
      startConsoleSystem({
        services: ['numbers-billing', 'calls-media', 'lostfound', 'webhook-dispatcher'],
        env: { RATE_LIMIT_REQUESTS: '100000' },
      }),
      launchChromium(),
    ]);
    admin = new AdminClient(system);
    accountId = (await admin.createAccount({ name: 'Harbour Ferries', balance_cents: 5_000 })).id;
    const created = await admin.request('POST', `/admin/accounts/${accountId}/locations`, { name: 'Pier 9 Terminal' });
    expect(created.status).toBe(201);
    location = created.body;
    owner = await userPage(browser);
    await acceptInvite(owner.page, await inviteUser(system, accountId, 'owner@harbour.test', 'owner'), password);
    expect((await admin.request('PUT', '/admin/provider/stock/617', { available: 3 })).status).toBe(200);
    const provisioned = await consoleRequest(owner.page, 'POST', '/numbers', {
      business_phone: '+16175550100',
      area_code: '617',
    });
    expect(provisioned.status).toBe(201);
    number = provisioned.body;
  });

  afterAll(async () => {
    await owner?.context.close();
    await browser?.close();
    await system?.stop();
  });

  afterEach(() => {
    expect(owner.problems.splice(0)).toEqual([]);
  });

  it("the owner makes the number the location's lost-and-found line on the number's page", async () => {
    const { page } = owner;
    await page.goto(consoleUrl(system, `numbers/${number.id}`));
    const card = page.getByRole('form', { name: 'Lost-and-found line' });
    await card.getByLabel('Location').waitFor();
    await expect(card.getByLabel('Location').inputValue()).resolves.toBe('');
    await card.getByLabel('Location').selectOption({ label: 'Pier 9 Terminal' });
    await card.getByRole('button', { name: 'Save lost-and-found line' }).click();
    await card.getByText('Lost-item reports on this number now become claims at Pier 9 Terminal.').waitFor();
    const line = await consoleRequest(page, 'GET', `/numbers/${number.id}/lostfound-line`);
    expect(line.body).toEqual({ number_id: number.id, location_id: location.id });
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'number-lostfound-line');
  });

  it('a lost-item report by phone is a claim on the desk, and logging the match texts the caller', async () => {
    const { page } = owner;
    const report = await admin.request('POST', '/admin/provider/calls', {
      to: number.phone_number,
      caller,
      duration_sec: 80,
      outcome: 'lost_item_report',
      lost_item: {
        category: 'umbrella',
        description: 'Green umbrella with a duck handle',
        color: 'green',
        where_lost: 'Ferry deck',
        caller_name: 'Sam Lee',
      },
    });
    expect(report.status).toBe(202);

    // The claim crosses services by event: wait for it on the API before opening the desk.
    await eventually(
      async () => (await consoleRequest(page, 'GET', `/lostfound/claims?location_id=${location.id}`)).body.total,
      (total) => total === 1,
    );
    await page.goto(consoleUrl(system, `lostfound/claims?location=${location.id}`));
    const row = page.getByTestId('claims-table').locator('tbody tr', { hasText: 'Sam Lee' });
    await row.waitFor();
    const claimId = Number(await row.getAttribute('data-claim-id'));
    await row.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: `Claim #${claimId}` }).waitFor();
    await expect(page.locator('.page-header').textContent()).resolves.toMatch(/\(phone\)/);
    const facts = page.getByTestId('claim-facts');
    await expect(facts.textContent()).resolves.toContain(caller);
    await facts.getByText('No text sent yet.').waitFor();

    await page.goto(consoleUrl(system, `lostfound?location=${location.id}`));
    const form = page.getByRole('form', { name: 'Log a found item' });
    await form.getByLabel('What is it?').fill('Green umbrella, duck-head handle');
    await form.getByLabel('Category').fill('umbrella');
    await form.getByLabel('Colour').fill('green');
    await form.getByLabel('Where found').fill('Ferry deck');
    await form.getByRole('button', { name: 'Log item' }).click();
    await page.getByText(/Item #\d+ \(umbrella\) is logged/).waitFor();

    const texts = await eventually(
      async () => (await admin.request('GET', `/admin/sms?to=${encodeURIComponent(caller)}`)).body.data,
      (data: { body: string }[]) => data.length > 0,
    );
    expect(texts).toEqual([{ to: caller, body: expect.stringContaining('umbrella'), sent_at: expect.any(String) }]);

    await page.goto(consoleUrl(system, `lostfound/claims/${claimId}?location=${location.id}`));
    const sent = page.getByTestId('claim-texts');
    await sent.waitFor();
    await expect(sent.textContent()).resolves.toContain(texts[0].body);
    // Still one claim for the one call.
    expect((await consoleRequest(page, 'GET', `/lostfound/claims?location_id=${location.id}`)).body.total).toBe(1);
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'lostfound-phone-claim');
  });

  it('a phone reported lost meets the phone logged at the desk with no category: the claim page offers it to reunite', async () => {
    const { page } = owner;
    const phoneCaller = '+14155550189';
    const report = await admin.request('POST', '/admin/provider/calls', {
      to: number.phone_number,
      caller: phoneCaller,
      duration_sec: 65,
      outcome: 'lost_item_report',
      lost_item: {
        category: 'phone',
        description: 'Black iPhone 13 in a red case',
        color: 'black',
        where_lost: 'Ferry deck',
        caller_name: 'Ana Ruiz',
      },
    });
    expect(report.status).toBe(202);
    const claims = await eventually(
      async () =>
        (await consoleRequest(page, 'GET', `/lostfound/claims?location_id=${location.id}&q=iphone`)).body.data,
      (data: { id: number }[]) => data.length === 1,
    );
    const claimId = claims[0].id;

    // The desk logs it as staff type it: the category left empty.
    await page.goto(consoleUrl(system, `lostfound?location=${location.id}`));
    const form = page.getByRole('form', { name: 'Log a found item' });
    await form.getByLabel('What is it?').fill('Black iPhone 13, red case');
    await form.getByLabel('Colour').fill('black');
    await form.getByLabel('Where found').fill('Ferry deck');
    await form.getByLabel('Storage').fill('Safe 1');
    await form.getByRole('button', { name: 'Log item' }).click();
    const logged = page.getByText(/Item #\d+ \(phone\) is logged/);
    await logged.waitFor();
    const itemId = Number(/#(\d+)/.exec((await logged.textContent()) ?? '')?.[1]);
    const texts = await eventually(
      async () => (await admin.request('GET', `/admin/sms?to=${encodeURIComponent(phoneCaller)}`)).body.data,
      (data: { body: string }[]) => data.length > 0,
    );
    expect(texts[0].body).toContain('possible match');

    await page.goto(consoleUrl(system, `lostfound/claims?location=${location.id}`));
    const row = page.getByTestId('claims-table').locator(`tbody tr[data-claim-id="${claimId}"]`);
    await expect(row.textContent()).resolves.toMatch(/match/i);
    await row.getByRole('link').click();
    const candidates = page.getByTestId('claim-candidates');
    const candidate = candidates.locator(`[data-candidate-id="${itemId}"]`);
    await candidate.waitFor();
    await expect(candidate.textContent()).resolves.toContain('Black iPhone 13, red case');
    await expect(candidate.textContent()).resolves.toContain('Safe 1');
    await expect(candidates.textContent()).resolves.not.toContain('No candidate item yet');
    await candidates.getByRole('button', { name: 'Reunite' }).waitFor();
    const timeline = page.getByRole('list', { name: "The claim's timeline, oldest first" });
    await expect(timeline.textContent()).resolves.toMatch(/Call \S{20,}/);
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'lostfound-phone-claim-match');

    // Without the proof box ticked: refused beside the box, which the message names by its own label.
    await candidates.getByRole('button', { name: 'Reunite' }).click();
    const refusal = candidates.locator('.field-error');
    await refusal.waitFor();
    const box = candidates.getByRole('checkbox');
    const label = (await candidates.locator(`label[for="${await box.getAttribute('id')}"]`).textContent()) ?? '';
    expect(label).toBe("I have verified the claimant's proof of ownership");
    await expect(refusal.textContent()).resolves.toContain(`"${label}"`);
    await expect(refusal.textContent()).resolves.not.toMatch(/verified: true|verified=/);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'lostfound-reunite-proof');

    // At phone width the call SID wraps inside its card; the refusal reads the same.
    const phone = await userPage(browser, { width: 375 });
    try {
      await signIn(phone.page, system, 'owner@harbour.test', password);
      await phone.page.goto(consoleUrl(system, `lostfound/claims/${claimId}?location=${location.id}`));
      const phoneCandidates = phone.page.getByTestId('claim-candidates');
      await phoneCandidates.locator(`[data-candidate-id="${itemId}"]`).waitFor();
      await settled(phone.page);
      const facts = await phone.page.getByTestId('claim-facts').boundingBox();
      const notes = phone.page
        .getByRole('list', { name: "The claim's timeline, oldest first" })
        .locator('.timeline-note');
      for (const note of await notes.all()) {
        const edge = await note.boundingBox();
        const wide = await note.evaluate((element) => element.scrollWidth - element.clientWidth);
        expect({ right: Math.round(edge!.x + edge!.width) <= Math.round(facts!.x + facts!.width), wide }).toEqual({
          right: true,
          wide: 0,
        });
      }
      const overflow = await phone.page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(Number(overflow)).toBeLessThanOrEqual(0);
      expect(await seriousAccessibilityProblems(phone.page)).toEqual([]);
      await screenshot(phone.page, 'lostfound-phone-claim-match-phone');
      await phoneCandidates.getByRole('button', { name: 'Reunite' }).click();
      await phoneCandidates.locator('.field-error').waitFor();
      await phoneCandidates.locator('.field-error').scrollIntoViewIfNeeded();
      await screenshot(phone.page, 'lostfound-reunite-proof-phone');
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }

    await box.check();
    await candidates.getByRole('button', { name: 'Reunite' }).click();
    await page.getByText(`Item #${itemId} was given back to Ana Ruiz, with verified proof.`).waitFor();
  });

  it("says plainly in test mode that the live locations are not the test twin's, and names the twin", async () => {
    const { page } = owner;
    const twin = `acct_test_${accountId.slice('acct_'.length)}`;
    expect((await consoleRequest(page, 'PUT', '/session/mode', { mode: 'test' })).status).toBe(200);
    try {
      await page.goto(consoleUrl(system, 'lostfound'));
      const empty = page.getByTestId('desk-no-location');
      await empty.waitFor();
      const said = (await empty.textContent()) ?? '';
      expect(said).toContain(twin);
      expect(said).toContain("The live account's location is not shared with test data.");
      expect(said).not.toContain('None of this account');
      await settled(page);
      expect(await seriousAccessibilityProblems(page)).toEqual([]);
      await screenshot(page, 'lostfound-test-mode-empty');

      const created = await admin.request('POST', `/admin/accounts/${twin}/locations`, { name: 'Test Pier' });
      expect(created.status).toBe(201);
      await page.reload();
      const note = page.getByTestId('desk-test-account');
      await note.waitFor();
      await expect(note.textContent()).resolves.toContain(twin);
      await expect(page.getByTestId('desk-location').textContent()).resolves.toBe('Test Pier');
      await screenshot(page, 'lostfound-test-mode');
    } finally {
      expect((await consoleRequest(page, 'PUT', '/session/mode', { mode: 'live' })).status).toBe(200);
    }
  });
});
