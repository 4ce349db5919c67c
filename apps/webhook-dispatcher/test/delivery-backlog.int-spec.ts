import { randomUUID } from 'node:crypto';
import { PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { startMetrics } from '@switchboard/observability';
import { createPrismaClient, type PrismaClientHandle } from '@switchboard/persistence';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { DeliveryBacklogGauges } from '../src/deliveries/delivery-backlog.gauges';
import { WebhookDispatcherPrisma } from '../src/prisma/webhook-dispatcher-prisma';

jest.setTimeout(60_000);

let database: TestDatabase;
let handle: PrismaClientHandle<WebhookDispatcherPrisma>;
let gauges: DeliveryBacklogGauges;

beforeAll(async () => {
  startMetrics('delivery-backlog-spec');
  database = await createTestDatabase('webhook-dispatcher');
  handle = await createPrismaClient(WebhookDispatcherPrisma, 'webhook-dispatcher', {
    env: { WEBHOOK_DISPATCHER_DATABASE_URL: database.url },
  });
  gauges = new DeliveryBacklogGauges(handle.client);
  gauges.onApplicationBootstrap();
});

afterAll(async () => {
  gauges?.beforeApplicationShutdown();
  await handle?.close();
  await database?.drop();
});

/** The gauges' lines of a scrape, `name value`. */
async function scrape(): Promise<string[]> {
  const { resourceMetrics } = await startMetrics('delivery-backlog-spec').collect();
  return new PrometheusSerializer('')
    .serialize(resourceMetrics)
    .split('\n')
    .filter((line) => /^webhook_(deliveries_pending|oldest_pending_delivery_age_seconds)\{/.test(line))
    .map((line) => line.replace(/\{.*\}/, ''));
}

const delivery = (status: string, ageSeconds: number, detached = false) =>
  handle.client.webhookDelivery.create({
    data: {
      event_id: randomUUID(),
      call_sid: 'CA0',
      number_id: 'num_1',
      account_id: 'acc_1',
      status,
      detached,
      created_at: new Date(Date.now() - ageSeconds * 1000),
    },
  });

describe('the webhook backlog gauges (WebhookBacklog, WebhookOldestPending)', () => {
  it('report no backlog when nothing is pending', async () => {
    await delivery('delivered', 7200);
    expect(await scrape()).toEqual(['webhook_deliveries_pending 0', 'webhook_oldest_pending_delivery_age_seconds 0']);
  });

  it('count the pending deliveries, detached ones too, and give the oldest one’s age; finished ones do not count', async () => {
    await delivery('pending', 30);
    await delivery('pending', 600, true);
    await delivery('failed', 9000);
    const [pending, oldest] = await scrape();
    expect(pending).toBe('webhook_deliveries_pending 2');
    const age = Number(oldest.split(' ')[1]);
    expect(oldest).toMatch(/^webhook_oldest_pending_delivery_age_seconds /);
    expect(age).toBeGreaterThanOrEqual(600);
    expect(age).toBeLessThan(660);
  });
});
