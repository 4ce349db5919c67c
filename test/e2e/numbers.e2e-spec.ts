import { isUsE164 } from '@switchboard/contracts';
import { NumbersBillingPrisma } from '../../apps/numbers-billing/src/prisma/numbers-billing-prisma';
import { AdminClient, ApiSession, publicRequest, startSystem, type RunningSystem } from './support';

jest.setTimeout(90_000);

/** POST /v1/numbers, GET /v1/numbers, DELETE /v1/numbers/{id} and the provider operator routes, over HTTP. */
describe('numbers through the gateway', () => {
  let system: RunningSystem;
  let admin: AdminClient;

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing'] });
    admin = new AdminClient(system);
  });
  afterAll(() => system?.stop());

  const body = (overrides: Record<string, unknown> = {}) => ({ business_phone: '+14155550123', ...overrides });
  const balanceOf = async (session: ApiSession) =>
    (await admin.request('GET', `/admin/accounts/${session.accountId}`)).body.balance_cents as number;
  /** Test set-up only: moves an account's numbers out of the velocity window (the spec has no clock to turn). */
  const ageNumbers = async (session: ApiSession) => {
    const prisma = system.services['numbers-billing']!.get(NumbersBillingPrisma);
    await prisma.$executeRaw`UPDATE numbers SET created_at = created_at - interval '2 hours' WHERE account_id = ${session.accountId}`;
  };

  describe('POST /v1/numbers', () => {
    it('answers 201 with the number and its webhook_secret, and charges the first month', async () => {
      const session = await ApiSession.create(system, { balance_cents: 1_000 });
      const answer = await session.post('/numbers', body({ webhook_url: 'https://93.184.215.14/hooks' }));
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({
        id: expect.stringMatching(/^num_\d+$/),
        phone_number: expect.stringMatching(/^\+1415\d{7}$/),
        business_phone: '+14155550123',
        status: 'active',
        webhook_url: 'https://93.184.215.14/hooks',
        webhook_events: ['call.completed'],
        max_call_minutes: 60,
        created_at: expect.any(String),
        webhook_secret: expect.any(String),
        livemode: true,
      });
      expect(isUsE164(answer.body.phone_number)).toBe(true);
      expect(answer.body.webhook_secret.length).toBeGreaterThanOrEqual(43);
      expect(await balanceOf(session)).toBe(500);
    });

    it('buys in the requested area_code', async () => {
      const session = await ApiSession.create(system);
      const answer = await session.post('/numbers', body({ area_code: '212' }));
      expect(answer.status).toBe(201);
      expect(answer.body.phone_number.startsWith('+1212')).toBe(true);
    });

    it.each([
      ['a malformed business_phone', { business_phone: '4155550123' }, 'business_phone'],
      ['a business_phone that is not a US number', { business_phone: '+442071838750' }, 'business_phone'],
      ['an area_code that is not one', { area_code: '12' }, 'area_code'],
      ['a webhook_url over plain http', { webhook_url: 'http://93.184.215.14/hooks' }, 'webhook_url'],
      ['a webhook_url on a private address', { webhook_url: 'https://10.0.0.8/hooks' }, 'webhook_url'],
      ['a webhook_url on the metadata address', { webhook_url: 'https://169.254.169.254/' }, 'webhook_url'],
      ['a webhook_url on an IPv4-mapped loopback', { webhook_url: 'https://[::ffff:7f00:1]/' }, 'webhook_url'],
      ['a webhook_url whose name resolves to loopback', { webhook_url: 'https://localhost/hooks' }, 'webhook_url'],
      ['an unknown field', { colour: 'blue' }, 'colour'],
    ])('refuses %s with 400 invalid_request naming the field, and charges nothing', async (_, extra, field) => {
      const session = await ApiSession.create(system);
      const answer = await session.post('/numbers', body(extra));
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
      expect(answer.body.error.message).toContain(field);
      expect(await balanceOf(session)).toBe(10_000);
    });

    it('refuses a request without a key with 401 unauthorized', async () => {
      const answer = await publicRequest(system, 'POST', '/v1/numbers', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body()),
      });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('unauthorized');
    });

    it('refuses a balance below $5 with 402 insufficient_balance', async () => {
      const session = await ApiSession.create(system, { balance_cents: 499 });
      const answer = await session.post('/numbers', body());
      expect(answer.status).toBe(402);
      expect(answer.body.error.code).toBe('insufficient_balance');
      expect(await balanceOf(session)).toBe(499);
    });

    it('refuses a sixth active number with 429 number_limit until the operator raises the limit', async () => {
      const session = await ApiSession.create(system);
      for (let i = 0; i < 5; i++) {
        expect((await session.post('/numbers', body())).status).toBe(201);
        await ageNumbers(session);
      }
      const refused = await session.post('/numbers', body());
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('number_limit');

      const patched = await admin.request('PATCH', `/admin/accounts/${session.accountId}`, { number_limit: 6 });
      expect(patched.body.number_limit).toBe(6);
      expect((await session.post('/numbers', body())).status).toBe(201);
    });

    it('refuses a fourth provision within an hour with 429 provision_velocity', async () => {
      const session = await ApiSession.create(system);
      for (let i = 0; i < 3; i++) expect((await session.post('/numbers', body())).status).toBe(201);
      const refused = await session.post('/numbers', body());
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('provision_velocity');
      expect(await balanceOf(session)).toBe(10_000 - 1_500);
    });

    it('refuses an area code the provider has no stock in with 409 no_numbers', async () => {
      const session = await ApiSession.create(system);
      const stock = await admin.request('PUT', '/admin/provider/stock/718', { available: 0 });
      expect(stock).toMatchObject({ status: 200, body: { area_code: '718', available: 0 } });
      const answer = await session.post('/numbers', body({ area_code: '718' }));
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('no_numbers');
      expect(await balanceOf(session)).toBe(10_000);
    });

    it('answers a transient provider failure with 503 provider_unavailable and charges nothing', async () => {
      const session = await ApiSession.create(system);
      const faults = await admin.request('PUT', '/admin/provider/faults', { provision_failures: 1 });
      expect(faults).toMatchObject({ status: 200, body: { provision_failures: 1 } });
      const answer = await session.post('/numbers', body());
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('provider_unavailable');
      expect(await balanceOf(session)).toBe(10_000);
      expect((await session.get('/numbers')).body.data).toEqual([]);
    });

    it('never spends the same dollars twice when requests race', async () => {
      const session = await ApiSession.create(system, { balance_cents: 1_000 });
      const answers = await Promise.all(Array.from({ length: 5 }, () => session.post('/numbers', body())));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
      expect(answers.filter((a) => a.status === 402)).toHaveLength(3);
      expect(await balanceOf(session)).toBe(0);
    });
  });

  describe('Idempotency-Key on POST /v1/numbers', () => {
    it('answers a retry with the first answer, secret included, without buying or charging again', async () => {
      const session = await ApiSession.create(system);
      const headers = { 'idempotency-key': 'provision-1' };
      const first = await session.post('/numbers', body(), headers);
      const retry = await session.post('/numbers', body(), headers);
      expect(first.status).toBe(201);
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect((await session.get('/numbers')).body.data).toHaveLength(1);
      expect(await balanceOf(session)).toBe(9_500);
    });

    it('refuses the same key with another body with 422 idempotency_key_reused', async () => {
      const session = await ApiSession.create(system);
      const headers = { 'idempotency-key': 'provision-2' };
      expect((await session.post('/numbers', body(), headers)).status).toBe(201);
      const other = await session.post('/numbers', body({ area_code: '212' }), headers);
      expect(other.status).toBe(422);
      expect(other.body.error.code).toBe('idempotency_key_reused');
      expect(await balanceOf(session)).toBe(9_500);
    });

    it('makes retrying a 503 safe: the retry provisions once', async () => {
      const session = await ApiSession.create(system);
      const headers = { 'idempotency-key': 'provision-3' };
      await admin.request('PUT', '/admin/provider/faults', { provision_failures: 1 });
      expect((await session.post('/numbers', body(), headers)).status).toBe(503);
      const retry = await session.post('/numbers', body(), headers);
      const again = await session.post('/numbers', body(), headers);
      expect(retry.status).toBe(201);
      expect(again.body).toEqual(retry.body);
      expect(await balanceOf(session)).toBe(9_500);
    });

    it('provisions once when the same request races itself', async () => {
      const session = await ApiSession.create(system);
      const headers = { 'idempotency-key': 'provision-race' };
      const answers = await Promise.all(Array.from({ length: 4 }, () => session.post('/numbers', body(), headers)));
      const created = answers.filter((a) => a.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
      for (const a of answers.filter((x) => x.status !== 201)) expect(a.body.error.code).toBe('idempotency_key_in_use');
      expect(await balanceOf(session)).toBe(9_500);
    });

    it('refuses a malformed key with 400 invalid_request', async () => {
      const session = await ApiSession.create(system);
      const answer = await session.post('/numbers', body(), { 'idempotency-key': 'x'.repeat(256) });
      expect(answer.status).toBe(400);
    });

    it('marks a replayed answer with Idempotent-Replayed: true, and only a replayed one', async () => {
      const session = await ApiSession.create(system);
      const headers = { 'idempotency-key': 'provision-replayed' };
      const first = await session.post('/numbers', body(), headers);
      const retry = await session.post('/numbers', body(), headers);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect((await session.post('/numbers', body())).headers.get('idempotent-replayed')).toBeNull();
    });

    it('no longer returns the webhook_secret once the key is more than 24 hours old: 422 idempotency_key_expired', async () => {
      const session = await ApiSession.create(system);
      const headers = { 'idempotency-key': 'provision-old' };
      const first = await session.post('/numbers', body(), headers);
      expect(first.status).toBe(201);
      // Test set-up only: the purchase and the gateway's record of it as they would be 25 hours later.
      const numbers = system.services['numbers-billing']!.get(NumbersBillingPrisma);
      await numbers.$executeRaw`UPDATE numbers SET created_at = created_at - interval '25 hours' WHERE account_id = ${session.accountId}`;
      await system.gateway.shared.prisma.$executeRaw`
        UPDATE idempotency_records SET created_at = created_at - interval '25 hours' WHERE account_id = ${session.accountId}`;

      const late = await session.post('/numbers', body(), headers);
      expect(late.status).toBe(422);
      expect(late.body.error.code).toBe('idempotency_key_expired');
      expect(late.body.error.message).toContain(first.body.id);
      expect(JSON.stringify(late.body)).not.toContain(first.body.webhook_secret);
      expect((await session.get('/numbers')).body.data).toHaveLength(1);
      expect(await balanceOf(session)).toBe(9_500);
    });
  });

  describe('GET /v1/numbers', () => {
    it('lists active numbers first, never with the secret, in pages', async () => {
      const session = await ApiSession.create(system);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await session.post('/numbers', body())).body.id);
      expect((await session.delete(`/numbers/${ids[2]}`)).status).toBe(200);

      const all = await session.get('/numbers');
      expect(all.status).toBe(200);
      expect(all.body.data.map((n: { id: string; status: string }) => [n.id, n.status])).toEqual([
        [ids[1], 'active'],
        [ids[0], 'active'],
        [ids[2], 'released'],
      ]);
      expect(all.body.has_more).toBe(false);
      expect(JSON.stringify(all.body)).not.toContain('webhook_secret');

      const first = await session.get('/numbers?limit=2');
      expect(first.body.data.map((n: { id: string }) => n.id)).toEqual([ids[1], ids[0]]);
      expect(first.body.has_more).toBe(true);
      const second = await session.get(`/numbers?limit=2&starting_after=${ids[0]}`);
      expect(second.body.data.map((n: { id: string }) => n.id)).toEqual([ids[2]]);
      expect(second.body.has_more).toBe(false);
    });

    it('refuses a bad limit with 400 invalid_request', async () => {
      const session = await ApiSession.create(system);
      expect((await session.get('/numbers?limit=1000')).status).toBe(400);
      expect((await session.get('/numbers?limit=abc')).status).toBe(400);
    });

    it('documents the pagination and the Idempotency-Key in the OpenAPI description', async () => {
      const doc = (await publicRequest(system, 'GET', '/v1/openapi.json')).body;
      const list = doc.paths['/v1/numbers'].get;
      expect(list.description).toContain('starting_after');
      expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
        expect.arrayContaining(['limit', 'starting_after']),
      );
      const create = doc.paths['/v1/numbers'].post;
      expect(create.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    });

    it('describes the self-service routes, and Idempotency-Key on every POST and PATCH', async () => {
      const doc = (await publicRequest(system, 'GET', '/v1/openapi.json')).body;
      expect(Object.keys(doc.paths['/v1/numbers/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
      expect(doc.paths['/v1/calls/{call_id}'].get).toBeDefined();
      expect(doc.paths['/v1/balance'].get).toBeDefined();
      const writes = Object.entries(
        doc.paths as Record<string, Record<string, { parameters?: { name: string }[] }>>,
      ).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([method]) => method === 'post' || method === 'patch')
          .map(([method, operation]) => [
            `${method} ${path}`,
            (operation.parameters ?? []).some((p) => p.name === 'Idempotency-Key'),
          ]),
      );
      expect(writes.length).toBeGreaterThanOrEqual(5);
      expect(writes.filter(([, documented]) => !documented)).toEqual([]);
      expect(doc.info.description).toContain('Idempotent-Replayed: true');
      // A nullable URL is a string or null, in the answer and in the PATCH body (not an object).
      expect(doc.components.schemas.NumberView.properties.webhook_url.type).toEqual(['string', 'null']);
      expect(doc.components.schemas.NumberUpdate.properties.webhook_url.type).toEqual(['string', 'null']);
    });
  });

  describe('GET /v1/numbers/{id}', () => {
    it('answers the number exactly as the list shows it, by num_<n> and by <n>, never with the secret', async () => {
      const session = await ApiSession.create(system);
      const created = (await session.post('/numbers', body({ webhook_url: 'https://93.184.215.14/hooks' }))).body;
      const listed = (await session.get('/numbers')).body.data[0];
      for (const id of [created.id, created.id.slice(4)]) {
        const answer = await session.get(`/numbers/${id}`);
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual(listed);
      }
      expect((await session.get(`/numbers/${created.id}`)).body.webhook_secret).toBeUndefined();
    });

    it('shows a released number with its status, as the list does', async () => {
      const session = await ApiSession.create(system);
      const created = (await session.post('/numbers', body())).body;
      expect((await session.delete(`/numbers/${created.id}`)).status).toBe(200);
      const answer = await session.get(`/numbers/${created.id}`);
      expect(answer).toMatchObject({ status: 200, body: { id: created.id, status: 'released' } });
    });

    it('answers 404 not_found for an unknown id and for another account’s number alike', async () => {
      const [session, other] = await Promise.all([ApiSession.create(system), ApiSession.create(system)]);
      const foreign = (await other.post('/numbers', body())).body;
      const answers = await Promise.all(
        ['num_999999999', foreign.id, foreign.id.slice(4)].map((id) => session.get(`/numbers/${id}`)),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        expect(answer.body.error.code).toBe('not_found');
      }
      expect(answers[0].body.error.message).toBe(answers[1].body.error.message.replace(foreign.id, 'num_999999999'));
    });

    it('refuses an id of another form with 400 invalid_request', async () => {
      const session = await ApiSession.create(system);
      const answer = await session.get('/numbers/abc');
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
    });
  });

  describe('PATCH /v1/numbers/{id}', () => {
    const numberRow = async (id: string) =>
      system.services['numbers-billing']!.get(NumbersBillingPrisma).phoneNumber.findUniqueOrThrow({
        where: { id: BigInt(id.slice(4)) },
      });

    it('sets webhook_url and business_phone, answers the number, and the list and GET agree', async () => {
      const session = await ApiSession.create(system);
      const created = (await session.post('/numbers', body())).body;
      const answer = await session.request('PATCH', `/numbers/${created.id}`, {
        webhook_url: 'https://93.184.215.14/new',
        business_phone: '+12125550142',
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        ...created,
        webhook_secret: undefined,
        webhook_url: 'https://93.184.215.14/new',
        business_phone: '+12125550142',
      });
      expect((await session.get(`/numbers/${created.id}`)).body).toEqual(answer.body);
      expect((await session.get('/numbers')).body.data[0]).toEqual(answer.body);
      expect((await numberRow(created.id)).version).toBe(2n);
    });

    it('changes one field and leaves the other; null removes the webhook', async () => {
      const session = await ApiSession.create(system);
      const created = (await session.post('/numbers', body({ webhook_url: 'https://93.184.215.14/hooks' }))).body;
      const phone = await session.request('PATCH', `/numbers/${created.id}`, { business_phone: '+12125550142' });
      expect(phone.body).toMatchObject({ business_phone: '+12125550142', webhook_url: 'https://93.184.215.14/hooks' });
      const removed = await session.request('PATCH', `/numbers/${created.id}`, { webhook_url: null });
      expect(removed.body).toMatchObject({ business_phone: '+12125550142', webhook_url: null });
    });

    it('stores webhook_url normalised (WHATWG), at creation and on change', async () => {
      const session = await ApiSession.create(system);
      const created = await session.post('/numbers', body({ webhook_url: 'HTTPS://93.184.215.14:443/a/../hooks/ü' }));
      expect(created.status).toBe(201);
      expect(created.body.webhook_url).toBe('https://93.184.215.14/hooks/%C3%BC');
      expect((await numberRow(created.body.id)).webhook_url).toBe('https://93.184.215.14/hooks/%C3%BC');
      const patched = await session.request('PATCH', `/numbers/${created.body.id}`, {
        webhook_url: 'https://93.184.215.14:443/./other/',
      });
      expect(patched.body.webhook_url).toBe('https://93.184.215.14/other/');
      expect((await numberRow(created.body.id)).webhook_url).toBe('https://93.184.215.14/other/');
    });

    it.each([
      ['an empty body', {}, 'webhook_url'],
      ['a webhook_url over plain http', { webhook_url: 'http://93.184.215.14/hooks' }, 'webhook_url'],
      ['a webhook_url on a private address', { webhook_url: 'https://10.0.0.8/hooks' }, 'webhook_url'],
      ['a webhook_url whose name resolves to loopback', { webhook_url: 'https://localhost/hooks' }, 'webhook_url'],
      ['a malformed business_phone', { business_phone: '4155550123' }, 'business_phone'],
      ['a business_phone that is not a US number', { business_phone: '+442071838750' }, 'business_phone'],
      ['a null business_phone', { business_phone: null }, 'business_phone'],
      ['a max_call_minutes of 0', { max_call_minutes: 0 }, 'max_call_minutes'],
      ['a max_call_minutes past 240', { max_call_minutes: 241 }, 'max_call_minutes'],
      ['a max_call_minutes that is not an integer', { max_call_minutes: 1.5 }, 'max_call_minutes'],
      ['a null max_call_minutes', { max_call_minutes: null }, 'max_call_minutes'],
      ['an unknown field', { area_code: '212' }, 'area_code'],
    ])('refuses %s with 400 invalid_request naming the field, and changes nothing', async (_, patch, field) => {
      const session = await ApiSession.create(system);
      const created = (await session.post('/numbers', body({ webhook_url: 'https://93.184.215.14/hooks' }))).body;
      const answer = await session.request('PATCH', `/numbers/${created.id}`, patch);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
      expect(answer.body.error.message).toContain(field);
      const row = await numberRow(created.id);
      expect(row).toMatchObject({
        webhook_url: 'https://93.184.215.14/hooks',
        business_phone: '+14155550123',
        max_call_minutes: 60,
        version: 1n,
      });
    });

    it('sets max_call_minutes alone, and the number shows it', async () => {
      const session = await ApiSession.create(system);
      const created = (await session.post('/numbers', body())).body;
      const answer = await session.request('PATCH', `/numbers/${created.id}`, { max_call_minutes: 90 });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ ...created, webhook_secret: undefined, max_call_minutes: 90 });
      expect((await session.get(`/numbers/${created.id}`)).body.max_call_minutes).toBe(90);
      expect(await numberRow(created.id)).toMatchObject({ max_call_minutes: 90, version: 2n });
    });

    it('answers 404 not_found for an unknown id and for another account’s number, changing nothing', async () => {
      const [session, other] = await Promise.all([ApiSession.create(system), ApiSession.create(system)]);
      const foreign = (await other.post('/numbers', body())).body;
      for (const id of ['num_999999999', foreign.id]) {
        const answer = await session.request('PATCH', `/numbers/${id}`, { business_phone: '+12125550142' });
        expect(answer.status).toBe(404);
        expect(answer.body.error.code).toBe('not_found');
      }
      expect((await other.get(`/numbers/${foreign.id}`)).body.business_phone).toBe('+14155550123');
    });

    it('refuses to change a released number with 409 number_released', async () => {
      const session = await ApiSession.create(system);
      const created = (await session.post('/numbers', body())).body;
      await session.delete(`/numbers/${created.id}`);
      const answer = await session.request('PATCH', `/numbers/${created.id}`, { business_phone: '+12125550142' });
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('number_released');
      expect((await session.get(`/numbers/${created.id}`)).body.business_phone).toBe('+14155550123');
    });

    it('publishes no new version when the values are the ones it has', async () => {
      const session = await ApiSession.create(system);
      const created = (await session.post('/numbers', body())).body;
      const answer = await session.request('PATCH', `/numbers/${created.id}`, { business_phone: '+14155550123' });
      expect(answer.status).toBe(200);
      expect((await numberRow(created.id)).version).toBe(1n);
    });

    it('takes an Idempotency-Key: a late retry answers the first result and does not undo a later change', async () => {
      const session = await ApiSession.create(system);
      const created = (await session.post('/numbers', body())).body;
      const headers = { 'idempotency-key': 'patch-1' };
      const first = await session.request(
        'PATCH',
        `/numbers/${created.id}`,
        { business_phone: '+12125550142' },
        headers,
      );
      await session.request('PATCH', `/numbers/${created.id}`, { business_phone: '+13125550100' });
      const retry = await session.request(
        'PATCH',
        `/numbers/${created.id}`,
        { business_phone: '+12125550142' },
        headers,
      );
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect((await session.get(`/numbers/${created.id}`)).body.business_phone).toBe('+13125550100');
      const reused = await session.request(
        'PATCH',
        `/numbers/${created.id}`,
        { business_phone: '+13125550100' },
        headers,
      );
      expect(reused.status).toBe(422);
      expect(reused.body.error.code).toBe('idempotency_key_reused');
    });
  });

  describe('DELETE /v1/numbers/{id}', () => {
    it('releases by num_<n> and by <n>, refunding nothing', async () => {
      const session = await ApiSession.create(system);
      const a = (await session.post('/numbers', body())).body;
      const b = (await session.post('/numbers', body())).body;
      expect(await session.delete(`/numbers/${a.id}`)).toMatchObject({ status: 200, body: { released: true } });
      expect(await session.delete(`/numbers/${b.id.slice(4)}`)).toMatchObject({
        status: 200,
        body: { released: true },
      });
      expect((await session.get('/numbers')).body.data.every((n: { status: string }) => n.status === 'released')).toBe(
        true,
      );
      expect(await balanceOf(session)).toBe(9_000);
    });

    it('answers 404 not_found for an unknown id and for another account’s number', async () => {
      const [session, other] = await Promise.all([ApiSession.create(system), ApiSession.create(system)]);
      const foreign = (await other.post('/numbers', body())).body;
      for (const id of ['num_999999999', '999999999', foreign.id]) {
        const answer = await session.delete(`/numbers/${id}`);
        expect(answer.status).toBe(404);
        expect(answer.body.error.code).toBe('not_found');
      }
      expect((await other.get('/numbers')).body.data[0].status).toBe('active');
    });

    it('refuses an id of another form with 400 invalid_request', async () => {
      const session = await ApiSession.create(system);
      expect((await session.delete('/numbers/abc')).status).toBe(400);
    });
  });

  describe('operator routes of the simulated provider', () => {
    it('need the admin token', async () => {
      const answer = await fetch(`${system.adminUrl}/admin/provider/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ provision_failures: 1 }),
      });
      expect(answer.status).toBe(401);
    });

    it('refuse values out of range with 400 invalid_request', async () => {
      expect((await admin.request('PUT', '/admin/provider/stock/415', { available: -1 })).status).toBe(400);
      expect((await admin.request('PUT', '/admin/provider/stock/4155', { available: 1 })).status).toBe(400);
      expect((await admin.request('PUT', '/admin/provider/faults', { provision_failures: 'many' })).status).toBe(400);
    });

    it('sells exactly the stock the operator set', async () => {
      const session = await ApiSession.create(system);
      await admin.request('PUT', '/admin/provider/stock/206', { available: 1 });
      expect((await session.post('/numbers', body({ area_code: '206' }))).status).toBe(201);
      expect((await session.post('/numbers', body({ area_code: '206' }))).status).toBe(409);
    });
  });
});
