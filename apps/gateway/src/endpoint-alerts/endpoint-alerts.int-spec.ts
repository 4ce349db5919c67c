import type { EndpointDisabledData, EventEnvelope } from '@switchboard/contracts';
import type { Logger } from '@switchboard/observability';
import { createPrismaClient, type PrismaClientHandle } from '@switchboard/persistence';
import { createTestDatabase, type TestDatabase } from '@switchboard/testing';
import { EmailPort, SimulatedEmailAdapter, type EmailMessage } from '../email';
import { GatewayPrisma } from '../prisma/gateway-prisma';
import { EndpointAlertsRepository } from './endpoint-alerts.repository';
import { AlertedNumberLookup, EndpointAlertsService, type AlertedNumber } from './endpoint-alerts.service';

jest.setTimeout(30_000);

const ACCOUNT = 'acct_00000000000000000001';
const EMPTY_ACCOUNT = 'acct_00000000000000000002';
const OTHER_ACCOUNT = 'acct_00000000000000000003';

class FixedLookup extends AlertedNumberLookup {
  async find(): Promise<AlertedNumber> {
    return { phone_number: '+14155550100', webhook_url: 'https://hooks.example.com/in?token=s3cret' };
  }
}

/** Fails its first send, then delegates. */
class FlakyEmail extends EmailPort {
  failures = 1;
  constructor(private readonly inner: EmailPort) {
    super();
  }
  async send(message: EmailMessage): Promise<void> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('mail server unavailable');
    }
    await this.inner.send(message);
  }
}

const infos: unknown[][] = [];
const logger = {
  info: (...args: unknown[]) => infos.push(args),
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as unknown as Logger;

let db: TestDatabase;
let handle: PrismaClientHandle<InstanceType<typeof GatewayPrisma>>;
let mail: SimulatedEmailAdapter;
let n = 0;

function disabled(accountId = ACCOUNT): EventEnvelope<EndpointDisabledData> {
  n += 1;
  return {
    id: `evt_endpoint_${n}`,
    type: 'webhook.endpoint_disabled',
    occurred_at: '2026-11-23T15:00:00.000Z',
    correlation_id: `corr_${n}`,
    causation_id: null,
    data: {
      account_id: accountId,
      number_id: 'num_7',
      reason: 'gone',
      consecutive_failures: 1,
      failing_since: '2026-11-23T15:00:00.000Z',
      disabled_at: '2026-11-23T15:00:00.000Z',
    },
  };
}

function service(email: EmailPort = mail): EndpointAlertsService {
  return new EndpointAlertsService(new EndpointAlertsRepository(handle.client), new FixedLookup(), email, logger);
}

beforeAll(async () => {
  db = await createTestDatabase('gateway');
  handle = await createPrismaClient(GatewayPrisma, 'gateway', { env: { GATEWAY_DATABASE_URL: db.url } });
  mail = new SimulatedEmailAdapter(handle.client);
  const user = (id: string, account_id: string, email: string, role: string) => ({
    id,
    account_id,
    email,
    role,
    password_hash: '$argon2id$not-used',
  });
  await handle.client.consoleUser.createMany({
    data: [
      user('usr_owner1', ACCOUNT, 'owner1@example.com', 'owner'),
      user('usr_owner2', ACCOUNT, 'owner2@example.com', 'owner'),
      user('usr_dev', ACCOUNT, 'dev@example.com', 'developer'),
      user('usr_viewer', EMPTY_ACCOUNT, 'viewer@example.com', 'viewer'),
      user('usr_other', OTHER_ACCOUNT, 'other-owner@example.com', 'owner'),
    ],
  });
});
afterAll(async () => {
  await handle?.close();
  await db?.drop();
});

describe('endpoint alerts (webhook.endpoint_disabled mails the owners)', () => {
  it('mails each owner once, naming the number, the URL without its secret, why and how to enable it', async () => {
    const event = disabled();
    expect(await service().handle(event)).toBe(2);

    const [message] = (await mail.sentTo('owner1@example.com')).data;
    expect((await mail.sentTo('owner1@example.com')).data).toHaveLength(1);
    expect((await mail.sentTo('owner2@example.com')).data).toHaveLength(1);
    expect((await mail.sentTo('dev@example.com')).data).toHaveLength(0);
    expect((await mail.sentTo('other-owner@example.com')).data).toHaveLength(0);
    expect(message.subject).toContain('+14155550100');
    expect(message.body).toContain('num_7');
    expect(message.body).toContain('https://hooks.example.com/in');
    expect(message.body).not.toContain('s3cret');
    expect(message.body).toContain('410 Gone');
    // When, as a person reads it and in UTC, not as ISO 8601 (docs/money-and-minutes.md).
    expect(message.body).toContain('was disabled at Nov 23, 2026, 15:00 UTC.');
    expect(message.body).not.toContain('2026-11-23T');
    expect(message.body).toContain('POST /v1/numbers/num_7/webhook-endpoint/enable');
  });

  it('sends no second mail when the event is redelivered, even concurrently', async () => {
    const event = disabled();
    const sent = await Promise.all([service().handle(event), service().handle(event)]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await service().handle(event)).toBe(0);
    // The first test's event and this one: two mails each, not four.
    expect((await mail.sentTo('owner1@example.com')).data).toHaveLength(2);
    expect((await mail.sentTo('owner2@example.com')).data).toHaveLength(2);
  });

  it('sends the mail that failed when the event comes again', async () => {
    const event = disabled();
    const flaky = new FlakyEmail(mail);
    await expect(service(flaky).handle(event)).rejects.toThrow('mail server unavailable');
    expect(await service(flaky).handle(event)).toBe(2);
    expect(await service(flaky).handle(event)).toBe(0);
    expect((await mail.sentTo('owner1@example.com')).data).toHaveLength(3);
    expect((await mail.sentTo('owner2@example.com')).data).toHaveLength(3);
  });

  it('logs at info and sends nothing for an account without owners', async () => {
    infos.length = 0;
    expect(await service().handle(disabled(EMPTY_ACCOUNT))).toBe(0);
    expect((await mail.sentTo('viewer@example.com')).data).toHaveLength(0);
    expect(infos.some(([, text]) => String(text).includes('no owner'))).toBe(true);
  });
});
