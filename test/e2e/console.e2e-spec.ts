import { mkdtempSync, renameSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '@switchboard/observability';
import {
  AdminClient,
  ConsoleClient,
  publicRequest,
  setCookieOf,
  startSystem,
  type HttpAnswer,
  type RunningSystem,
} from './support';

jest.setTimeout(120_000);

const PASSWORD = 'quiet otter builds paper maps';

/**
 * Issue 15, the console's server: people invited by an operator and by owners, sessions in cookies, CSRF, roles, and
 * the console acting through the same services and rules as the public API, for its own account only.
 */
describe('the developer console', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let distDir: string;
  const logLines: string[] = [];
  /** Every secret the tests see; none may appear in what the gateway logged. */
  const secrets = new Set<string>();

  /** An operator invites `email` to the account; the invitee accepts with PASSWORD and is signed in. */
  async function member(accountId: string, email: string, role = 'owner'): Promise<ConsoleClient> {
    const invited = await admin.request('POST', `/admin/accounts/${accountId}/users`, { email, role });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.invite_url).hash.replace('#token=', '');
    secrets.add(token);
    const client = new ConsoleClient(system);
    const accepted = await client.post('/invites/accept', { token, password: PASSWORD });
    expect(accepted.status).toBe(200);
    secrets.add(client.cookie!);
    secrets.add(client.csrf!);
    return client;
  }

  async function mailTo(address: string): Promise<{ subject: string; body: string }[]> {
    const answer = await admin.request('GET', `/admin/email?to=${encodeURIComponent(address)}`);
    expect(answer.status).toBe(200);
    return answer.body.data;
  }

  const tokenInMail = (body: string) => /accept-invite#token=([A-Za-z0-9_-]+)/.exec(body)?.[1];

  beforeAll(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'sb-console-dist-'));
    mkdirSync(join(distDir, 'assets'));
    writeFileSync(
      join(distDir, 'index.html'),
      '<!doctype html><title>Switchboard console</title><script type="module" src="/console/assets/index-abc123.js"></script>',
    );
    writeFileSync(join(distDir, 'assets', 'index-abc123.js'), 'console.log("console");');
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    system = await startSystem({
      services: ['numbers-billing', 'calls-media', 'webhook-dispatcher'],
      env: { CONSOLE_DIST_DIR: distDir, WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost', WEBHOOK_BACKOFF_BASE_MS: '50' },
      gatewayLogger: createLogger('gateway', 'debug', sink),
    });
    admin = new AdminClient(system);
  });

  afterAll(async () => {
    await system?.stop();
    rmSync(distDir, { recursive: true, force: true });
  });

  describe('people and sessions', () => {
    let accountId: string;
    let owner: ConsoleClient;

    beforeAll(async () => {
      accountId = (await admin.createAccount({ name: 'Pizza Planet', balance_cents: 10_000 })).id;
    });

    it("lets an operator invite an account's first owner, with a one-time link also sent by email", async () => {
      const invited = await admin.request('POST', `/admin/accounts/${accountId}/users`, {
        email: 'Olive.Owner@example.com',
      });
      expect(invited.status).toBe(201);
      expect(invited.body).toEqual({
        id: expect.stringMatching(/^inv_[0-9a-f]{24}$/),
        email: 'olive.owner@example.com',
        role: 'owner',
        invite_url: expect.stringMatching(
          /^http:\/\/127\.0\.0\.1:\d+\/console\/accept-invite#token=[A-Za-z0-9_-]{43}$/,
        ),
        expires_at: expect.any(String),
      });
      const expiresIn = Date.parse(invited.body.expires_at) - Date.now();
      expect(expiresIn).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
      expect(expiresIn).toBeLessThanOrEqual(7 * 24 * 3600_000);
      const token = new URL(invited.body.invite_url).hash.replace('#token=', '');
      secrets.add(token);
      const mail = await mailTo('olive.owner@example.com');
      expect(mail).toHaveLength(1);
      expect(mail[0].subject).toContain('Pizza Planet');
      expect(tokenInMail(mail[0].body)).toBe(token);

      const client = new ConsoleClient(system);
      const lookup = await client.post('/invites/lookup', { token });
      expect(lookup.status).toBe(200);
      expect(lookup.body).toEqual({
        email: 'olive.owner@example.com',
        role: 'owner',
        account_name: 'Pizza Planet',
        expires_at: invited.body.expires_at,
      });

      const weak = await client.post('/invites/accept', { token, password: 'short' });
      expect(weak.status).toBe(400);
      expect(weak.body.error).toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/^password must be at least 12 characters/),
      });
      // Long enough, but a common password with digits and a mark added: the strength estimator's reason, whose
      // first word names the field for the console's form.
      const guessable = await client.post('/invites/accept', { token, password: 'letmein12345!' });
      expect(guessable.status).toBe(400);
      expect(guessable.body.error).toEqual({
        code: 'invalid_request',
        message: 'password is too easy to guess. Add more words that are less common.',
      });
      // The account's name is among the words a guesser tries first against its members (PizzaPlanet2026! scores 4
      // for anyone else); so are the passwords xkcd 936 printed, with or without spaces, and a season with a year.
      for (const password of [
        'PizzaPlanet2026!',
        'correcthorsebatterystaple',
        'correct horse battery staple',
        'Summer2026!!!!',
      ]) {
        const refused = await client.post('/invites/accept', { token, password });
        expect({ password, status: refused.status, code: refused.body.error?.code }).toEqual({
          password,
          status: 400,
          code: 'invalid_request',
        });
        expect(refused.body.error.message).toMatch(/^password is too easy to guess\. \S/);
      }
      expect(client.cookie).toBeUndefined();

      const accepted = await client.post('/invites/accept', { token, password: PASSWORD });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toEqual({
        user: { id: expect.stringMatching(/^usr_/), email: 'olive.owner@example.com', role: 'owner' },
        account: { id: accountId, name: 'Pizza Planet', tier: 'starter' },
        csrf_token: expect.any(String),
        mode: 'live',
      });
      const cookie = setCookieOf(accepted.headers);
      expect(cookie).toMatch(
        /^sb_session=[A-Za-z0-9_-]{43}; Path=\/console; HttpOnly; Secure; SameSite=Strict; Max-Age=604800$/,
      );
      secrets.add(client.cookie!);
      secrets.add(client.csrf!);
      owner = client;

      // Single use: the link is spent.
      for (const [path, body] of [
        ['/invites/lookup', { token }],
        ['/invites/accept', { token, password: PASSWORD }],
      ] as const) {
        const again = await new ConsoleClient(system).post(path, body);
        expect(again.status).toBe(404);
        expect(again.body.error.code).toBe('invite_not_found');
      }
    });

    it('refuses an invite for an unknown account, a bad address or role, naming the field', async () => {
      expect(
        (await admin.request('POST', '/admin/accounts/acct_00000000000000000000/users', { email: 'x@example.com' }))
          .status,
      ).toBe(404);
      const bad = await admin.request('POST', `/admin/accounts/${accountId}/users`, {
        email: 'not-an-email',
        role: 'emperor',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(
        /^email must be an email address; role must be one of owner, developer, viewer, staff$/,
      );
      const taken = await admin.request('POST', `/admin/accounts/${accountId}/users`, {
        email: 'olive.owner@example.com',
      });
      expect(taken.status).toBe(409);
      expect(taken.body.error.code).toBe('already_a_user');
    });

    it('signs in with email and password, and shows the session with its CSRF token', async () => {
      const wrong = await new ConsoleClient(system).signIn('olive.owner@example.com', 'not the password at all');
      expect(wrong.status).toBe(401);
      expect(wrong.body.error.code).toBe('invalid_credentials');
      expect(setCookieOf(wrong.headers)).toBe('');
      const unknown = await new ConsoleClient(system).signIn('nobody@example.com', PASSWORD);
      expect(unknown.status).toBe(401);
      expect(unknown.body.error).toEqual(wrong.body.error);

      const browser = new ConsoleClient(system);
      const signedIn = await browser.signIn('OLIVE.OWNER@example.com', PASSWORD);
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user).toMatchObject({ email: 'olive.owner@example.com', role: 'owner' });
      secrets.add(browser.cookie!);
      secrets.add(browser.csrf!);
      const session = await browser.get('/session');
      expect(session.status).toBe(200);
      expect(session.body).toEqual({
        user: signedIn.body.user,
        account: { id: accountId, name: 'Pizza Planet', tier: 'starter' },
        csrf_token: signedIn.body.csrf_token,
        mode: 'live',
      });
      // Each session has its own CSRF token.
      expect(browser.csrf).not.toBe(owner.csrf);
    });

    it('refuses requests without a session, and changes without the CSRF token or from another origin', async () => {
      const anonymous = await new ConsoleClient(system).get('/session');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe('not_signed_in');

      const noHeader = await owner.post(
        '/users/invites',
        { email: 'dev@example.com', role: 'developer' },
        { csrf: false },
      );
      expect(noHeader.status).toBe(403);
      expect(noHeader.body.error.code).toBe('csrf_failed');
      const otherSession = await owner.post(
        '/users/invites',
        { email: 'dev@example.com', role: 'developer' },
        { headers: { 'x-csrf-token': 'A'.repeat(43) } },
      );
      expect(otherSession.status).toBe(403);
      const otherOrigin = await owner.post(
        '/users/invites',
        { email: 'dev@example.com', role: 'developer' },
        { headers: { origin: 'https://evil.example' } },
      );
      expect(otherOrigin.status).toBe(403);
      expect(otherOrigin.body.error.code).toBe('csrf_failed');
      const signInFromElsewhere = await new ConsoleClient(system).post(
        '/sign-in',
        { email: 'olive.owner@example.com', password: PASSWORD },
        { headers: { origin: 'https://evil.example' } },
      );
      expect(signInFromElsewhere.status).toBe(403);
      // Nothing was invited.
      expect((await mailTo('dev@example.com')).length).toBe(0);
      expect((await owner.get('/users')).body.data.map((u: { email: string }) => u.email)).toEqual([
        'olive.owner@example.com',
      ]);
    });

    it('keeps the public API cookie-free: a session cookie is no credential there', async () => {
      const answer = await publicRequest(system, 'GET', '/v1/numbers', {
        headers: { cookie: `sb_session=${owner.cookie}` },
      });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('unauthorized');
      // The console's routes are not part of the public API's description.
      const openapi = await publicRequest(system, 'GET', '/v1/openapi.json');
      expect(Object.keys(openapi.body.paths).filter((path) => path.startsWith('/console'))).toEqual([]);
      expect(Object.keys(openapi.body.paths)).toContain('/v1/numbers');
    });

    describe('teammates and roles', () => {
      let developer: ConsoleClient;
      let viewer: ConsoleClient;

      it('lets an owner invite teammates by email, listed as invited until they accept', async () => {
        const invited = await owner.post('/users/invites', { email: 'dev@example.com', role: 'developer' });
        expect(invited.status).toBe(201);
        expect(invited.body).toEqual({
          id: expect.stringMatching(/^inv_/),
          email: 'dev@example.com',
          role: 'developer',
          status: 'invited',
          expires_at: expect.any(String),
        });
        expect(JSON.stringify(invited.body)).not.toContain('token');
        const listed = await owner.get('/users');
        expect(listed.body.data).toEqual([
          {
            id: owner && expect.stringMatching(/^usr_/),
            email: 'olive.owner@example.com',
            role: 'owner',
            status: 'active',
            created_at: expect.any(String),
          },
          {
            id: invited.body.id,
            email: 'dev@example.com',
            role: 'developer',
            status: 'invited',
            created_at: expect.any(String),
          },
        ]);
        const [mail] = await mailTo('dev@example.com');
        const token = tokenInMail(mail.body)!;
        secrets.add(token);
        developer = new ConsoleClient(system);
        expect((await developer.post('/invites/accept', { token, password: PASSWORD })).status).toBe(200);
        secrets.add(developer.cookie!);
        viewer = await member(accountId, 'vic.viewer@example.com', 'viewer');
        const after = await owner.get('/users');
        expect(after.body.data.map((u: { email: string; status: string }) => `${u.email} ${u.status}`)).toEqual([
          'olive.owner@example.com active',
          'dev@example.com active',
          'vic.viewer@example.com active',
        ]);
      });

      it('refuses owner actions to a viewer and a developer with 403 forbidden, naming role and action', async () => {
        const byViewer = await viewer.post('/users/invites', { email: 'x@example.com', role: 'viewer' });
        expect(byViewer.status).toBe(403);
        expect(byViewer.body.error).toEqual({
          code: 'forbidden',
          message: expect.stringMatching(/^A viewer user cannot invite users; only an owner can/),
        });
        const byDeveloper = await developer.request('DELETE', `/users/${(await owner.get('/session')).body.user.id}`);
        expect(byDeveloper.status).toBe(403);
        expect(byDeveloper.body.error.message).toMatch(/^A developer user cannot remove users/);
        expect((await viewer.get('/users')).status).toBe(200);
      });

      it("refuses to remove the last owner (409 last_owner), and ends a removed user's sessions at once", async () => {
        const ownerId = (await owner.get('/session')).body.user.id;
        const last = await owner.request('DELETE', `/users/${ownerId}`);
        expect(last.status).toBe(409);
        expect(last.body.error.code).toBe('last_owner');
        const viewerId = (await viewer.get('/session')).body.user.id;
        const removed = await owner.request('DELETE', `/users/${viewerId}`);
        expect(removed.status).toBe(200);
        expect(removed.body).toEqual({ removed: true });
        const stale = await viewer.get('/session');
        expect(stale.status).toBe(401);
        expect(stale.body.error.code).toBe('not_signed_in');
        expect((await owner.request('DELETE', `/users/${viewerId}`)).status).toBe(404);
        const badId = await owner.request('DELETE', '/users/bob');
        expect(badId.status).toBe(400);
        expect(badId.body.error.message).toMatch(/^id must be a user id/);
      });

      it('withdraws a pending invite, whose link then stops working', async () => {
        const invited = await owner.post('/users/invites', { email: 'late@example.com', role: 'viewer' });
        const token = tokenInMail((await mailTo('late@example.com'))[0].body)!;
        secrets.add(token);
        expect((await owner.request('DELETE', `/users/${invited.body.id}`)).status).toBe(200);
        expect((await new ConsoleClient(system).post('/invites/lookup', { token })).status).toBe(404);
      });
    });

    it('signs out one session, or every session of the user, and refuses old and invented cookies', async () => {
      const laptop = new ConsoleClient(system);
      const phone = new ConsoleClient(system);
      await laptop.signIn('olive.owner@example.com', PASSWORD);
      await phone.signIn('olive.owner@example.com', PASSWORD);
      secrets.add(laptop.cookie!);
      secrets.add(phone.cookie!);
      const laptopCookie = laptop.cookie;

      const out = await laptop.post('/sign-out');
      expect(out.status).toBe(204);
      expect(setCookieOf(out.headers)).toBe('sb_session=; Path=/console; HttpOnly; Secure; SameSite=Strict; Max-Age=0');
      laptop.cookie = laptopCookie;
      expect((await laptop.get('/session')).status).toBe(401);
      expect((await phone.get('/session')).status).toBe(200);

      const phoneCookie = phone.cookie;
      const ownerCookie = owner.cookie;
      expect((await phone.post('/sign-out-everywhere')).status).toBe(204);
      phone.cookie = phoneCookie;
      expect((await phone.get('/session')).status).toBe(401);
      owner.cookie = ownerCookie;
      expect((await owner.get('/session')).status).toBe(401);

      const forged = new ConsoleClient(system);
      forged.cookie = 'A'.repeat(43);
      expect((await forged.get('/session')).status).toBe(401);
      forged.cookie = 'not a token';
      expect((await forged.get('/session')).status).toBe(401);

      expect((await owner.signIn('olive.owner@example.com', PASSWORD)).status).toBe(200);
      secrets.add(owner.cookie!);
      secrets.add(owner.csrf!);
    });

    it('throttles sign-in after 5 failures for one address, with Retry-After, even for the right password', async () => {
      await member(accountId, 'tess.target@example.com', 'viewer');
      const browser = new ConsoleClient(system);
      for (let i = 0; i < 5; i += 1)
        expect((await browser.signIn('tess.target@example.com', `wrong password ${i}!`)).status).toBe(401);
      const throttled = await browser.signIn('tess.target@example.com', PASSWORD);
      expect(throttled.status).toBe(429);
      expect(throttled.body.error).toEqual({
        code: 'sign_in_throttled',
        message: expect.stringMatching(/try again in 15 minutes/),
      });
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(800);
      expect(browser.cookie).toBeUndefined();
      // Another address from the same client is not locked out by this one.
      expect((await new ConsoleClient(system).signIn('olive.owner@example.com', PASSWORD)).status).toBe(200);
    });

    it('answers bad input with a 400 envelope naming the field', async () => {
      const noPassword = await new ConsoleClient(system).post('/sign-in', { email: 'olive.owner@example.com' });
      expect(noPassword.status).toBe(400);
      expect(noPassword.body.error).toEqual({ code: 'invalid_request', message: 'password is required' });
      const extra = await new ConsoleClient(system).post('/sign-in', {
        email: 'a@example.com',
        password: 'x',
        admin: true,
      });
      expect(extra.status).toBe(400);
      expect(extra.body.error.message).toBe('admin is not a known field');
      const notJson = await fetch(`${system.publicUrl}/console/api/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      });
      expect(notJson.status).toBe(400);
    });
  });

  describe('the same services and rules as the public API, for the session account only', () => {
    let accountA: string;
    let accountB: string;
    let owner: ConsoleClient;
    let developer: ConsoleClient;
    let viewer: ConsoleClient;
    let strangerB: ConsoleClient;
    let number: { id: string; phone_number: string; webhook_secret?: string };
    let numberB: { id: string };
    let callSid: string;

    /** A public API request with a key, as an integrator makes it. */
    const v1 = (key: string, path: string) =>
      publicRequest(system, 'GET', `/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

    beforeAll(async () => {
      accountA = (await admin.createAccount({ name: 'Account A', balance_cents: 10_000 })).id;
      accountB = (await admin.createAccount({ name: 'Account B', balance_cents: 10_000 })).id;
      owner = await member(accountA, 'a.owner@example.com', 'owner');
      developer = await member(accountA, 'a.dev@example.com', 'developer');
      viewer = await member(accountA, 'a.viewer@example.com', 'viewer');
      strangerB = await member(accountB, 'b.owner@example.com', 'owner');
    });

    describe('API keys', () => {
      it('creates a key shown once, which works on /v1 at once, and lists it with prefix and last use, never the secret', async () => {
        const created = await developer.post('/keys', {});
        expect(created.status).toBe(201);
        expect(created.body).toEqual({
          id: expect.stringMatching(/^key_[0-9a-f]{24}$/),
          key: expect.stringMatching(/^sk_live_/),
          prefix: expect.stringMatching(/^sk_live_.{4}…$/),
          ip_allowlist: [],
          created_at: expect.any(String),
          mode: 'live',
        });
        secrets.add(created.body.key);
        expect(created.body.key.startsWith(created.body.prefix.slice(0, -1))).toBe(true);
        expect((await v1(created.body.key, '/numbers')).status).toBe(200);
        let listed: { last_used_at?: string | null } | undefined;
        for (let i = 0; i < 50; i += 1) {
          listed = (await developer.get('/keys')).body.data.find((k: { id: string }) => k.id === created.body.id);
          if (listed?.last_used_at) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(listed).toEqual({
          id: created.body.id,
          mode: 'live',
          prefix: created.body.prefix,
          ip_allowlist: [],
          created_at: created.body.created_at,
          last_used_at: expect.any(String),
          revoked_at: null,
          replaces: null,
        });
        expect(JSON.stringify((await owner.get('/keys')).body)).not.toContain(created.body.key);

        const revoked = await developer.request('DELETE', `/keys/${created.body.id}`);
        expect(revoked.status).toBe(200);
        expect(revoked.body).toEqual({ revoked: true });
        expect((await v1(created.body.key, '/numbers')).status).toBe(401);
        expect(
          (await developer.get('/keys')).body.data.find((k: { id: string }) => k.id === created.body.id).revoked_at,
        ).toEqual(expect.any(String));
        expect((await developer.request('DELETE', `/keys/${created.body.id}`)).status).toBe(404);
      });

      it('rotates a key: the new one names the old, keeps its allowlist, and the old works until revoked', async () => {
        const old = await owner.post('/keys', { ip_allowlist: ['127.0.0.1', '::1', '::ffff:127.0.0.1/128'] });
        expect(old.status).toBe(201);
        secrets.add(old.body.key);
        const rotated = await owner.post(`/keys/${old.body.id}/rotate`);
        expect(rotated.status).toBe(201);
        secrets.add(rotated.body.key);
        expect(rotated.body).toMatchObject({
          id: expect.stringMatching(/^key_/),
          key: expect.stringMatching(/^sk_live_/),
          replaces: old.body.id,
          ip_allowlist: old.body.ip_allowlist,
        });
        expect((await v1(old.body.key, '/numbers')).status).toBe(200);
        expect((await v1(rotated.body.key, '/numbers')).status).toBe(200);
        await owner.request('DELETE', `/keys/${old.body.id}`);
        expect((await v1(old.body.key, '/numbers')).status).toBe(401);
        expect((await v1(rotated.body.key, '/numbers')).status).toBe(200);
        expect((await owner.post(`/keys/${old.body.id}/rotate`)).status).toBe(404);
      });

      it('refuses a sixth active key with 409 key_limit, saying what to do', async () => {
        const active = (await owner.get('/keys')).body.data.filter(
          (k: { revoked_at: string | null }) => k.revoked_at === null,
        ).length;
        for (let i = active; i < 5; i += 1) {
          const made = await owner.post('/keys', {});
          expect(made.status).toBe(201);
          secrets.add(made.body.key);
        }
        const sixth = await owner.post('/keys', {});
        expect(sixth.status).toBe(409);
        expect(sixth.body.error).toEqual({
          code: 'key_limit',
          message: expect.stringMatching(/at most 5 active keys.*revoke a key you no longer use first/),
        });
        const someKey = (await owner.get('/keys')).body.data.find(
          (k: { revoked_at: string | null }) => k.revoked_at === null,
        );
        const rotation = await owner.post(`/keys/${someKey.id}/rotate`);
        expect(rotation.status).toBe(409);
        expect(rotation.body.error.message).toMatch(/rotation/);
      });

      it('refuses a bad allowlist naming the field, creating nothing', async () => {
        const before = (await owner.get('/keys')).body.data.length;
        const bad = await owner.post('/keys', { ip_allowlist: ['example.com'] });
        expect(bad.status).toBe(400);
        expect(bad.body.error.code).toBe('invalid_request');
        expect(bad.body.error.message).toMatch(/^ip_allowlist/);
        const notArray = await owner.post('/keys', { ip_allowlist: 'x' });
        expect(notArray.body.error.message).toMatch(/^ip_allowlist must be an array/);
        expect((await owner.get('/keys')).body.data.length).toBe(before);
      });

      it("keeps viewers off keys, and every account off another's keys", async () => {
        const byViewer = await viewer.get('/keys');
        expect(byViewer.status).toBe(403);
        expect(byViewer.body.error.message).toMatch(/^A viewer user cannot see API keys/);
        expect((await viewer.post('/keys', {})).status).toBe(403);
        const ofA = (await owner.get('/keys')).body.data.map((k: { id: string }) => k.id);
        const ofB = (await strangerB.get('/keys')).body.data.map((k: { id: string }) => k.id);
        expect(ofB.filter((id: string) => ofA.includes(id))).toEqual([]);
        const active = (await owner.get('/keys')).body.data.find(
          (k: { revoked_at: string | null }) => k.revoked_at === null,
        );
        expect((await strangerB.request('DELETE', `/keys/${active.id}`)).status).toBe(404);
        expect((await strangerB.post(`/keys/${active.id}/rotate`)).status).toBe(404);
        expect(
          (await owner.get('/keys')).body.data.find((k: { id: string }) => k.id === active.id).revoked_at,
        ).toBeNull();
      });
    });

    describe('numbers, calls and webhook deliveries', () => {
      beforeAll(async () => {
        const provisioned = await developer.post('/numbers', {
          business_phone: '+14155550123',
          webhook_url: 'https://localhost:9/hooks',
        });
        expect(provisioned.status).toBe(201);
        number = provisioned.body;
        const ofB = await strangerB.post('/numbers', { business_phone: '+14155550124' });
        expect(ofB.status).toBe(201);
        numberB = ofB.body;
        secrets.add(ofB.body.webhook_secret);
        const reported = await admin.request('POST', '/admin/provider/calls', {
          to: number.phone_number,
          caller: '+14155550199',
          duration_sec: 95,
          outcome: 'order_placed',
          started_at: new Date().toISOString(),
          transcript: [{ role: 'agent', text: 'Pizza Planet, how can I help?' }],
          recording: true,
        });
        expect(reported.status).toBe(202);
        callSid = reported.body.call_sid;
      });

      it('shows webhook_secret once, at provisioning, as /v1 does', async () => {
        expect(number.webhook_secret).toEqual(expect.any(String));
        secrets.add(number.webhook_secret!);
        const got = await viewer.get(`/numbers/${number.id}`);
        expect(got.status).toBe(200);
        expect(got.body).toMatchObject({
          id: number.id,
          phone_number: number.phone_number,
          webhook_url: 'https://localhost:9/hooks',
        });
        expect(got.body).not.toHaveProperty('webhook_secret');
        const listed = await viewer.get('/numbers');
        expect(listed.body.data.map((n: { id: string }) => n.id)).toEqual([number.id]);
        expect(JSON.stringify(listed.body)).not.toContain(number.webhook_secret);
      });

      it('changes the webhook url with the same validation, and refuses viewers', async () => {
        const bad = await developer.request('PATCH', `/numbers/${number.id}`, { webhook_url: 'http://example.com/x' });
        expect(bad.status).toBe(400);
        expect(bad.body.error.message).toMatch(/^webhook_url/);
        expect((await viewer.request('PATCH', `/numbers/${number.id}`, { webhook_url: null })).status).toBe(403);
        expect((await viewer.post('/numbers', { business_phone: '+14155550123' })).status).toBe(403);
        expect((await owner.get(`/numbers/${number.id}`)).body.webhook_url).toBe('https://localhost:9/hooks');
      });

      it("never shows one account another's numbers", async () => {
        expect((await strangerB.get(`/numbers/${number.id}`)).status).toBe(404);
        expect((await strangerB.request('PATCH', `/numbers/${number.id}`, { webhook_url: null })).status).toBe(404);
        expect((await strangerB.request('DELETE', `/numbers/${number.id}`)).status).toBe(404);
        expect((await strangerB.get('/numbers')).body.data.map((n: { id: string }) => n.id)).toEqual([numberB.id]);
        expect((await owner.get(`/numbers/${numberB.id}`)).status).toBe(404);
      });

      it('provisions once for a retried request with the same Idempotency-Key, as /v1 does', async () => {
        const headers = { 'idempotency-key': 'console-double-click-1' };
        const first = await strangerB.post('/numbers', { business_phone: '+14155550125' }, { headers });
        expect(first.status).toBe(201);
        secrets.add(first.body.webhook_secret);
        const again = await strangerB.post('/numbers', { business_phone: '+14155550125' }, { headers });
        expect(again.status).toBe(201);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.body).toEqual(first.body);
        const reused = await strangerB.post('/numbers', { business_phone: '+14155550126' }, { headers });
        expect(reused.status).toBe(422);
        expect((await strangerB.get('/numbers')).body.data).toHaveLength(2);
      });

      it('lists, gets and reads the transcript of a call, with filters and pages', async () => {
        let listed!: HttpAnswer;
        for (let i = 0; i < 100; i += 1) {
          listed = await viewer.get(`/calls?number_id=${number.id}&limit=1`);
          if (listed.body.data?.length) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(listed.status).toBe(200);
        expect(listed.body).toEqual({
          data: [
            expect.objectContaining({
              id: callSid,
              number_id: number.id,
              duration_sec: 95,
              has_recording: true,
              has_transcript: true,
            }),
          ],
          has_more: false,
        });
        expect((await viewer.get(`/calls/${callSid}`)).body.id).toBe(callSid);
        expect((await viewer.get(`/calls/${callSid}/transcript`)).body).toEqual({
          call_sid: callSid,
          turns: [{ role: 'agent', text: 'Pizza Planet, how can I help?' }],
        });
        const badCursor = await viewer.get('/calls?starting_after=CA00');
        expect(badCursor.status).toBe(400);
        expect((await viewer.get('/calls?limit=0')).body.error.message).toMatch(/^limit must be at least 1/);
      });

      it('streams the recording through the session, byte ranges included', async () => {
        const headers = { cookie: `sb_session=${viewer.cookie}` };
        const whole = await fetch(`${system.publicUrl}/console/api/calls/${callSid}/recording`, { headers });
        expect(whole.status).toBe(200);
        expect(whole.headers.get('content-type')).toBe('audio/mpeg');
        const bytes = Buffer.from(await whole.arrayBuffer());
        expect(bytes.length).toBeGreaterThan(100);
        const part = await fetch(`${system.publicUrl}/console/api/calls/${callSid}/recording`, {
          headers: { ...headers, range: 'bytes=10-19' },
        });
        expect(part.status).toBe(206);
        expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
        expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(10, 20));
        const outside = await fetch(`${system.publicUrl}/console/api/calls/${callSid}/recording`, {
          headers: { ...headers, range: `bytes=${bytes.length + 5}-` },
        });
        expect(outside.status).toBe(416);
        expect((await fetch(`${system.publicUrl}/console/api/calls/${callSid}/recording`)).status).toBe(401);
      });

      it("never shows one account another's calls", async () => {
        expect((await strangerB.get('/calls')).body.data).toEqual([]);
        for (const path of [`/calls/${callSid}`, `/calls/${callSid}/transcript`, `/calls/${callSid}/recording`]) {
          expect((await strangerB.get(path)).status).toBe(404);
        }
      });

      it("lists the webhook attempts of the account's own number only", async () => {
        let attempts!: HttpAnswer;
        for (let i = 0; i < 100; i += 1) {
          attempts = await viewer.get(`/numbers/${number.id}/webhook-deliveries`);
          if (attempts.body.data?.length) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(attempts.status).toBe(200);
        expect(attempts.body.data[0]).toMatchObject({
          call_sid: callSid,
          url: 'https://localhost:9/hooks',
          attempt: expect.any(Number),
        });
        const foreign = await strangerB.get(`/numbers/${number.id}/webhook-deliveries`);
        expect(foreign.status).toBe(404);
        expect(foreign.body.error.code).toBe('not_found');
      });
    });

    describe('money', () => {
      it('shows the account, balance and ledger to every role', async () => {
        const account = await viewer.get('/account');
        expect(account.status).toBe(200);
        expect(account.body).toEqual({
          id: accountA,
          name: 'Account A',
          tier: 'starter',
          number_limit: expect.any(Number),
          auto_top_up: null,
        });
        const balance = await viewer.get('/balance');
        expect(balance.status).toBe(200);
        expect(balance.body).toMatchObject({ balance_cents: expect.any(Number), tier: 'starter' });
        const ledger = await viewer.get('/ledger?limit=1');
        expect(ledger.status).toBe(200);
        expect(ledger.body).toMatchObject({
          account_id: accountA,
          data: [expect.objectContaining({ id: expect.any(String) })],
          has_more: true,
        });
        const next = await viewer.get(`/ledger?limit=1&starting_after=${ledger.body.data[0].id}`);
        expect(next.body.data[0].id).not.toBe(ledger.body.data[0].id);
      });

      it('lets only an owner set auto-top-up, with the operator PATCH validation', async () => {
        const byDeveloper = await developer.request('PUT', '/account/auto-top-up', {
          threshold_cents: 1000,
          amount_cents: 2000,
        });
        expect(byDeveloper.status).toBe(403);
        expect(byDeveloper.body.error.message).toMatch(
          /^A developer user cannot change auto-top-up; only an owner can/,
        );
        const bad = await owner.request('PUT', '/account/auto-top-up', { threshold_cents: 1000, amount_cents: 100 });
        expect(bad.status).toBe(400);
        expect(bad.body.error.message).toBe('auto_top_up.amount_cents must be at least 500');
        const unknown = await owner.request('PUT', '/account/auto-top-up', {
          threshold_cents: 1000,
          amount_cents: 2000,
          extra: 1,
        });
        expect(unknown.status).toBe(400);
        expect((await owner.get('/account')).body.auto_top_up).toBeNull();
        const set = await owner.request('PUT', '/account/auto-top-up', { threshold_cents: 1000, amount_cents: 2000 });
        expect(set.status).toBe(200);
        expect(set.body.auto_top_up).toEqual({ threshold_cents: 1000, amount_cents: 2000 });
        const off = await owner.request('PUT', '/account/auto-top-up', null);
        expect(off.status).toBe(200);
        expect(off.body.auto_top_up).toBeNull();
        expect((await strangerB.get('/account')).body.id).toBe(accountB);
      });

      it('counts calls and seconds per day, every day present, today last', async () => {
        const usage = await viewer.get('/usage/daily?days=7');
        expect(usage.status).toBe(200);
        expect(usage.body.data).toHaveLength(7);
        expect(usage.body.data[6]).toEqual({ date: new Date().toISOString().slice(0, 10), calls: 1, seconds: 95 });
        expect(usage.body.data.slice(0, 6).every((day: { calls: number }) => day.calls === 0)).toBe(true);
        expect((await viewer.get('/usage/daily')).body.data).toHaveLength(30);
        expect((await strangerB.get('/usage/daily?days=1')).body.data).toEqual([
          { date: usage.body.data[6].date, calls: 0, seconds: 0 },
        ]);
        for (const days of ['0', '91', 'x']) {
          const bad = await viewer.get(`/usage/daily?days=${days}`);
          expect(bad.status).toBe(400);
          expect(bad.body.error.message).toMatch(/^days must/);
        }
      });
    });
  });

  describe('the pages', () => {
    it('serves index.html at /console/ and for client routes, with no-store and a strict CSP', async () => {
      for (const path of ['/console/', '/console/accept-invite', '/console/keys/key_1']) {
        const page = await fetch(`${system.publicUrl}${path}`);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(page.headers.get('cache-control')).toBe('no-store');
        expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
        expect(await page.text()).toContain('Switchboard console');
      }
      const bare = await fetch(`${system.publicUrl}/console`, { redirect: 'manual' });
      expect(bare.status).toBe(308);
      expect(bare.headers.get('location')).toBe('/console/');
    });

    it('serves hashed assets with a long cache, and 404 for missing files and unknown API routes', async () => {
      const asset = await fetch(`${system.publicUrl}/console/assets/index-abc123.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await asset.text()).toBe('console.log("console");');
      expect((await fetch(`${system.publicUrl}/console/assets/missing-1.js`)).status).toBe(404);
      expect((await fetch(`${system.publicUrl}/console/%2e%2e/%2e%2e/package.json`)).status).toBe(404);
      const api = await fetch(`${system.publicUrl}/console/api/nothing-here`);
      expect(api.status).toBe(404);
      expect(await api.json()).toEqual({ error: { code: 'not_found', message: 'No such console API route.' } });
    });

    it('answers 503 saying to run npm run build while the console is not built', async () => {
      renameSync(join(distDir, 'index.html'), join(distDir, 'index.html.away'));
      try {
        const page = await fetch(`${system.publicUrl}/console/`);
        expect(page.status).toBe(503);
        expect(await page.text()).toContain('npm run build');
      } finally {
        renameSync(join(distDir, 'index.html.away'), join(distDir, 'index.html'));
      }
    });
  });

  it('never logs a secret: passwords, cookies, CSRF and invite tokens', () => {
    const logged = logLines.join('');
    expect(logged).toContain('"route":"/console/api/sign-in"');
    secrets.add(PASSWORD);
    for (const secret of secrets) expect(logged).not.toContain(secret);
  });
});
