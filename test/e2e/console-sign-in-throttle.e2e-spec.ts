import { testNatsEnv } from '@switchboard/testing';
import { createGateway, type GatewayRuntime } from '../../apps/gateway/src/bootstrap';
import { AdminClient, ConsoleClient, startSystem, type HttpAnswer, type RunningSystem } from './support';

jest.setTimeout(120_000);

const PASSWORD = 'quiet otter builds paper maps';

/**
 * Issue 47, item 1: sign-in guesses sent in parallel are throttled exactly as the same guesses sent one after
 * another (docs/adr/0066), across two gateway replicas sharing one database. Client addresses come from
 * X-Forwarded-For, the test's loopback being a trusted proxy.
 */
describe('the console sign-in throttle under concurrent guesses', () => {
  let system: RunningSystem;
  let replica: GatewayRuntime;
  let replicaUrl: string;
  let admin: AdminClient;
  let accountId: string;

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing'], env: { TRUSTED_PROXIES: '127.0.0.1,::1' } });
    // A second gateway over the same database, as two replicas behind one load balancer.
    replica = await createGateway({ ...system.env, ...testNatsEnv('gateway') });
    replicaUrl = (await replica.listen({ port: 0, adminPort: 0 })).publicUrl;
    admin = new AdminClient(system);
    accountId = (await admin.createAccount({ name: 'Throttle Inc', balance_cents: 1_000 })).id;
  });

  afterAll(async () => {
    await replica?.close();
    await system?.stop();
  });

  /** An operator invites `email` as a viewer, who accepts with PASSWORD. */
  async function user(email: string): Promise<void> {
    const invited = await admin.request('POST', `/admin/accounts/${accountId}/users`, { email, role: 'viewer' });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.invite_url).hash.replace('#token=', '');
    expect((await new ConsoleClient(system).post('/invites/accept', { token, password: PASSWORD })).status).toBe(200);
  }

  /** One sign-in from `clientIp`, through the first gateway or the replica (`n` even or odd). */
  function signIn(n: number, clientIp: string, email: string, password: string): Promise<HttpAnswer> {
    const gateway = n % 2 === 0 ? system : { ...system, publicUrl: replicaUrl };
    return new ConsoleClient(gateway).post(
      '/sign-in',
      { email, password },
      { headers: { 'x-forwarded-for': clientIp } },
    );
  }

  function statuses(answers: HttpAnswer[]): Record<number, number> {
    const counts: Record<number, number> = {};
    for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
    return counts;
  }

  it('checks exactly 5 of 100 parallel wrong passwords for one user from 4 clients, refusing 95 with 429', async () => {
    await user('pat.parallel@example.com');
    const clients = ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4'];
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, n) =>
        signIn(n, clients[n % 4], 'pat.parallel@example.com', `wrong password number ${n}`),
      ),
    );
    expect(statuses(answers)).toEqual({ 401: 5, 429: 95 });
    for (const answer of answers.filter((a) => a.status === 429)) {
      expect(answer.body.error.code).toBe('sign_in_throttled');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(800);
    }
    for (const answer of answers.filter((a) => a.status === 401))
      expect(answer.body.error.code).toBe('invalid_credentials');

    // Locked out: the right password is refused too, on both replicas and from a client that has not guessed.
    const right = await Promise.all([0, 1].map((n) => signIn(n, '198.51.100.9', 'pat.parallel@example.com', PASSWORD)));
    expect(right.map((answer) => answer.status)).toEqual([429, 429]);
    expect(right.every((answer) => answer.headers.getSetCookie().length === 0)).toBe(true);
  });

  it('from one client, checks 5 of 20 parallel wrong passwords, then refuses 10 parallel right ones', async () => {
    await user('rita.right@example.com');
    const wrong = await Promise.all(
      Array.from({ length: 20 }, (_, n) => signIn(n, '203.0.113.5', 'rita.right@example.com', `not it ${n}`)),
    );
    expect(statuses(wrong)).toEqual({ 401: 5, 429: 15 });
    const right = await Promise.all(
      Array.from({ length: 10 }, (_, n) => signIn(n, '203.0.113.5', 'rita.right@example.com', PASSWORD)),
    );
    expect(statuses(right)).toEqual({ 429: 10 });
    // The client's window holds those 5 failures only: another user signs in from it.
    await user('sam.sameclient@example.com');
    expect((await signIn(1, '203.0.113.5', 'sam.sameclient@example.com', PASSWORD)).status).toBe(200);
  });

  it('checks exactly 20 guesses one client sprays over many addresses, a right password in between not counted', async () => {
    await user('una.unlucky@example.com');
    const client = '192.0.2.77';
    const first = await Promise.all(
      Array.from({ length: 19 }, (_, n) => signIn(n, client, `nobody${n}@example.com`, `guess ${n} of many`)),
    );
    expect(statuses(first)).toEqual({ 401: 19 });
    // A right password takes an attempt while it is checked and gives it back: the client still has one guess.
    expect((await signIn(0, client, 'una.unlucky@example.com', PASSWORD)).status).toBe(200);
    const rest = await Promise.all(
      Array.from({ length: 11 }, (_, n) => signIn(n, client, `somebody${n}@example.com`, `guess ${n} of many`)),
    );
    expect(statuses(rest)).toEqual({ 401: 1, 429: 10 });
    // Only that client is slowed: the same addresses from another client are still checked.
    expect((await signIn(1, '192.0.2.78', 'nobody0@example.com', 'guess again')).status).toBe(401);
  });
});
