import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import {
  startHttpsReceiver,
  type Behaviour,
  type TestReceiver,
} from '../../../apps/webhook-dispatcher/test/support/https-receiver';
import { selfSignedCertificate } from '../../../apps/webhook-dispatcher/test/support/tls';
import {
  AdminClient,
  startSystem,
  type JsonBody,
  type RunningSystem,
  type StartSystemOptions,
} from '../../e2e/support';
import { CHROMIUM } from './chromium';

/** The built console (tools/dev/console-build.mjs; the browser project's global setup builds it when stale). */
export const CONSOLE_DIST_DIR = resolve(__dirname, '..', '..', '..', 'apps', 'console', 'dist');
/** Set (to a folder, e.g. docs/console) to save screenshots of the pages as the tests walk through them. */
const SCREENSHOT_DIR = process.env.CONSOLE_SCREENSHOTS ? resolve(process.env.CONSOLE_SCREENSHOTS) : undefined;

/**
 * Debian's Chromium as this machine allows it (docs: shared notes, browser tests): no sandbox as root, and no
 * background networking, which the closed network would refuse many times over. Playwright gives each launch a
 * fresh profile in a temporary user data dir.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

/** The whole system with the gateway serving the built console at /console/. */
export function startConsoleSystem(options: StartSystemOptions = {}): Promise<RunningSystem> {
  return startSystem({ ...options, env: { CONSOLE_DIST_DIR, ...options.env } });
}

/** A booted console system, Chromium, and a webhook receiver on HTTPS that the system's dispatcher trusts. */
export interface ConsoleWithReceiver {
  system: RunningSystem;
  browser: Browser;
  receiver: TestReceiver;
  /** Closes the browser, the system and the receiver, and removes the receiver's certificate. */
  stop(): Promise<void>;
}

/**
 * The console system with a number's webhook receiver on localhost over HTTPS (a throwaway certificate the
 * dispatcher is told to trust, `localhost` exempt from the private-address ban), and Chromium, started together.
 */
export async function startConsoleWithReceiver(
  behaviour: Behaviour,
  env: Record<string, string> = {},
): Promise<ConsoleWithReceiver> {
  const certificate = selfSignedCertificate(['localhost']);
  const receiver = await startHttpsReceiver(certificate, behaviour);
  const started = await Promise.allSettled([
    startConsoleSystem({
      env: { WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost', WEBHOOK_TEST_CA_FILE: certificate.certFile, ...env },
    }),
    launchChromium(),
  ]);
  const [system, browser] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as [
    RunningSystem | undefined,
    Browser | undefined,
  ];
  const stop = async () => {
    await browser?.close();
    await system?.stop();
    await receiver.close();
    certificate.remove();
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed || !system || !browser) {
    await stop();
    throw failed?.reason ?? new Error('the console system did not start');
  }
  return { system, browser, receiver, stop };
}

export function consoleUrl(system: RunningSystem, path = ''): string {
  return `${system.publicUrl}/console/${path.replace(/^\//, '')}`;
}

/**
 * The invitation link an operator's invite gives (POST /admin/accounts/{id}/users), on this system's public address:
 * the token travels in the fragment.
 */
export async function inviteUser(
  system: RunningSystem,
  accountId: string,
  email: string,
  role?: 'owner' | 'developer' | 'viewer' | 'staff',
): Promise<string> {
  const answer = await new AdminClient(system).request(
    'POST',
    `/admin/accounts/${accountId}/users`,
    role ? { email, role } : { email },
  );
  if (answer.status !== 201) throw new Error(`invite not made: ${answer.status} ${JSON.stringify(answer.body)}`);
  const token = /#token=([^&]+)/.exec(String(answer.body.invite_url))?.[1];
  if (!token) throw new Error(`no token in invite_url ${answer.body.invite_url}`);
  return `${consoleUrl(system, 'accept-invite')}#token=${token}`;
}

/** Collects what a strict CSP refused and the page's uncaught errors: a test fails on either. */
export function watchPage(page: Page): { problems: string[] } {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(`CSP: ${message.text()}`);
  });
  return { problems };
}

/** Follows an invitation, sets the password and lands signed in on the calls page. */
export async function acceptInvite(page: Page, inviteUrl: string, password: string): Promise<void> {
  await page.goto(inviteUrl);
  await page.getByLabel('Choose a password').fill(password);
  await page.getByLabel('Type it again').fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Calls' }).waitFor();
}

export async function signIn(page: Page, system: RunningSystem, email: string, password: string): Promise<void> {
  await page.goto(consoleUrl(system, 'sign-in'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Calls' }).waitFor();
}

/** A signed-in user in a browser context of their own (their own cookies). */
export async function userPage(
  browser: Browser,
  options: { width?: number } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 860 } });
  // Ten seconds for anything to appear: the system answers in milliseconds, so a longer wait only slows failures.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  return { context, page, ...watchPage(page) };
}

/**
 * The page's accessibility problems that are serious or critical (axe-core, WCAG 2.1 A and AA), described one a
 * line; an empty list passes.
 */
export async function seriousAccessibilityProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** With CONSOLE_SCREENSHOTS set: the page as a PNG named `name` (docs/console/<name>.png). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOT_DIR) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** The page's CSRF-protected JSON API used from inside the page, as its own scripts would (session cookie). */
export async function consoleRequest(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: JsonBody }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = await fetch('/console/api/session').then(
        (answer) => answer.json() as Promise<{ csrf_token: string }>,
      );
      const answer = await fetch(`/console/api${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, body: text ? JSON.parse(text) : undefined };
    },
    { method, path, body },
  );
}

/**
 * `read()` again (every `intervalMs`, 250 by default) until `accept` takes its value; the last value is in the error
 * after `timeoutMs`.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 15_000,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`not as expected within ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Waits until the page's heading is there and nothing on it says "Loading…" any more. */
export async function settled(page: Page): Promise<void> {
  await page.locator('main h1').waitFor();
  await eventually(
    () => page.locator('[role="status"]', { hasText: /^Loading/ }).count(),
    (count) => count === 0,
  );
}
