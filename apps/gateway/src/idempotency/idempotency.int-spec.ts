import { ServiceError } from '@switchboard/contracts';
import { createPrismaClient, type PrismaClientHandle } from '@switchboard/persistence';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { GatewayPrisma } from '../prisma/gateway-prisma';
import { IdempotencyRepository } from './idempotency.repository';
import {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_RETENTION_MS,
  IdempotencyService,
  requestHash,
  type IdempotentRequest,
} from './idempotency.service';

jest.setTimeout(30_000);

interface Answer {
  id: string;
  secret: string;
}

let db: TestDatabase;
let handle: PrismaClientHandle<InstanceType<typeof GatewayPrisma>>;
let service: IdempotencyService;
let n = 0;

beforeAll(async () => {
  db = await createTestDatabase('gateway');
  handle = await createPrismaClient(GatewayPrisma, 'gateway', { env: { GATEWAY_DATABASE_URL: db.url } });
  service = new IdempotencyService(new IdempotencyRepository(handle.client));
});
afterAll(async () => {
  await handle?.close();
  await db?.drop();
});

function request(overrides: Partial<IdempotentRequest> = {}): IdempotentRequest {
  n += 1;
  return {
    accountId: `acct_${String(n).padStart(20, '0')}`,
    key: `key-${n}`,
    method: 'POST',
    path: '/v1/numbers',
    body: { business_phone: '+14155550123' },
    ...overrides,
  };
}

/** A route whose first run answers a new id and a secret; replays get the secret from `restore`. */
function route(
  calls: { run: number; restore: number },
  run: () => Promise<Answer> = async () => ({ id: `num_${calls.run}`, secret: 'whsec_first' }),
) {
  return {
    status: 201,
    run: () => {
      calls.run += 1;
      return run();
    },
    secretFields: ['secret' as const],
    restore: async (stored: Partial<Answer>) => {
      calls.restore += 1;
      return { ...(stored as Answer), secret: 'whsec_first' };
    },
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'ok',
    (e: unknown) => (e instanceof ServiceError ? e.code : `unexpected: ${String(e)}`),
  );
}

