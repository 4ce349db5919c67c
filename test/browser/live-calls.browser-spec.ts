import type { Browser, BrowserContext, Page } from 'playwright-core';
import { testNatsEnv } from '@switchboard/testing';
import { createGateway, type GatewayRuntime } from '../../apps/gateway/src/bootstrap';
import { MAX_LIVE_STREAMS_PER_ACCOUNT } from '../../apps/gateway/src/live-calls/live-call-streams';
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

type Role = 'owner' | 'viewer';
interface Turn {
  role: string;
  text: string;
}

const EMPTY = 'No calls in progress. New calls appear here as they start.';
const transcript: Turn[] = [
  { role: 'agent', text: 'Pizza Planet, how can I help?' },
  { role: 'caller', text: 'A large margherita for pickup, please.' },
  { role: 'agent', text: 'Of course. It will be ready in twenty minutes.' },
  { role: 'caller', text: 'Perfect, thank you.' },
];

/**
 * Calls while they happen on the console (docs/live-calls.md), in Chromium against the whole system: the calls page's
 * "Live now" shows a call the simulated provider plays live from its first turn, adds each later turn in order as it
 * is spoken without a reload, shows its end, lets it go and the list below has the completed call; a viewer watches
 * as well; the console's stream counts toward the account's cap with its keys' streams; and a stream that ends (its
 * lifetime, on a replica that keeps it short) is resumed by EventSource after the last event seen, no turn lost or
 * repeated.
 */
