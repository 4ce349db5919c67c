import { readFile } from 'node:fs/promises';
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

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Role = 'owner' | 'developer' | 'viewer';

/**
 * What a business keeps of its calls, in Chromium against the whole system (docs/call-data.md): an owner chooses the
 * storage mode and the retention periods on the Data & retention page (a refused period shown at its field); a viewer
 * sees them read-only and is offered no deletion (the server refuses both anyway); a developer deletes a call's
 * recording and transcript after confirming, and every reader then sees when and by whom, as for a deletion by the
 * retention sweep or by an API key; and the calls page exports the calls of its current filters as CSV or JSON lines.
 */
describe('call data: storage mode, retention, deletion and export', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let browser: Browser;
  let accountId: string;
  let number: { id: string; phone_number: string };
  const users = {} as Record<Role, { context: BrowserContext; page: Page; problems: string[]; email: string }>;
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
    for (const role of ['owner', 'developer', 'viewer'] as const) {
      const email = `${role}@pizza-planet.test`;
      users[role] = { ...(await userPage(browser)), email };
      await acceptInvite(users[role].page, await inviteUser(system, accountId, email, role), password);
    }
    expect((await admin.request('PUT', '/admin/provider/stock/415', { available: 5 })).status).toBe(200);
    const created = await consoleRequest(users.owner.page, 'POST', '/numbers', {
      business_phone: '+14155550100',
      area_code: '415',
    });
    expect(created.status).toBe(201);
    number = { id: created.body.id as string, phone_number: created.body.phone_number as string };

    const now = Date.now();
    const calls = {
      // The developer deletes this one's recording and transcript.
      margherita: {
        caller: '+14155550101',
        duration_sec: 120,
        outcome: 'order_placed',
        started_at: new Date(now - 2 * HOUR).toISOString(),
        transcript: [
          { role: 'agent', text: 'Pizza Planet, how can I help?' },
          { role: 'caller', text: 'A large margherita for pickup, please.' },
        ],
        analysis: { summary: 'Ordered a large margherita for pickup.', sentiment: 'positive', successful: true },
        recording: true,
      },
      manager: {
        caller: '+14155550102',
        duration_sec: 45,
        outcome: 'transferred',
        started_at: new Date(now - 5 * HOUR).toISOString(),
        transcript: [{ role: 'caller', text: 'I need a manager, please.' }],
        analysis: { summary: 'Asked for a manager.', sentiment: 'negative', successful: false },
        recording: true,
      },
      // Older than the 30 days the owner sets for recordings: the retention sweep deletes its recording.
      old: {
        caller: '+14155550103',
        duration_sec: 60,
        outcome: 'order_placed',
        started_at: new Date(now - 40 * DAY).toISOString(),
        transcript: [{ role: 'caller', text: 'Two pepperoni pizzas, delivered.' }],
        analysis: { summary: 'Ordered two pepperoni pizzas.', sentiment: 'positive', successful: true },
        recording: true,
      },
    };
    for (const [name, call] of Object.entries(calls)) {
      const reported = await admin.request('POST', '/admin/provider/calls', { to: number.phone_number, ...call });
      expect([name, reported.status]).toEqual([name, 202]);
      sid[name] = reported.body.call_sid;
    }
    await eventually(
      async () => (await consoleRequest(users.owner.page, 'GET', '/calls?limit=20')).body.data?.length,
      (count) => count === 3,
    );
  });

  afterAll(async () => {
    for (const user of Object.values(users)) await user?.context.close();
    await browser?.close();
    await system?.stop();
  });

  afterEach(() => {
    // Nothing the strict CSP refused, no uncaught error in any page.
    for (const [role, user] of Object.entries(users))
      expect({ [role]: user.problems.splice(0) }).toEqual({ [role]: [] });
  });

  const settingsForm = (page: Page) => page.getByTestId('data-settings');
  const period = (page: Page, name: 'recordings_days' | 'transcripts_days') => settingsForm(page).getByTestId(name);

  it('an owner sets the storage mode and the retention periods, a refused period shown at its field', async () => {
    const { page } = users.owner;
    await page.goto(consoleUrl(system, 'calls'));
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Data & retention' }).click();
    await page.getByRole('heading', { level: 1, name: 'Data & retention' }).waitFor();
    const form = settingsForm(page);
    await form.getByTestId('data-settings-now').waitFor();
    // The defaults: everything, kept forever.
    await expect(form.getByRole('radio', { name: /^Everything/ }).isChecked()).resolves.toBe(true);
    await expect(
      period(page, 'recordings_days').getByRole('radio', { name: 'Keep forever' }).isChecked(),
    ).resolves.toBe(true);
    await expect(form.getByLabel('Days to keep recordings').isDisabled()).resolves.toBe(true);
    await expect(form.getByTestId('data-settings-now').textContent()).resolves.toBe(
      'Now: Storing: everything. Recordings kept forever; transcripts and summaries kept forever.',
    );

    // Each mode says what it keeps.
    const noPii = form.getByRole('radio', { name: /^No personal data/ });
    await expect(
      form.locator('label', { has: page.getByRole('radio', { name: /^No personal data/ }) }).textContent(),
    ).resolves.toMatch(
      /phone numbers, e-mail addresses, card numbers, SSNs and street addresses redacted; no recording/,
    );
    await noPii.check();
    await period(page, 'recordings_days').getByRole('radio', { name: 'Delete after' }).check();
    await form.getByLabel('Days to keep recordings').fill('731');
    await period(page, 'transcripts_days').getByRole('radio', { name: 'Delete after' }).check();
    await form.getByLabel('Days to keep transcripts and summaries').fill('365');

    // Past the longest period: the server's words, at the field, and nothing saved.
    await form.getByRole('button', { name: 'Save data settings' }).click();
    const refused = period(page, 'recordings_days').locator('.field-error');
    await refused.waitFor();
    await expect(refused.textContent()).resolves.toBe('recordings_days must be at most 730.');
    await expect(form.getByLabel('Days to keep recordings').getAttribute('aria-invalid')).resolves.toBe('true');
    expect((await consoleRequest(page, 'GET', '/settings/data')).body).toEqual({
      storage_mode: 'everything',
      recordings_days: null,
      transcripts_days: null,
    });

    await form.getByLabel('Days to keep recordings').fill('30');
    await form.getByRole('button', { name: 'Save data settings' }).click();
    const saved = form.getByRole('status').filter({ hasText: 'Saved.' });
    await saved.waitFor();
    await expect(saved.textContent()).resolves.toContain(
      'Storing: no personal data. Recordings deleted after 30 days; transcripts and summaries deleted after 365 days.',
    );
    await expect(refused.count()).resolves.toBe(0);
    expect((await consoleRequest(page, 'GET', '/settings/data')).body).toEqual({
      storage_mode: 'no_pii',
      recordings_days: 30,
      transcripts_days: 365,
    });

    // Read back after a reload: the saved values in the form.
    await page.reload();
    await settled(page);
    await expect(form.getByRole('radio', { name: /^No personal data/ }).isChecked()).resolves.toBe(true);
    await expect(form.getByLabel('Days to keep recordings').inputValue()).resolves.toBe('30');
    await expect(form.getByLabel('Days to keep transcripts and summaries').inputValue()).resolves.toBe('365');

    // Back to keeping transcripts forever, and everything stored.
    await period(page, 'transcripts_days').getByRole('radio', { name: 'Keep forever' }).check();
    await form.getByRole('radio', { name: /^Everything/ }).check();
    await form.getByRole('button', { name: 'Save data settings' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await expect(form.getByRole('status').filter({ hasText: 'Saved.' }).textContent()).resolves.toContain(
      'Storing: everything. Recordings deleted after 30 days; transcripts and summaries kept forever.',
    );
    await expect(form.getByLabel('Days to keep transcripts and summaries').isDisabled()).resolves.toBe(true);
    expect((await consoleRequest(page, 'GET', '/settings/data')).body).toEqual({
      storage_mode: 'everything',
      recordings_days: 30,
      transcripts_days: null,
    });
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'data-settings');
  });

  it('a viewer sees the settings read-only and is offered no deletion; the server refuses both anyway', async () => {
    const { page } = users.viewer;
    await page.goto(consoleUrl(system, 'data'));
    const form = settingsForm(page);
    await form.getByText('Your role (viewer) cannot change what is kept of calls and for how long').waitFor();
    await expect(form.getByTestId('data-settings-now').textContent()).resolves.toBe(
      'Now: Storing: everything. Recordings deleted after 30 days; transcripts and summaries kept forever.',
    );
    for (const radio of await form.getByRole('radio').all()) await expect(radio.isDisabled()).resolves.toBe(true);
    await expect(form.getByLabel('Days to keep recordings').isDisabled()).resolves.toBe(true);
    await expect(form.getByLabel('Days to keep recordings').inputValue()).resolves.toBe('30');
    await expect(form.getByRole('button', { name: 'Save data settings' }).count()).resolves.toBe(0);
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'data-settings-viewer');

    const refused = await consoleRequest(page, 'PATCH', '/settings/data', { recordings_days: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect(refused.body.error.message).toMatch(/viewer/);

    // The call page: the recording and the transcript, and no way to delete them.
    await page.goto(consoleUrl(system, `calls/${sid.margherita}`));
    await page.getByTestId('transcript').waitFor();
    await page.locator('audio').waitFor();
    await expect(page.getByRole('button', { name: /^Delete/ }).count()).resolves.toBe(0);
    for (const what of ['recording', 'transcript']) {
      const answer = await consoleRequest(page, 'DELETE', `/calls/${sid.margherita}/${what}`);
      expect([what, answer.status, answer.body?.error?.code]).toEqual([what, 403, 'forbidden']);
    }
    expect((await consoleRequest(page, 'GET', `/calls/${sid.margherita}`)).body).toMatchObject({
      has_recording: true,
      has_transcript: true,
      recording_deletion: null,
      transcript_deletion: null,
    });

    // A developer deletes calls' data but does not change the account's settings: read-only too.
    const developer = users.developer.page;
    await developer.goto(consoleUrl(system, 'data'));
    await settingsForm(developer).getByText('Your role (developer) cannot change').waitFor();
    expect((await consoleRequest(developer, 'PATCH', '/settings/data', { recordings_days: 1 })).status).toBe(403);
  });

  it("a developer deletes a call's recording and transcript after confirming, and sees when and by whom", async () => {
    const { page } = users.developer;
    const developerId = (await consoleRequest(page, 'GET', '/session')).body.user.id as string;
    await page.goto(consoleUrl(system, `calls/${sid.margherita}`));
    await page.getByTestId('transcript').waitFor();
    const recording = page.getByTestId('call-recording');
    const transcript = page.getByTestId('call-transcript');
    await recording.locator('audio').waitFor();

    // Cancelled: nothing is deleted.
    await recording.getByRole('button', { name: 'Delete recording' }).click();
    const dialog = page.getByRole('dialog', { name: "Delete this call's recording?" });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await consoleRequest(page, 'GET', `/calls/${sid.margherita}`)).body.has_recording).toBe(true);

    // Confirmed: the player gives way to the note.
    await recording.getByRole('button', { name: 'Delete recording' }).click();
    await dialog.getByRole('button', { name: 'Yes, delete' }).waitFor();
    await screenshot(page, 'call-data-confirm');
    await dialog.getByRole('button', { name: 'Yes, delete' }).click();
    const recordingNote = recording.getByTestId('recording-deletion');
    await recordingNote.waitFor();
    await expect(recordingNote.textContent()).resolves.toMatch(/^Recording deleted \w{3} \d{1,2}, \d{4}, .+ by you\.$/);
    await expect(recording.locator('audio').count()).resolves.toBe(0);
    await expect(recording.getByRole('button', { name: 'Delete recording' }).count()).resolves.toBe(0);
    await page.getByRole('status').filter({ hasText: 'The recording was deleted.' }).waitFor();
    // The transcript is still there.
    await expect(page.getByTestId('transcript').locator('li').count()).resolves.toBe(2);

    await transcript.getByRole('button', { name: 'Delete transcript' }).click();
    const transcriptDialog = page.getByRole('dialog', { name: "Delete this call's transcript?" });
    await transcriptDialog.getByRole('button', { name: 'Yes, delete' }).click();
    const transcriptNote = transcript.getByTestId('transcript-deletion');
    await transcriptNote.waitFor();
    await expect(transcriptNote.textContent()).resolves.toMatch(/^Transcript deleted .+ by you\.$/);
    await expect(page.getByTestId('transcript').count()).resolves.toBe(0);
    // The summary went with it; the rest of the analysis stays.
    await page.getByTestId('call-analysis').getByText('The summary was deleted with the transcript.').waitFor();

    const call = (await consoleRequest(page, 'GET', `/calls/${sid.margherita}`)).body;
    expect(call).toMatchObject({
      has_recording: false,
      has_transcript: false,
      recording_deletion: { deleted_by: `user:${developerId}` },
      transcript_deletion: { deleted_by: `user:${developerId}` },
    });
    expect(call.analysis).toMatchObject({ summary: null, sentiment: 'positive', successful: true });
    expect((await consoleRequest(page, 'GET', `/calls/${sid.margherita}/recording`)).status).toBe(404);
    // Its words are no longer found.
    expect((await consoleRequest(page, 'GET', '/calls?q=margherita')).body.data).toEqual([]);
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'call-data-deleted');

    // Anyone reading the call sees who: the developer by e-mail address.
    const viewer = users.viewer.page;
    await viewer.goto(consoleUrl(system, `calls/${sid.margherita}`));
    await eventually(
      () => viewer.getByTestId('recording-deletion').textContent(),
      (text) => /^Recording deleted .+ by developer@pizza-planet\.test\.$/.test(text ?? ''),
    );
    await expect(viewer.getByTestId('transcript-deletion').textContent()).resolves.toMatch(
      /^Transcript deleted .+ by developer@pizza-planet\.test\.$/,
    );
  });

  it('names the retention policy and an API key as who deleted', async () => {
    // The owner's 30 days for recordings: the sweep takes the 40-day-old call's recording and nothing younger.
    // (calls-media also sweeps on its own, every RETENTION_SWEEP_MS: this one may find the work done.)
    const swept = await admin.request('POST', '/admin/calls/retention-sweep', {});
    expect(swept.status).toBe(200);
    expect(swept.body).toEqual({ recordings_deleted: expect.any(Number), transcripts_deleted: 0 });
    const key = await admin.createKey(accountId);
    const deleted = await fetch(`${system.publicUrl}/v1/calls/${sid.old}/transcript`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(deleted.status).toBe(204);

    const { page } = users.owner;
    await page.goto(consoleUrl(system, `calls/${sid.old}`));
    await page.getByTestId('recording-deletion').waitFor();
    await expect(page.getByTestId('recording-deletion').textContent()).resolves.toMatch(
      /^Recording deleted .+ by the retention policy\.$/,
    );
    await expect(page.getByTestId('transcript-deletion').textContent()).resolves.toMatch(
      new RegExp(`^Transcript deleted .+ by API key ${key.id}\\.$`),
    );
    expect((await consoleRequest(page, 'GET', `/calls/${sid.old}`)).body).toMatchObject({
      has_recording: false,
      has_transcript: false,
      recording_deletion: { deleted_by: 'retention' },
      transcript_deletion: { deleted_by: `key:${key.id}` },
    });
    // The younger call kept both.
    await page.goto(consoleUrl(system, `calls/${sid.manager}`));
    await page.getByTestId('transcript').waitFor();
    await page.locator('audio').waitFor();
    await expect(page.getByRole('button', { name: 'Delete recording' }).count()).resolves.toBe(1);
  });

  it("exports the calls of the page's filters: the link carries them, and the file holds those calls", async () => {
    const { page } = users.owner;
    await page.goto(consoleUrl(system, 'calls'));
    await page.getByTestId('calls-table').waitFor();
    const filters = page.getByRole('search', { name: 'Search calls' });
    await filters.getByLabel('Caller').fill('+1 (415) 555-0102');
    await filters.getByLabel('Sentiment').selectOption('negative');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await eventually(
      () => page.locator('[data-testid="calls-table"] tbody tr[data-call-id]').count(),
      (rows) => rows === 1,
    );

    const control = page.getByTestId('calls-export');
    await control.locator('summary').click();
    await control.getByTestId('export-scope').waitFor();
    await expect(control.getByTestId('export-scope').textContent()).resolves.toBe(
      'Every call matching the 2 filters set, newest first.',
    );
    const link = control.getByRole('link', { name: 'Download CSV' });
    const href = new URL((await link.getAttribute('href')) ?? '', system.publicUrl);
    expect(href.pathname).toBe('/console/api/calls/export');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      caller: '+14155550102',
      sentiment: 'negative',
      format: 'csv',
    });
    await control.getByRole('checkbox', { name: 'Analysis' }).check();
    await expect(link.getAttribute('href')).resolves.toMatch(/&format=csv&include=analysis$/);
    await settled(page);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'calls-export');

    const [csv] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(csv.suggestedFilename()).toMatch(/^calls-.+\.csv$/);
    const lines = (await readFile(await csv.path(), 'utf8')).split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(/^id,number_id,/);
    expect(lines[0]).toContain('analysis_summary');
    expect(lines).toHaveLength(2);
    expect(lines[1].startsWith(`${sid.manager},${number.id},`)).toBe(true);
    expect(lines[1]).toContain('Asked for a manager.');

    // JSON lines, with the transcript: the same call.
    await control.getByRole('radio', { name: 'JSON lines' }).check();
    await control.getByRole('checkbox', { name: 'Analysis' }).uncheck();
    await control.getByRole('checkbox', { name: 'Transcript' }).check();
    const jsonLink = control.getByRole('link', { name: 'Download JSON lines' });
    await expect(jsonLink.getAttribute('href')).resolves.toMatch(/&format=jsonl&include=transcript$/);
    const [jsonl] = await Promise.all([page.waitForEvent('download'), jsonLink.click()]);
    expect(jsonl.suggestedFilename()).toMatch(/^calls-.+\.jsonl$/);
    const rows = (await readFile(await jsonl.path(), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string; caller: string; transcript: unknown[] });
    expect(rows.map((row) => [row.id, row.caller])).toEqual([[sid.manager, '+14155550102']]);
    expect(rows[0].transcript).toEqual([{ role: 'caller', text: 'I need a manager, please.' }]);

    // Unfiltered: every call.
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await control.getByTestId('export-scope').filter({ hasText: 'Every call, newest first.' }).waitFor();
    await expect(jsonLink.getAttribute('href')).resolves.toBe(
      '/console/api/calls/export?format=jsonl&include=transcript',
    );
  });

  it('fits a phone: the settings, the deletion notes and the export at 375 px, nothing wider than the screen', async () => {
    const phone = await userPage(browser, { width: 375 });
    try {
      await signIn(phone.page, system, users.owner.email, password);
      const wide = () =>
        phone.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

      await phone.page.goto(consoleUrl(system, 'data'));
      await settingsForm(phone.page).getByTestId('data-settings-now').waitFor();
      await settled(phone.page);
      await expect(wide()).resolves.toBe(false);
      expect(await seriousAccessibilityProblems(phone.page)).toEqual([]);
      await screenshot(phone.page, 'data-settings-phone');

      await phone.page.goto(consoleUrl(system, `calls/${sid.margherita}`));
      await phone.page.getByTestId('transcript-deletion').waitFor();
      await settled(phone.page);
      await expect(wide()).resolves.toBe(false);
      await screenshot(phone.page, 'call-data-deleted-phone');

      await phone.page.goto(consoleUrl(system, 'calls'));
      await phone.page.getByTestId('calls-table').waitFor();
      await phone.page.getByTestId('calls-export').locator('summary').click();
      await phone.page.getByRole('link', { name: 'Download CSV' }).waitFor();
      await settled(phone.page);
      await expect(wide()).resolves.toBe(false);
      expect(await seriousAccessibilityProblems(phone.page)).toEqual([]);
      await screenshot(phone.page, 'calls-export-phone');
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
