import { Module, type INestApplication } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import pino from 'pino';
import { MessagingModule, NATS_CONNECTION } from '@switchboard/messaging';
import { testNatsEnv } from '@switchboard/testing';
import { createHealthServedApp } from './message-service';
import { messagingConfigFromEnv } from './messaging-env';
import { ServiceHealth } from './service-health';

describe("a NATS service's health endpoints", () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    const config = messagingConfigFromEnv({ ...testNatsEnv('lostfound'), NATS_SUBJECT_PREFIX: `h${process.pid}` });
    @Module({ imports: [MessagingModule.forRoot({ service: 'lostfound', logger: pino({ level: 'silent' }), config })] })
    class ProbeModule {}
    app = await createHealthServedApp(ProbeModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });
  afterAll(() => app?.close());

  it('answers /healthz while the process lives and /readyz when NATS is connected', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { nats: 'ok' } });
  });

  it('rejects listening on a port in use, rather than emitting an unhandled error', async () => {
    @Module({})
    class Empty {}
    const second = await createHealthServedApp(Empty, { logger: false });
    await expect(second.listen(Number(new URL(base).port), '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await second.close();
  });

  it('turns /readyz to 503 once draining, and when NATS is gone', async () => {
    app.get(ServiceHealth).drain();
    const draining = await fetch(`${base}/readyz`);
    expect(draining.status).toBe(503);
    expect(draining.headers.get('retry-after')).toBe('5');
    await app.get<NatsConnection>(NATS_CONNECTION).close();
    const answer = await fetch(`${base}/readyz`);
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { checks: Record<string, string> }).checks.nats).toBe('closed');
  });
});