describe("live calls: the calls page's Live now", () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let browser: Browser;
  let accountId: string;
  let number: { id: string; phone_number: string };
  const users = {} as Record<Role, { context: BrowserContext; page: Page; problems: string[]; email: string }>;
  const password = 'saffron lighthouse tuesday 7';

  beforeAll(async () => {
    [system, browser] = await Promise.all([
      startConsoleSystem({ env: { RATE_LIMIT_REQUESTS: '100000' } }),
      launchChromium(),
    ]);
    admin = new AdminClient(system);
    accountId = (await admin.createAccount({ name: 'Pizza Planet', balance_cents: 10_000 })).id;
    for (const role of ['owner', 'viewer'] as const) {
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

  /** Plays a call live through the operator API (the simulated provider): its start now, then each turn, then its end. */
  async function playLive(call: {
    caller: string;
    transcript: Turn[];
    turnIntervalMs: number;
    durationSec: number;
  }): Promise<string> {
    const answer = await admin.request('POST', '/admin/provider/calls', {
      to: number.phone_number,
      caller: call.caller,
      outcome: 'order_placed',
      duration_sec: call.durationSec,
      transcript: call.transcript,
      live: { turn_interval_ms: call.turnIntervalMs },
    });
    expect(answer.status).toBe(202);
    return answer.body.call_sid as string;
  }

  const liveNow = (page: Page) => page.getByTestId('live-now');
  const liveCall = (page: Page, sid: string) => liveNow(page).locator(`[data-call-id="${sid}"]`);
  const turnsShown = (page: Page, sid: string) =>
    liveCall(page, sid).getByTestId('live-transcript').locator('.turn-text').allTextContents();
  const listRow = (page: Page, sid: string) => page.getByTestId('calls-table').locator(`tr[data-call-id="${sid}"]`);
  const wide = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

  async function openCallsPage(page: Page, url = consoleUrl(system, 'calls')): Promise<void> {
    await page.goto(url);
    await settled(page);
    await liveNow(page).getByText(EMPTY).waitFor();
  }

  it('shows a call from its first turn, each later turn in order without a reload, its end, then the completed call in the list', async () => {
    const { page } = users.owner;
    await openCallsPage(page);
    await openCallsPage(users.viewer.page);
    // Gone if the page reloads: every change below comes over the stream.
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));

    const sid = await playLive({
      caller: '+14155550199',
      transcript,
      turnIntervalMs: 700,
      durationSec: 42,
    });
    const card = liveCall(page, sid);
    await card.waitFor();
    await expect(card.locator('.live-call-who').textContent()).resolves.toBe(`+14155550199 to ${number.phone_number}`);
    // Each turn as it is spoken: read every 50 ms, the transcript shown is always the call's first turns, in order.
    const texts = transcript.map((turn) => turn.text);
    const seen: number[] = [];
    await eventually(
      async () => {
        const shown = await turnsShown(page, sid);
        expect(texts.slice(0, shown.length)).toEqual(shown);
        if (shown.length > 0 && seen.at(-1) !== shown.length) seen.push(shown.length);
        return shown.length;
      },
      (count) => count === transcript.length,
      20_000,
      50,
    );
    // From the first turn to the last, never shrinking; a busy machine may show two turns land between two reads.
    expect(seen[0]).toBe(1);
    expect(seen.at(-1)).toBe(4);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    await expect(card.getByTestId('live-transcript').locator('.turn-speaker').allTextContents()).resolves.toEqual([
      'AI agent',
      'Caller',
      'AI agent',
      'Caller',
    ]);

    // The viewer saw the same call, turn by turn.
    await eventually(
      () => turnsShown(users.viewer.page, sid),
      (shown) => shown.length === transcript.length,
    );
    expect(await turnsShown(users.viewer.page, sid)).toEqual(texts);

    // Its end, for a moment, with the way to the call's page; then it leaves and the list has it, completed.
    const end = card.getByTestId('live-call-end');
    await end.getByText('Ended · completed · 42 s').waitFor();
    await expect(end.getByRole('link', { name: 'View call from +14155550199' }).getAttribute('href')).resolves.toBe(
      `/console/calls/${sid}`,
    );
    await liveCall(users.viewer.page, sid).getByText('Ended · completed · 42 s').waitFor();
    // The list reads the calls again once the end is heard.
    await eventually(
      () => listRow(page, sid).locator('td[data-label="Status"]').textContent(),
      (status) => status === 'completed',
    );
    await expect(listRow(page, sid).locator('td[data-label="Duration"]').textContent()).resolves.toBe('42 s');
    await card.waitFor({ state: 'detached', timeout: 15_000 });
    await liveNow(page).getByText(EMPTY).waitFor();
    await expect(listRow(page, sid).locator('td[data-label="Status"]').textContent()).resolves.toBe('completed');
    await expect(page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).resolves.toBe(true);
    await listRow(users.viewer.page, sid).waitFor();
    await liveCall(users.viewer.page, sid).waitFor({ state: 'detached', timeout: 15_000 });
  });

  it('looks right at 1280 and 375 px with two calls in progress and with none, and passes the accessibility check', async () => {
    const desk = users.owner.page;
    const phone = await userPage(browser, { width: 375 });
    try {
      await signIn(phone.page, system, users.owner.email, password);
      await openCallsPage(phone.page);
      await openCallsPage(desk);
      await expect(wide(phone.page)).resolves.toBe(false);
      expect(await seriousAccessibilityProblems(desk)).toEqual([]);
      expect(await seriousAccessibilityProblems(phone.page)).toEqual([]);
      await screenshot(desk, 'calls-live-empty');
      await screenshot(phone.page, 'calls-live-empty-phone');

      // Slow enough to look at: two calls, a turn every 4 s.
      const first = await playLive({ caller: '+14155550123', transcript, turnIntervalMs: 4_000, durationSec: 95 });
      const second = await playLive({
        caller: '+442079460321',
        transcript: [
          { role: 'agent', text: 'Pizza Planet, how can I help?' },
          {
            role: 'caller',
            text: 'Hi! Do you do gluten-free bases, and could the pizza be delivered to the office on Harbourside Road by half past twelve?',
          },
          { role: 'agent', text: 'We do, and yes: delivery takes about thirty minutes.' },
        ],
        turnIntervalMs: 4_000,
        durationSec: 61,
      });
      for (const page of [desk, phone.page])
        for (const sid of [first, second])
          await eventually(
            () => turnsShown(page, sid),
            (shown) => shown.length >= 2,
          );
      await expect(liveNow(desk).locator('h2').textContent()).resolves.toBe('Live now · 2 in progress');
      // The list below has them too, in progress.
      await eventually(
        () => listRow(desk, first).locator('td[data-label="Status"]').textContent(),
        (status) => status === 'in progress',
      );
      await expect(liveCall(desk, first).locator('.live-call-clock').textContent()).resolves.toMatch(
        /^In progress · \d+ s$/,
      );
      // The clock ticks.
      const clock = await liveCall(desk, first).locator('.live-call-clock').textContent();
      await eventually(
        () => liveCall(desk, first).locator('.live-call-clock').textContent(),
        (now) => now !== clock,
        3_000,
      );
      await screenshot(desk, 'calls-live');
      await screenshot(phone.page, 'calls-live-phone');
      await expect(wide(phone.page)).resolves.toBe(false);
      expect(await seriousAccessibilityProblems(desk)).toEqual([]);
      expect(await seriousAccessibilityProblems(phone.page)).toEqual([]);

      // The first call, the longer, ends last: its end is shown for a few seconds (the first test waits for one). The
      // checks above can outlast that on a busy machine: then the card is gone already, and there is nothing to take.
      const ended = liveCall(desk, first).getByText('Ended · completed · 1 min 35 s');
      if (
        await ended.waitFor({ timeout: 20_000 }).then(
          () => true,
          () => false,
        )
      )
        await screenshot(desk, 'calls-live-ended');
      for (const page of [desk, phone.page])
        for (const sid of [first, second]) await liveCall(page, sid).waitFor({ state: 'detached', timeout: 15_000 });
      await liveNow(phone.page).getByText(EMPTY).waitFor();
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it("counts the console's stream toward the account's cap with its API keys' streams, and opens it again once refused", async () => {
    // An account of its own, so no page of the other tests holds one of its streams.
    const otherAccount = (await admin.createAccount({ name: 'Moorside Pizza', balance_cents: 10_000 })).id;
    const owner = await userPage(browser);
    const aborts: AbortController[] = [];
    try {
      await acceptInvite(owner.page, await inviteUser(system, otherAccount, 'owner@moorside.test', 'owner'), password);
      await liveNow(owner.page).getByText(EMPTY).waitFor();
      const created = await consoleRequest(owner.page, 'POST', '/keys', {});
      expect(created.status).toBe(201);
      const openWithKey = async () => {
        const controller = new AbortController();
        aborts.push(controller);
        const answer = await fetch(`${system.publicUrl}/v1/calls/live`, {
          headers: { authorization: `Bearer ${created.body.key as string}` },
          signal: controller.signal,
        });
        if (answer.status !== 200) await answer.text();
        return answer.status;
      };
      // The page's stream is one of the account's: one fewer for its keys.
      const statuses: number[] = [];
      for (let i = 0; i < MAX_LIVE_STREAMS_PER_ACCOUNT; i++) statuses.push(await openWithKey());
      expect(statuses).toEqual([...Array<number>(MAX_LIVE_STREAMS_PER_ACCOUNT - 1).fill(200), 429]);
      // And one more console stream is refused the same way.
      const refused = await owner.page.evaluate(async () => {
        const answer = await fetch('/console/api/calls/live');
        return { status: answer.status, body: (await answer.json()) as { error: { code: string } } };
      });
      expect(refused).toEqual({ status: 429, body: { error: expect.objectContaining({ code: 'rate_limited' }) } });

      // A second tab's stream is refused: it says so, and opens one once the keys' streams let go of theirs.
      const second = await owner.context.newPage();
      await second.goto(consoleUrl(system, 'calls'));
      await second.getByTestId('live-reconnecting').waitFor();
      await expect(liveNow(second).getByTestId('live-empty').textContent()).resolves.toBe('Connecting…');
      for (const controller of aborts.splice(0)) controller.abort();
      // The page tries again 2 s after a refusal, then 4 s after the next.
      await liveNow(second).getByText(EMPTY).waitFor({ timeout: 15_000 });
      await expect(second.getByTestId('live-reconnecting').count()).resolves.toBe(0);
      expect(owner.problems).toEqual([]);
    } finally {
      for (const controller of aborts) controller.abort();
      await owner.context.close();
    }
  });

  it('resumes after each end of its stream (a short lifetime on a replica) without losing or repeating a turn', async () => {
    // A second gateway whose streams live 2 s: EventSource reconnects after each with Last-Event-ID, a second later.
    let replica: GatewayRuntime | undefined;
    const watcher = await userPage(browser);
    try {
      replica = await createGateway({ ...system.env, ...testNatsEnv('gateway'), WEBHOOK_LISTEN_MAX_SECONDS: '2' });
      const replicaUrl = (await replica.listen({ port: 0, adminPort: 0 })).publicUrl;
      await watcher.page.goto(`${replicaUrl}/console/sign-in`);
      await watcher.page.getByLabel('Email').fill(users.viewer.email);
      await watcher.page.getByLabel('Password').fill(password);
      await watcher.page.getByRole('button', { name: 'Sign in' }).click();
      await watcher.page.getByRole('heading', { level: 1, name: 'Calls' }).waitFor();
      await openCallsPage(watcher.page, `${replicaUrl}/console/calls`);

      const longer = [
        ...transcript,
        { role: 'agent', text: 'Can I have a name for the order?' },
        { role: 'caller', text: 'Ada, please.' },
        { role: 'agent', text: 'Thank you, Ada. See you soon.' },
      ];
      const sid = await playLive({ caller: '+14155550177', transcript: longer, turnIntervalMs: 700, durationSec: 30 });
      let reconnecting = 0;
      await eventually(
        async () => {
          if (await watcher.page.getByTestId('live-reconnecting').isVisible()) reconnecting++;
          const shown = await turnsShown(watcher.page, sid);
          expect(longer.map((turn) => turn.text).slice(0, shown.length)).toEqual(shown);
          return (await liveCall(watcher.page, sid).getByTestId('live-call-end').textContent()) ?? '';
        },
        (end) => end.startsWith('Ended · completed · 30 s'),
        30_000,
        100,
      );
      expect(await turnsShown(watcher.page, sid)).toEqual(longer.map((turn) => turn.text));
      // The stream ended at least once while the call went on, and the page said so meanwhile.
      expect(reconnecting).toBeGreaterThan(0);
      expect(watcher.problems).toEqual([]);
    } finally {
      await watcher.context.close();
      await replica?.close();
    }
  });
});
