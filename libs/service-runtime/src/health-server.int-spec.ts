import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import pino from 'pino';
import { MessagingModule, NATS_CONNECTION } from '@switchboard/messaging';
import { testNatsEnv } from '@switchboard/testing';
import { HealthServer } from './health-server';
import { messagingConfigFromEnv } from './messaging-env';

describe('service health endpoints', () => {
  let app: INestApplicationContext;
  let health: HealthServer;
  let base: string;

  beforeAll(async () => {
    const config = messagingConfigFromEnv({ ...testNatsEnv('lostfound'), NATS_SUBJECT_PREFIX: `h${process.pid}` });
    @Module({ imports: [MessagingModule.forRoot({ service: 'lostfound', logger: pino({ level: 'silent' }), config })] })
    class ProbeModule {}
    app = await NestFactory.createApplicationContext(ProbeModule, { logger: false });
    await app.init();
    health = new HealthServer(app);
    base = `http://127.0.0.1:${await health.listen(0, '127.0.0.1')}`;
  });
  afterAll(async () => {
    await health?.close();
    await app?.close();
  });

  it('answers /healthz while the process lives and /readyz when NATS is connected', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { nats: 'ok' } });
  });

  it('rejects listening on a port in use, rather than emitting an unhandled error', async () => {
    const second = new HealthServer(app);
    await expect(second.listen(Number(new URL(base).port), '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await second.close();
  });

  it('answers unknown paths with the 404 envelope', async () => {
    const answer = await fetch(`${base}/nope`);
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('turns /readyz to 503 once draining, and when NATS is gone', async () => {
    health.drain();
    const draining = await fetch(`${base}/readyz`);
    expect(draining.status).toBe(503);
    expect(draining.headers.get('retry-after')).toBe('5');
    await app.get<NatsConnection>(NATS_CONNECTION).close();
    const answer = await fetch(`${base}/readyz`);
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { checks: Record<string, string> }).checks.nats).toBe('closed');
  });
});
