import { Client } from 'pg';
import { AdminClient, ConsoleClient, startSystem, waitFor, type RunningSystem } from './support';

jest.setTimeout(120_000);

const PASSWORD = 'quiet otter builds paper maps';
const NEW_PASSWORD = 'violet kettle orbits quietly';

/**
 * Issue 48: "Forgot your password?" by email (docs/adr/0066), and an owner changing a member's role. Client addresses
 * come from X-Forwarded-For, the test's loopback being a trusted proxy, so each test's throttle is its own.
 */
describe('the console: password reset by email, and changing roles', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let sql: Client;
  let accountId: string;

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing'], env: { TRUSTED_PROXIES: '127.0.0.1,::1' } });
    admin = new AdminClient(system);
    sql = new Client({ connectionString: system.env.GATEWAY_DATABASE_URL });
    await sql.connect();
    accountId = (await admin.createAccount({ name: 'Reset Roasters', balance_cents: 1_000 })).id;
  });

  afterAll(async () => {
    await sql?.end();
    await system?.stop();
  });

  /** An operator invites `email` with `role`; the invitee accepts with PASSWORD and is signed in. */
  async function member(email: string, role = 'owner'): Promise<ConsoleClient> {
    const invited = await admin.request('POST', `/admin/accounts/${accountId}/users`, { email, role });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.invite_url).hash.replace('#token=', '');
    const client = new ConsoleClient(system);
    expect((await client.post('/invites/accept', { token, password: PASSWORD })).status).toBe(200);
    return client;
  }

  /** The mail to `address`, oldest first (the operator's list is newest first). */
  async function mailTo(address: string): Promise<{ subject: string; body: string; sent_at: string }[]> {
    const answer = await admin.request('GET', `/admin/email?to=${encodeURIComponent(address)}`);
    expect(answer.status).toBe(200);
    return (answer.body.data as { subject: string; body: string; sent_at: string }[]).reverse();
  }

  const resetTokens = async (address: string) =>
    (await mailTo(address))
      .map((mail) => /\/console\/reset-password#token=([A-Za-z0-9_-]+)/.exec(mail.body)?.[1])
      .filter((token): token is string => token !== undefined);

  /** Waits for the `count`-th reset mail to `address` and answers its token. */
  const nthResetToken = (address: string, count: number) =>
    waitFor(async () => {
      const tokens = await resetTokens(address);
      return tokens.length >= count ? tokens[count - 1] : undefined;
    }, 10_000);

  const requestReset = (email: string, ip: string) =>
    new ConsoleClient(system).post('/password-resets', { email }, { headers: { 'x-forwarded-for': ip } });

  describe('password reset', () => {
    it('answers a known and an unknown address alike, mailing a 30-minute link to the user only', async () => {
      await member('ada@reset.test', 'developer');
      const known = await requestReset('Ada@Reset.test', '198.51.100.1');
      const unknown = await requestReset('nobody@reset.test', '198.51.100.1');
      expect(known.status).toBe(202);
      expect(unknown.status).toBe(202);
      expect(known.body).toEqual(unknown.body);
      expect(known.body.message).toMatch(/^If this email address has a Switchboard console user, a link/);
      await nthResetToken('ada@reset.test', 1);
      const mail = (await mailTo('ada@reset.test')).at(-1)!;
      expect(mail.subject).toBe('Choose a new Switchboard console password');
      // The mail says the time to the minute, in UTC (docs/money-and-minutes.md): "until Dec 2, 2026, 14:05 UTC".
      const until = new Date(/until ([A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} UTC)\)/.exec(mail.body)![1]).getTime();
      expect(until - Date.now()).toBeGreaterThan(28 * 60_000);
      expect(until - Date.now()).toBeLessThanOrEqual(30 * 60_000);
      // Nothing is ever mailed to the unknown address, and no token is stored in clear.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await mailTo('nobody@reset.test')).toEqual([]);
      const stored = await sql.query('SELECT token_hash FROM console_password_resets');
      expect(stored.rows).toHaveLength(1);
      expect(stored.rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.rows[0].token_hash).not.toBe(await nthResetToken('ada@reset.test', 1));
    });

    it('refuses a weak password with 400, then sets a good one: other sessions end, this one is signed in', async () => {
      const first = await member('bo@reset.test', 'viewer');
      const second = new ConsoleClient(system);
      expect((await second.signIn('bo@reset.test', PASSWORD)).status).toBe(200);
      expect((await requestReset('bo@reset.test', '198.51.100.2')).status).toBe(202);
      const token = await nthResetToken('bo@reset.test', 1);

      const browser = new ConsoleClient(system);
      const lookup = await browser.post('/password-resets/lookup', { token });
      expect(lookup.status).toBe(200);
      expect(lookup.body).toEqual({ email: 'bo@reset.test', expires_at: expect.any(String) });
      const weak = await browser.post('/password-resets/complete', { token, password: 'password1234' });
      expect(weak.status).toBe(400);
      expect(weak.body.error.code).toBe('invalid_request');
      expect(weak.body.error.message).toMatch(/^password is too easy to guess/);
      const short = await browser.post('/password-resets/complete', { token, password: 'short' });
      expect(short.status).toBe(400);
      expect(short.body.error.message).toMatch(/^password must be at least 12 characters/);

      const done = await browser.post('/password-resets/complete', { token, password: NEW_PASSWORD });
      expect(done.status).toBe(200);
      expect(done.body.user).toMatchObject({ email: 'bo@reset.test', role: 'viewer' });
      expect(done.headers.get('set-cookie')).toMatch(/^sb_session=/);
      expect((await browser.get('/session')).status).toBe(200);
      for (const ended of [first, second]) {
        const stale = await ended.get('/session');
        expect(stale.status).toBe(401);
        expect(stale.body.error.code).toBe('not_signed_in');
      }
      expect((await new ConsoleClient(system).signIn('bo@reset.test', PASSWORD)).status).toBe(401);
      expect((await new ConsoleClient(system).signIn('bo@reset.test', NEW_PASSWORD)).status).toBe(200);

      // Used: the link works no more.
      for (const [path, body] of [
        ['/password-resets/lookup', { token }],
        ['/password-resets/complete', { token, password: 'another fine passphrase' }],
      ] as const) {
        const again = await new ConsoleClient(system).post(path, body);
        expect(again.status).toBe(404);
        expect(again.body.error).toEqual({
          code: 'not_found',
          message: expect.stringMatching(/^This password reset link is unknown, was already used, or has expired/),
        });
      }
    });

    it('refuses an expired link and one replaced by a newer link with 404, and an invented one', async () => {
      await member('cy@reset.test', 'viewer');
      expect((await requestReset('cy@reset.test', '198.51.100.3')).status).toBe(202);
      const older = await nthResetToken('cy@reset.test', 1);
      expect((await requestReset('cy@reset.test', '198.51.100.3')).status).toBe(202);
      const newer = await nthResetToken('cy@reset.test', 2);
      const client = new ConsoleClient(system);
      expect((await client.post('/password-resets/complete', { token: older, password: NEW_PASSWORD })).status).toBe(
        404,
      );
      expect((await client.post('/password-resets/lookup', { token: newer })).status).toBe(200);
      await sql.query(
        `UPDATE console_password_resets SET expires_at = now() - interval '1 second' WHERE user_id =
           (SELECT id FROM console_users WHERE email = 'cy@reset.test')`,
      );
      const expired = await client.post('/password-resets/complete', { token: newer, password: NEW_PASSWORD });
      expect(expired.status).toBe(404);
      expect(expired.body.error.code).toBe('not_found');
      expect((await client.post('/password-resets/lookup', { token: 'invented' })).status).toBe(404);
      expect((await new ConsoleClient(system).signIn('cy@reset.test', PASSWORD)).status).toBe(200);
    });

    it('throttles requests per client address (429 with Retry-After) and mails one address at most 3 times a window', async () => {
      await member('di@reset.test', 'viewer');
      const answers = [];
      for (let n = 0; n < 20; n += 1) answers.push((await requestReset(`di@reset.test`, '198.51.100.4')).status);
      expect(answers).toEqual(Array(20).fill(202));
      const refused = await requestReset('someone-else@reset.test', '198.51.100.4');
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
      // Another client is not held up; the address got 3 links, not 20.
      expect((await requestReset('di@reset.test', '198.51.100.5')).status).toBe(202);
      await nthResetToken('di@reset.test', 3);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await resetTokens('di@reset.test')).toHaveLength(3);
    });

    it('answers bad input with a 400 envelope naming the field', async () => {
      const client = new ConsoleClient(system);
      const noEmail = await client.post('/password-resets', { email: 'not an address' });
      expect(noEmail.status).toBe(400);
      expect(noEmail.body.error.message).toMatch(/email/);
      const noToken = await client.post('/password-resets/complete', { password: NEW_PASSWORD });
      expect(noToken.status).toBe(400);
      expect(noToken.body.error.message).toMatch(/token/);
    });
  });

  describe('changing roles', () => {
    let owner: ConsoleClient;
    let dev: ConsoleClient;
    let ownerId: string;
    let devId: string;

    beforeAll(async () => {
      owner = await member('owner@roles.test', 'owner');
      dev = await member('dev@roles.test', 'developer');
      ownerId = (await owner.get('/session')).body.user.id;
      devId = (await dev.get('/session')).body.user.id;
    });

    it("lets an owner change a member's role, which the member's session sees at its next request", async () => {
      expect((await dev.post('/keys', { mode: 'test' })).status).toBe(201);
      const changed = await owner.request('PATCH', `/users/${devId}`, { role: 'viewer' });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ id: devId, email: 'dev@roles.test', role: 'viewer', status: 'active' });
      expect((await dev.get('/session')).body.user.role).toBe('viewer');
      const refused = await dev.post('/keys', { mode: 'test' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/^A viewer user cannot/);
      const listed = (await owner.get('/users')).body.data.find((user: { id: string }) => user.id === devId);
      expect(listed.role).toBe('viewer');
    });

    it('refuses a non-owner with 403, a CSRF-less change with 403, a bad role or id with 400, an unknown user with 404', async () => {
      const byViewer = await dev.request('PATCH', `/users/${ownerId}`, { role: 'viewer' });
      expect(byViewer.status).toBe(403);
      expect(byViewer.body.error).toEqual({
        code: 'forbidden',
        message: expect.stringMatching(/^A viewer user cannot change people's roles; only an owner can/),
      });
      const noCsrf = await owner.request('PATCH', `/users/${devId}`, { role: 'developer' }, { csrf: false });
      expect(noCsrf.status).toBe(403);
      expect(noCsrf.body.error.code).toBe('csrf_failed');
      const badRole = await owner.request('PATCH', `/users/${devId}`, { role: 'admin' });
      expect(badRole.status).toBe(400);
      expect(badRole.body.error.message).toMatch(/^role must be one of/);
      const badId = await owner.request('PATCH', '/users/inv_0123456789abcdef01234567', { role: 'viewer' });
      expect(badId.status).toBe(400);
      expect(badId.body.error.message).toMatch(/^id must be a user id/);
      const unknown = await owner.request('PATCH', '/users/usr_0123456789abcdef01234567', { role: 'viewer' });
      expect(unknown.status).toBe(404);
      expect((await dev.get('/session')).body.user.role).toBe('viewer');
    });

    it('refuses to demote the last owner (409 last_owner), and allows it once there is another', async () => {
      const last = await owner.request('PATCH', `/users/${ownerId}`, { role: 'developer' });
      expect(last.status).toBe(409);
      expect(last.body.error).toEqual({
        code: 'last_owner',
        message: expect.stringMatching(/^This is the account's last owner/),
      });
      expect((await owner.request('PATCH', `/users/${ownerId}`, { role: 'owner' })).status).toBe(200);
      expect((await owner.request('PATCH', `/users/${devId}`, { role: 'owner' })).status).toBe(200);
      expect((await dev.post('/keys', { mode: 'test' })).status).toBe(201);
      const stepDown = await owner.request('PATCH', `/users/${ownerId}`, { role: 'staff' });
      expect(stepDown.status).toBe(200);
      expect((await owner.get('/session')).body.user.role).toBe('staff');
      const lastAgain = await dev.request('PATCH', `/users/${devId}`, { role: 'viewer' });
      expect(lastAgain.status).toBe(409);
      expect(lastAgain.body.error.code).toBe('last_owner');
    });
  });
});