describe('IdempotencyService', () => {
  it('runs a request once and replays its answer to a retry, without storing the secret', async () => {
    const calls = { run: 0, restore: 0 };
    const req = request();
    const first = await service.execute(req, route(calls));
    const second = await service.execute(req, route(calls));
    expect(second).toEqual(first);
    expect(calls).toEqual({ run: 1, restore: 1 });
    const [row] = await handle.client.idempotencyRecord.findMany({ where: { account_id: req.accountId } });
    expect(row).toMatchObject({ response_status: 201, response_body: { id: 'num_1' } });
    expect(JSON.stringify(row.response_body)).not.toContain('whsec_first');
  });

  it('tells the route when its answer is a replay, and only then', async () => {
    const calls = { run: 0, restore: 0 };
    const replays: string[] = [];
    const req = request({ path: '/v1/lostfound/claims', body: { claimant_name: 'Jane' } });
    const plain = { status: 201, run: async () => ({ id: 7 }), onReplay: () => void replays.push('replayed') };
    await service.execute(req, plain);
    expect(replays).toEqual([]);
    await expect(service.execute(req, plain)).resolves.toEqual({ id: 7 });
    expect(replays).toEqual(['replayed']);
    await service.execute(request(), { ...route(calls), onReplay: () => void replays.push('other') });
    expect(replays).toEqual(['replayed']);
  });

  it('treats the same body with its keys in another order as the same request', async () => {
    const calls = { run: 0, restore: 0 };
    const req = request({ body: { business_phone: '+14155550123', area_code: '212' } });
    await service.execute(req, route(calls));
    await service.execute({ ...req, body: { area_code: '212', business_phone: '+14155550123' } }, route(calls));
    expect(calls.run).toBe(1);
  });

  it('refuses the same key with another body, method or path with 422 idempotency_key_reused', async () => {
    const calls = { run: 0, restore: 0 };
    const req = request();
    await service.execute(req, route(calls));
    expect(await codeOf(service.execute({ ...req, body: { business_phone: '+12125550142' } }, route(calls)))).toBe(
      'idempotency_key_reused',
    );
    expect(await codeOf(service.execute({ ...req, path: '/v1/other' }, route(calls)))).toBe('idempotency_key_reused');
    expect(calls.run).toBe(1);
  });

  it('keeps keys apart per account', async () => {
    const calls = { run: 0, restore: 0 };
    const req = request();
    await service.execute(req, route(calls));
    await service.execute({ ...req, accountId: 'acct_zzzzzzzzzzzzzzzzzzzz' }, route(calls));
    expect(calls.run).toBe(2);
  });

  it('tells a retry that arrives while the first request runs 409 idempotency_key_in_use', async () => {
    const calls = { run: 0, restore: 0 };
    const req = request();
    let finish!: () => void;
    const slow = service.execute(
      req,
      route(calls, () => new Promise<Answer>((resolve) => (finish = () => resolve({ id: 'num_slow', secret: 's' })))),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await codeOf(service.execute(req, route(calls)))).toBe('idempotency_key_in_use');
    finish();
    await slow;
    expect(calls.run).toBe(1);
  });

  it('forgets a failed request, so a retry with the same key runs again', async () => {
    const calls = { run: 0, restore: 0 };
    const req = request();
    const failing = route(calls, async () => {
      throw new ServiceError('provider_unavailable', 'try again');
    });
    expect(await codeOf(service.execute(req, failing))).toBe('provider_unavailable');
    await expect(service.execute(req, route(calls))).resolves.toEqual({ id: 'num_2', secret: 'whsec_first' });
    expect(calls.run).toBe(2);
  });

  it('lets a retry take over a request abandoned in flight, once its lease is over, and says when (Retry-After)', async () => {
    const calls = { run: 0, restore: 0 };
    const req = request();
    const abandoned = (age: number) => ({
      account_id: req.accountId,
      key: req.key,
      method: 'POST',
      path: '/v1/numbers',
      request_hash: requestHash(req),
      created_at: new Date(Date.now() - age),
    });
    await handle.client.idempotencyRecord.create({ data: abandoned(1000) });
    const refused = await service.execute(req, route(calls)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'idempotency_key_in_use' });
    // The lease started a second ago: the key frees up in the lease's remaining 59 seconds.
    expect((refused as ServiceError).retryAfter).toBe(IDEMPOTENCY_LEASE_MS / 1000 - 1);
    await handle.client.idempotencyRecord.updateMany({
      where: { account_id: req.accountId },
      data: { created_at: abandoned(IDEMPOTENCY_LEASE_MS + 1000).created_at },
    });
    await expect(service.execute(req, route(calls))).resolves.toEqual({ id: 'num_1', secret: 'whsec_first' });
    expect(calls.run).toBe(1);
  });

  it('runs a request again once its record is older than 24 hours', async () => {
    const calls = { run: 0, restore: 0 };
    const req = request();
    await service.execute(req, route(calls));
    await handle.client.idempotencyRecord.updateMany({
      where: { account_id: req.accountId },
      data: { created_at: new Date(Date.now() - IDEMPOTENCY_RETENTION_MS - 1000) },
    });
    await service.execute({ ...req, body: { other: true } }, route(calls));
    expect(calls.run).toBe(2);
  });

  it('refuses a malformed key with 400 invalid_request', async () => {
    const calls = { run: 0, restore: 0 };
    expect(await codeOf(service.execute(request({ key: '' }), route(calls)))).toBe('invalid_request');
    expect(await codeOf(service.execute(request({ key: 'a b' }), route(calls)))).toBe('invalid_request');
    expect(await codeOf(service.execute(request({ key: 'x'.repeat(256) }), route(calls)))).toBe('invalid_request');
    expect(calls.run).toBe(0);
  });
});
