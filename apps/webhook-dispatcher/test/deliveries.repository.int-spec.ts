import { randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClientHandle } from '@switchboard/persistence';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { WebhookDispatcherPrisma } from '../src/prisma/webhook-dispatcher-prisma';
import { DeliveriesRepository } from '../src/deliveries/deliveries.repository';
import { INTERRUPTED, IN_PROGRESS, type AttemptClaim, type NewDelivery } from '../src/deliveries/delivery-store.port';

jest.setTimeout(60_000);

const URL = 'https://hooks.example.com/switchboard';
const LEASE_MS = 30_000;
/** Slots per receiver host (ADR 0075). */
const HOST_SLOTS = 4;
/** Each event's receiver host of its own, so the tests of the delivery's lease never meet the host cap. */
const hostOf = (delivery: NewDelivery) => `hooks-${delivery.event_id}.example.com:443`;

let database: TestDatabase;
let handle: PrismaClientHandle<WebhookDispatcherPrisma>;
let prisma: WebhookDispatcherPrisma;
let store: DeliveriesRepository;

beforeAll(async () => {
  database = await createTestDatabase('webhook-dispatcher');
  handle = await createPrismaClient(WebhookDispatcherPrisma, 'webhook-dispatcher', {
    env: { WEBHOOK_DISPATCHER_DATABASE_URL: database.url },
  });
  prisma = handle.client;
  store = new DeliveriesRepository(prisma, { hostConcurrency: HOST_SLOTS });
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

function aDelivery(): NewDelivery {
  return {
    event_id: randomUUID(),
    event_type: 'call.completed',
    call_sid: `CA${randomUUID().replace(/-/g, '')}`,
    number_id: 'num_7',
    account_id: 'acc_7',
    body: '{}',
  };
}

function claim(delivery: NewDelivery, now = new Date()): Promise<AttemptClaim> {
  return store.claimAttempt({
    delivery,
    url: URL,
    host: hostOf(delivery),
    now,
    leaseUntil: new Date(now.getTime() + LEASE_MS),
  });
}

/** The endpoint health count of an attempt of `acc_7`'s number. */
const count = (succeeded: boolean) => ({ accountId: 'acc_7', succeeded });

/** The claim as `finishAttempt` takes it. */
function held(delivery: NewDelivery, claim: Extract<AttemptClaim, { kind: 'claimed' }>) {
  return {
    eventId: delivery.event_id,
    numberId: delivery.number_id,
    attemptId: claim.attemptId,
    leaseUntil: claim.leaseUntil,
    host: hostOf(delivery),
    slot: claim.slot,
  };
}

function claimed(result: AttemptClaim): Extract<AttemptClaim, { kind: 'claimed' }> {
  if (result.kind !== 'claimed') throw new Error(`expected a claim, got ${JSON.stringify(result)}`);
  return result;
}

const endpoint = (numberId: string) => prisma.webhookEndpoint.findUnique({ where: { number_id: numberId } });
const slotsOf = async (host: string) =>
  (await prisma.webhookHostSlot.findMany({ where: { host }, orderBy: { slot: 'asc' } })).map((s) => s.slot);
const row = (eventId: string) => prisma.webhookDelivery.findUnique({ where: { event_id: eventId } });
const attempts = (eventId: string) =>
  prisma.webhookAttempt.findMany({
    where: { event_id: eventId },
    orderBy: { id: 'asc' },
    select: { attempt: true, status_code: true, error: true, finished_at: true, url: true, call_sid: true },
  });

describe('DeliveriesRepository against PostgreSQL', () => {
  it('creates the delivery with its first claim and logs the attempt in progress, in one statement', async () => {
    const delivery = aDelivery();
    const now = new Date();
    const first = claimed(await claim(delivery, now));
    expect(first).toMatchObject({ attempt: 1, interrupted: 0, leaseUntil: new Date(now.getTime() + LEASE_MS) });
    expect(await row(delivery.event_id)).toMatchObject({
      ...delivery,
      status: 'pending',
      attempts: 0,
      lease_until: new Date(now.getTime() + LEASE_MS),
    });
    expect(await attempts(delivery.event_id)).toEqual([
      { attempt: 1, status_code: null, error: IN_PROGRESS, finished_at: null, url: URL, call_sid: delivery.call_sid },
    ]);
  });

  it('lets exactly one of many concurrent claims of a new event through; the others find the lease taken', async () => {
    const delivery = aDelivery();
    const now = new Date();
    const results = await Promise.all(Array.from({ length: 8 }, () => claim(delivery, now)));
    expect(results.filter((r) => r.kind === 'claimed')).toHaveLength(1);
    // The others found the lease taken, or every slot of the host taken by the claims racing them.
    expect(results.filter((r) => r.kind === 'busy' || r.kind === 'host_busy')).toHaveLength(7);
    expect(await attempts(delivery.event_id)).toHaveLength(1);
    // Only the winner holds a slot: a claim refused gives back the slot it took.
    expect(await slotsOf(hostOf(delivery))).toEqual([claimed(results.find((r) => r.kind === 'claimed')!).slot]);
  });

  it("holds at most the host's slots at once, and gives a slot back with the attempt's outcome", async () => {
    const first = aDelivery();
    const host = hostOf(first);
    const events = [first, ...Array.from({ length: HOST_SLOTS }, aDelivery)];
    const now = new Date();
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    const results = [];
    for (const delivery of events)
      results.push(await store.claimAttempt({ delivery, url: URL, host, now, leaseUntil }));
    expect(results.map((r) => r.kind)).toEqual([...Array(HOST_SLOTS).fill('claimed'), 'host_busy']);
    expect(await attempts(events[HOST_SLOTS].event_id)).toHaveLength(0);
    expect(await row(events[HOST_SLOTS].event_id)).toBeNull();
    expect(await slotsOf(host)).toHaveLength(HOST_SLOTS);

    const done = claimed(results[0]);
    await store.finishAttempt(
      { ...held(first, done), host },
      { status_code: 204, error: null, finished_at: now, duration_ms: 1 },
      { status: 'delivered', attempts: 1, next_attempt_at: null },
    );
    expect(await slotsOf(host)).toHaveLength(HOST_SLOTS - 1);
    claimed(await store.claimAttempt({ delivery: events[HOST_SLOTS], url: URL, host, now, leaseUntil }));

    // A slot whose holder stopped frees itself when its lease ends.
    const later = new Date(leaseUntil.getTime() + 1);
    await prisma.$executeRawUnsafe(
      `UPDATE webhook_host_slots SET lease_until = now() - interval '1 second' WHERE host = $1 AND slot = $2`,
      host,
      claimed(results[1]).slot,
    );
    claimed(
      await store.claimAttempt({
        delivery: aDelivery(),
        url: URL,
        host,
        now: later,
        leaseUntil: new Date(later.getTime() + LEASE_MS),
      }),
    );
  });

  it('records the outcome and the new state only while the lease is held', async () => {
    const delivery = aDelivery();
    const now = new Date();
    const first = claimed(await claim(delivery, now));
    const outcome = {
      status_code: 500,
      error: 'receiver answered HTTP 500',
      finished_at: new Date(now.getTime() + 20),
      duration_ms: 20,
    };
    const next = new Date(now.getTime() + 1000);
    expect(
      await store.finishAttempt(held(delivery, first), outcome, {
        status: 'pending',
        attempts: 1,
        next_attempt_at: next,
      }),
    ).toEqual({ kept: true });
    expect(await row(delivery.event_id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      next_attempt_at: next,
      lease_until: null,
    });

    // A worker whose lease ran out (another one took over) still logs its attempt but changes nothing else.
    const later = new Date(next.getTime() + 1);
    const second = claimed(await claim(delivery, later));
    const stale = { ...held(delivery, second), leaseUntil: new Date(later.getTime() + 1) };
    const late = { status_code: 200, error: null, finished_at: new Date(later.getTime() + 5), duration_ms: 5 };
    expect(
      await store.finishAttempt(stale, late, { status: 'delivered', attempts: 2, next_attempt_at: null }, count(true)),
    ).toEqual({ kept: false });
    expect(await row(delivery.event_id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lease_until: second.leaseUntil,
    });
    expect((await attempts(delivery.event_id)).map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'receiver answered HTTP 500'],
      [2, 200, null],
    ]);
  });

  it('refuses a claim before the backoff is over, then claims the next attempt number', async () => {
    const delivery = aDelivery();
    const now = new Date();
    const first = claimed(await claim(delivery, now));
    const next = new Date(now.getTime() + 5000);
    await store.finishAttempt(
      held(delivery, first),
      { status_code: null, error: 'connection refused', finished_at: now, duration_ms: 1 },
      { status: 'pending', attempts: 1, next_attempt_at: next },
    );
    expect(await claim(delivery, new Date(now.getTime() + 10))).toEqual({ kind: 'waiting', until: next });
    expect(claimed(await claim(delivery, next)).attempt).toBe(2);
  });

  it('closes an attempt cut short by a crash as interrupted, does not count it, and sends it again under its number', async () => {
    const delivery = aDelivery();
    const now = new Date();
    claimed(await claim(delivery, now));
    // The worker died on the wire: nothing was finished; its lease runs out.
    const afterLease = new Date(now.getTime() + LEASE_MS);
    expect(await claim(delivery, new Date(afterLease.getTime() - 1))).toEqual({ kind: 'busy', until: afterLease });
    const again = claimed(await claim(delivery, afterLease));
    expect(again).toMatchObject({ attempt: 1, interrupted: 1 });
    expect((await attempts(delivery.event_id)).map((a) => [a.attempt, a.error, a.finished_at])).toEqual([
      [1, INTERRUPTED, afterLease],
      [1, IN_PROGRESS, null],
    ]);
    expect(await row(delivery.event_id)).toMatchObject({ attempts: 0 });
  });

  it('answers closed for an event with its verdict, and never claims it again', async () => {
    const delivery = aDelivery();
    const now = new Date();
    const first = claimed(await claim(delivery, now));
    await store.finishAttempt(
      held(delivery, first),
      { status_code: 204, error: null, finished_at: now, duration_ms: 3 },
      { status: 'delivered', attempts: 1, next_attempt_at: null },
    );
    expect(await claim(delivery, new Date(now.getTime() + LEASE_MS * 2))).toEqual({
      kind: 'closed',
      status: 'delivered',
    });
    await store.close(delivery, 'skipped');
    expect(await row(delivery.event_id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await attempts(delivery.event_id)).toHaveLength(1);
  });

  it('closes a new event without an attempt, and a pending one with its lease', async () => {
    const fresh = aDelivery();
    await store.close(fresh, 'skipped');
    expect(await row(fresh.event_id)).toMatchObject({ ...fresh, status: 'skipped', attempts: 0, lease_until: null });
    expect(await claim(fresh)).toEqual({ kind: 'closed', status: 'skipped' });

    const pending = aDelivery();
    claimed(await claim(pending));
    await store.close(pending, 'skipped');
    expect(await row(pending.event_id)).toMatchObject({ status: 'skipped', lease_until: null });
  });

  it('closes only a delivery already begun with closeBegun: nothing written for a new event, a verdict kept', async () => {
    const fresh = aDelivery();
    await store.closeBegun(fresh.event_id, 'skipped');
    expect(await row(fresh.event_id)).toBeNull();

    const waiting = aDelivery();
    const now = new Date();
    const first = claimed(await claim(waiting, now));
    await store.finishAttempt(
      held(waiting, first),
      { status_code: 500, error: 'receiver answered HTTP 500', finished_at: now, duration_ms: 2 },
      { status: 'pending', attempts: 1, next_attempt_at: new Date(now.getTime() + 1000) },
    );
    await store.closeBegun(waiting.event_id, 'skipped');
    expect(await row(waiting.event_id)).toMatchObject({
      status: 'skipped',
      attempts: 1,
      next_attempt_at: null,
      lease_until: null,
    });

    await store.closeBegun(waiting.event_id, 'failed');
    expect(await row(waiting.event_id)).toMatchObject({ status: 'skipped' });
  });
  it('claims nothing while the endpoint is disabled when asked to pause, and claims for a test event', async () => {
    const delivery = { ...aDelivery(), number_id: `num_${randomUUID()}` };
    await prisma.webhookEndpoint.create({
      data: { number_id: delivery.number_id, account_id: 'acc_7', disabled_at: new Date(), disabled_reason: 'gone' },
    });
    const now = new Date();
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    expect(
      await store.claimAttempt({ delivery, url: URL, host: hostOf(delivery), now, leaseUntil, pauseIfDisabled: true }),
    ).toEqual({
      kind: 'paused',
    });
    expect(await row(delivery.event_id)).toBeNull();
    expect(await attempts(delivery.event_id)).toHaveLength(0);
    claimed(
      await store.claimAttempt({ delivery, url: URL, host: hostOf(delivery), now, leaseUntil, pauseIfDisabled: false }),
    );
    // An event that already has its verdict is a duplicate, paused or not.
    await store.close(delivery, 'delivered');
    expect(
      await store.claimAttempt({ delivery, url: URL, host: hostOf(delivery), now, leaseUntil, pauseIfDisabled: true }),
    ).toEqual({
      kind: 'closed',
      status: 'delivered',
    });
  });

  it('counts the attempt in its endpoint health in the same statement, only while the lease is held', async () => {
    const delivery = { ...aDelivery(), number_id: `num_${randomUUID()}` };
    const ref = (c: Extract<AttemptClaim, { kind: 'claimed' }>) => held(delivery, c);
    const t0 = new Date();
    const first = claimed(await claim(delivery, t0));
    const failed = { status_code: 500, error: 'receiver answered HTTP 500', finished_at: t0, duration_ms: 1 };
    const retry = { status: 'pending' as const, attempts: 1, next_attempt_at: t0 };
    expect(await store.finishAttempt(ref(first), failed, retry, count(false))).toEqual({
      kept: true,
      endpoint: { consecutive_failures: 1, failing_since: t0, disabled_at: null },
    });
    const t1 = new Date(t0.getTime() + 1000);
    const second = claimed(await claim(delivery, t1));
    const again = await store.finishAttempt(
      ref(second),
      { ...failed, finished_at: t1 },
      { ...retry, attempts: 2 },
      count(false),
    );
    expect(again.endpoint).toEqual({ consecutive_failures: 2, failing_since: t0, disabled_at: null });
    const t2 = new Date(t1.getTime() + 1000);
    const third = claimed(await claim(delivery, t2));
    const ok = { status_code: 204, error: null, finished_at: t2, duration_ms: 1 };
    expect(
      (
        await store.finishAttempt(
          ref(third),
          ok,
          { status: 'delivered', attempts: 3, next_attempt_at: null },
          count(true),
        )
      ).endpoint,
    ).toEqual({ consecutive_failures: 0, failing_since: null, disabled_at: null });
    expect(await endpoint(delivery.number_id)).toMatchObject({ account_id: 'acc_7', consecutive_failures: 0 });
  });
});
