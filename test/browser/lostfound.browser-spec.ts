import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AdminClient, type RunningSystem } from '../e2e/support';
import {
  consoleRequest,
  consoleUrl,
  eventually,
  inviteUser,
  launchChromium,
  screenshot,
  seriousAccessibilityProblems,
  settled,
  startConsoleSystem,
  userPage,
} from './support/console';

jest.setTimeout(120_000);

/**
 * Issue 16's pages in Chromium against the whole system (docs/adr/0080): venue staff log an item and find it again,
 * a claimant files a claim on the public page (an urgent category refused there), staff see the match beside the
 * claim and reunite with verified proof (the high-value rule explained when it is missing), dispose of an item
 * held too long, and reach nothing but the desk.
 */
describe('the lost-and-found desk and the claimant page', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let browser: Browser;
  let staff: { context: BrowserContext; page: Page; problems: string[] };
  let location: { id: number; name: string; public_slug: string };
  const password = 'lanterns over the harbour';
  const ids = { umbrella: 0, wallet: 0, claim: 0, walletClaim: 0 };

  /** The number of found items the desk's list says it holds. */
  async function itemTotal(page: Page): Promise<number> {
    return (await consoleRequest(page, 'GET', `/lostfound/found-items?location_id=${location.id}`)).body
      .total as number;
  }

  beforeAll(async () => {
    [system, browser] = await Promise.all([
      startConsoleSystem({ services: ['numbers-billing', 'lostfound'], env: { RATE_LIMIT_REQUESTS: '100000' } }),
      launchChromium(),
    ]);
    admin = new AdminClient(system);
    const accountId = (await admin.createAccount({ name: 'Harbour Ferries', balance_cents: 5_000 })).id;
    const created = await admin.request('POST', `/admin/accounts/${accountId}/locations`, {
      name: 'Harbour Terminal',
      hold_days: 30,
    });
    expect(created.status).toBe(201);
    location = created.body;
    staff = await userPage(browser);
    await staff.page.goto(await inviteUser(system, accountId, 'desk@harbour.test', 'staff'));
    await staff.page.getByLabel('Choose a password').fill(password);
    await staff.page.getByLabel('Type it again').fill(password);
    await staff.page.getByRole('button', { name: 'Set password and sign in' }).click();
    // Staff land on their desk, not on the calls.
    await staff.page.getByRole('heading', { level: 1, name: 'Lost & found' }).waitFor();
  });

  afterAll(async () => {
    await staff?.context.close();
    await browser?.close();
    await system?.stop();
  });

  afterEach(() => {
    expect(staff.problems.splice(0)).toEqual([]);
  });

  it('staff log a found item (a bad one refused at its field, nothing stored) and find it by q', async () => {
    const { page } = staff;
    const form = page.getByRole('form', { name: 'Log a found item' });
    await form.getByLabel('Category').fill('umbrella');
    await form.getByRole('button', { name: 'Log item' }).click();
    // No description: the server's 400, next to the field.
    const descriptionField = form.locator('.field', { has: page.getByLabel('What is it?') });
    await descriptionField.locator('.field-error').waitFor();
    await expect(descriptionField.locator('.field-error').textContent()).resolves.toMatch(/description/);
    expect(await itemTotal(page)).toBe(0);

    await form.getByLabel('What is it?').fill('Red umbrella with a wooden handle');
    await form.getByLabel('Colour').fill('red');
    await form.getByLabel('Where found').fill('Gate 4');
    await form.getByLabel('Storage').fill('Shelf A3');
    await form
      .getByLabel('Photo URLs')
      .fill('https://photos.example/umbrella.jpg\nhttps://photos.example/umbrella-handle.jpg');
    await form.getByRole('button', { name: 'Log item' }).click();
    await page.getByText(/Item #\d+ \(umbrella\) is logged/).waitFor();
    ids.umbrella = Number(
      /#(\d+)/.exec((await page.getByText(/Item #\d+ \(umbrella\) is logged/).textContent()) ?? '')?.[1],
    );

    await form.getByLabel('What is it?').fill('Black leather wallet, initials R.K.');
    await form.getByLabel('Category').fill('wallet');
    await form.getByLabel('Colour').fill('black');
    await form.getByRole('button', { name: 'Log item' }).click();
    await page.getByText(/Item #\d+ \(wallet\) is logged/).waitFor();
    ids.wallet = Number(
      /#(\d+)/.exec((await page.getByText(/Item #\d+ \(wallet\) is logged/).textContent()) ?? '')?.[1],
    );

    const search = page.getByRole('search', { name: 'Search items' });
    await search.getByLabel('Search').fill('wooden');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=wooden/);
    const rows = page.getByTestId('items-table').locator('tbody tr');
    await eventually(
      () => rows.count(),
      (count) => count === 1,
    );
    await expect(rows.first().textContent()).resolves.toContain('Red umbrella with a wooden handle');
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'lostfound-desk');

    await rows.first().getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: /Red umbrella/ }).waitFor();
    await page
      .getByRole('list', { name: 'Chain of custody, oldest first' })
      .getByText('Logged', { exact: true })
      .waitFor();
    await page.getByRole('link', { name: /Photo 1 \(primary\)/ }).waitFor();
    await page.getByRole('link', { name: /Photo 2/ }).waitFor();
    await expect(page.locator('.facts').textContent()).resolves.toContain('Shelf A3');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'lostfound-item');
  });

  it('the public page refuses an urgent category with a call-now message, shows field errors, and confirms a claim neutrally', async () => {
    const claimant = await userPage(browser, { width: 390 });
    try {
      const { page } = claimant;
      await page.goto(consoleUrl(system, `claim/${location.public_slug}`));
      await page.getByRole('heading', { level: 1, name: 'Lost something at Harbour Terminal?' }).waitFor();
      expect(await seriousAccessibilityProblems(page)).toEqual([]);

      await page.getByLabel('Your name').fill('Jane Smith');
      await page.getByLabel('Mobile phone').fill('+14155550142');
      await page.getByLabel('What did you lose?').fill('My little boy, he is six');
      await page.getByLabel('Category').fill('child');
      await page.getByRole('button', { name: 'Send my claim' }).click();
      const urgent = page.getByTestId('urgent-refusal');
      await urgent.waitFor();
      await expect(urgent.textContent()).resolves.toMatch(/call/i);
      expect(await seriousAccessibilityProblems(page)).toEqual([]);

      await page.getByLabel('What did you lose?').fill('Red umbrella, wooden handle');
      await page.getByLabel('Category').fill('umbrella');
      await page.getByLabel('Mobile phone').fill('not a phone');
      await page.getByRole('button', { name: 'Send my claim' }).click();
      const phoneField = page.locator('.field', { has: page.getByLabel('Mobile phone') });
      await phoneField.locator('.field-error').waitFor();
      await expect(phoneField.locator('.field-error').textContent()).resolves.toBe(
        'Enter a mobile number we can text, such as +1 415 555 0123 or (415) 555-0123.',
      );
      await expect(urgent.count()).resolves.toBe(0);

      await page.getByLabel('Mobile phone').fill('+14155550142');
      await page.getByLabel('Where did you lose it?').fill('Gate 4');
      await page.getByRole('button', { name: 'Send my claim' }).click();
      const received = page.getByText('Claim received');
      await received.waitFor();
      // Neutral: the same words whether an item matches or not (one does), nothing about any item.
      await expect(page.locator('main').textContent()).resolves.not.toMatch(
        /umbrella|wooden|Shelf|Gate|#\d|has a match|found it/i,
      );
      expect(await seriousAccessibilityProblems(page)).toEqual([]);
      const overflow = await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(Number(overflow)).toBeLessThanOrEqual(0);

      await page.goto(consoleUrl(system, `claim/${location.public_slug}`));
      await page.getByRole('heading', { level: 1, name: 'Lost something at Harbour Terminal?' }).waitFor();
      await screenshot(page, 'claimant');

      await page.goto(consoleUrl(system, 'claim/AAAAAAAAAAAAAAAAAAAAAA'));
      await page.getByText('There is no lost-and-found page at this address.').waitFor();
      expect(claimant.problems).toEqual([]);
    } finally {
      await claimant.context.close();
    }
  });

  it("the public page's errors are plain words beside their fields, never the API's field names (1280 and 375 px)", async () => {
    for (const width of [1280, 375]) {
      const claimant = await userPage(browser, { width });
      try {
        const { page } = claimant;
        await page.goto(consoleUrl(system, `claim/${location.public_slug}`));
        await page.getByRole('heading', { level: 1, name: 'Lost something at Harbour Terminal?' }).waitFor();
        await page.getByLabel('Email').fill('not an address');
        await page.getByLabel('When did you lose it?').fill('2026-11-20');
        await page.getByRole('button', { name: 'Send my claim' }).click();
        const errorOf = (label: string) =>
          page.locator('.field', { has: page.getByLabel(label) }).locator('.field-error');
        await errorOf('Your name').waitFor();
        const said = {
          name: await errorOf('Your name').textContent(),
          phone: await errorOf('Mobile phone').textContent(),
          email: await errorOf('Email').textContent(),
          description: await errorOf('What did you lose?').textContent(),
        };
        expect(said).toEqual({
          name: 'Tell us your name.',
          phone: 'Enter your mobile number, so that we can text you.',
          email: 'Enter an email address such as name@example.com, or leave it empty.',
          description: 'Tell us what you lost.',
        });
        const form = (await page.getByRole('form', { name: 'Your claim' }).textContent()) ?? '';
        expect(form).not.toMatch(/claimant_|lost_date|description is|is required|must be/);
        expect(await seriousAccessibilityProblems(page)).toEqual([]);
        const overflow = await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        expect(Number(overflow)).toBeLessThanOrEqual(0);
        await screenshot(page, width === 375 ? 'claimant-errors-phone' : 'claimant-errors');
        expect(claimant.problems).toEqual([]);
      } finally {
        await claimant.context.close();
      }
    }
  });

  it('staff see the claim beside its match and reunite it with verified proof', async () => {
    const { page } = staff;
    await page.goto(consoleUrl(system, `lostfound/claims?location=${location.id}`));
    const row = page.getByTestId('claims-table').locator('tbody tr', { hasText: 'Jane Smith' });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('match');
    ids.claim = Number(await row.getAttribute('data-claim-id'));
    await row.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: /Claim #\d+/ }).waitFor();
    const candidates = page.getByTestId('claim-candidates');
    const candidate = candidates.locator(`[data-candidate-id="${ids.umbrella}"]`);
    await candidate.waitFor();
    await expect(candidate.textContent()).resolves.toContain('Red umbrella with a wooden handle');
    await expect(page.getByTestId('claim-facts').textContent()).resolves.toContain('Jane Smith');
    await page
      .getByTestId('claim-facts')
      .getByRole('heading', { level: 3, name: 'Texts sent to the claimant' })
      .waitFor();
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'lostfound-claim');

    await candidate.getByRole('radio').check();
    await page.getByLabel("I have verified the claimant's proof of ownership").check();
    await page.getByRole('button', { name: 'Reunite' }).click();
    await page.getByText(`Item #${ids.umbrella} was given back to Jane Smith, with verified proof.`).waitFor();
    const detail = await consoleRequest(page, 'GET', `/lostfound/claims/${ids.claim}?location_id=${location.id}`);
    expect(detail.body.status).toBe('reunited');
    const item = await consoleRequest(page, 'GET', `/lostfound/found-items/${ids.umbrella}?location_id=${location.id}`);
    expect(item.body.status).toBe('returned');
  });

  it('explains the high-value rule when proof is not verified, and releases only once it is', async () => {
    const { page } = staff;
    const filed = await consoleRequest(page, 'POST', '/lostfound/claims', {
      location_id: location.id,
      claimant_name: 'Ravi Kumar',
      claimant_phone: '+14155550143',
      category: 'wallet',
      description: 'black leather wallet',
    });
    expect(filed.status).toBe(201);
    ids.walletClaim = filed.body.id;
    await page.goto(consoleUrl(system, `lostfound/claims/${ids.walletClaim}?location=${location.id}`));
    await page.getByText('High-value item', { exact: true }).waitFor();
    const candidate = page.getByTestId('claim-candidates').locator(`[data-candidate-id="${ids.wallet}"]`);
    await candidate.getByRole('radio').check();
    await page.getByRole('button', { name: 'Reunite' }).click();
    const error = page.locator('.field-error', { hasText: 'high-value item' });
    await error.waitFor();
    await expect(error.textContent()).resolves.toMatch(/proof of ownership/);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(
      (await consoleRequest(page, 'GET', `/lostfound/found-items/${ids.wallet}?location_id=${location.id}`)).body
        .status,
    ).toBe('stored');

    await page.getByLabel("I have verified the claimant's proof of ownership").check();
    await page.getByRole('button', { name: 'Reunite' }).click();
    await page.getByText(`Item #${ids.wallet} was given back to Ravi Kumar, with verified proof.`).waitFor();
  });

  it('staff donate an item held past its hold period, after confirming', async () => {
    const { page } = staff;
    const old = await consoleRequest(page, 'POST', '/lostfound/found-items', {
      location_id: location.id,
      category: 'scarf',
      description: 'Grey wool scarf',
      found_date: '2026-01-05',
    });
    expect(old.status).toBe(201);
    await page.goto(consoleUrl(system, `lostfound/items/${old.body.id}?location=${location.id}`));
    await page.getByRole('heading', { level: 2, name: 'Donate or dispose of' }).waitFor();
    await page.getByLabel('Note').fill('Red Cross shop, receipt 1234');
    await page.getByRole('button', { name: 'Mark donated' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Mark donated' }).click();
    await page.locator('.page-header .badge', { hasText: 'donated' }).waitFor();
    await page
      .getByRole('list', { name: 'Chain of custody, oldest first' })
      .getByText('Red Cross shop, receipt 1234')
      .waitFor();
  });

  it('staff see only the desk: no developer pages in the navigation, keys and numbers refused', async () => {
    const { page } = staff;
    await page.goto(consoleUrl(system, 'keys'));
    await page.getByRole('heading', { level: 1, name: 'Lost & found' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Console' });
    await expect(nav.getByRole('link').allTextContents()).resolves.toEqual(['Lost & found']);
    for (const path of ['/keys', '/numbers', '/calls', '/balance', '/users']) {
      const answer = await consoleRequest(page, 'GET', path);
      expect({ path, status: answer.status, code: answer.body.error.code }).toEqual({
        path,
        status: 403,
        code: 'forbidden',
      });
    }
    expect((await consoleRequest(page, 'POST', '/keys', {})).status).toBe(403);
  });

  it('works by keyboard alone: a visible focus ring on the desk, and a claim filed on the public page without a mouse', async () => {
    const { page } = staff;
    await page.goto(consoleUrl(system, `lostfound?location=${location.id}`));
    await settled(page);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(
      "(() => { const e = document.activeElement; const s = getComputedStyle(e); return { inMain: !!e.closest('main'), outline: s.outlineStyle, width: s.outlineWidth }; })()",
    );
    expect(focused).toEqual({ inMain: true, outline: 'solid', width: '3px' });

    const claimant = await userPage(browser);
    try {
      await claimant.page.goto(consoleUrl(system, `claim/${location.public_slug}`));
      await claimant.page.getByRole('heading', { level: 1, name: /Harbour Terminal/ }).waitFor();
      const keys = claimant.page.keyboard;
      await keys.press('Tab');
      await keys.type('Kim Lee');
      await keys.press('Tab');
      await keys.type('+14155550150');
      await keys.press('Tab'); // email, optional
      await keys.press('Tab');
      await keys.type('Blue scarf, wool');
      await keys.press('Tab'); // category, optional
      await keys.press('Tab');
      await keys.type('blue');
      await keys.press('Enter');
      await claimant.page.getByText('Claim received').waitFor();
      expect(claimant.problems).toEqual([]);
    } finally {
      await claimant.context.close();
    }
    const claims = await consoleRequest(page, 'GET', `/lostfound/claims?location_id=${location.id}&q=scarf`);
    expect(claims.body.data.map((c: { claimant_name: string }) => c.claimant_name)).toContain('Kim Lee');
  });

  it('passes the accessibility check on the desk at phone width (375 px), where nothing scrolls sideways', async () => {
    const phone = await userPage(browser, { width: 375 });
    try {
      await phone.page.goto(consoleUrl(system, 'sign-in'));
      await phone.page.getByLabel('Email').fill('desk@harbour.test');
      await phone.page.getByLabel('Password').fill(password);
      await phone.page.getByRole('button', { name: 'Sign in' }).click();
      await phone.page.getByRole('heading', { level: 1, name: 'Lost & found' }).waitFor();
      const at = `location=${location.id}`;
      const found: string[] = [];
      for (const path of [
        `lostfound?${at}`,
        `lostfound/items/${ids.umbrella}?${at}`,
        `lostfound/claims?${at}`,
        `lostfound/claims/${ids.claim}?${at}`,
        `lostfound/claims/${ids.walletClaim}?${at}`,
      ]) {
        await phone.page.goto(consoleUrl(system, path));
        await settled(phone.page);
        found.push(...(await seriousAccessibilityProblems(phone.page)).map((problem) => `${path}: ${problem}`));
        const overflow = await phone.page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        if (Number(overflow) > 0) found.push(`${path}: the page is ${String(overflow)} px wider than the screen`);
        if (path.startsWith('lostfound?')) await screenshot(phone.page, 'lostfound-desk-phone');
      }
      expect(found).toEqual([]);
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
