import type { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { startMessaging } from '@switchboard/messaging';
import { PinoNestLogger, type Logger } from '@switchboard/observability';

/**
 * A service that speaks NATS only, as a Nest hybrid application: its `@RpcPattern` handlers on Nest's NATS
 * transport and its `@DurableEventPattern` handlers on JetStream (`startMessaging`), in one container. Nest connects
 * microservices only to an HTTP application, so the app has an HTTP adapter that never listens (its health endpoints
 * are `HealthServer`'s, on `HEALTH_PORT`). Closing the app closes the message servers, which let the messages in
 * flight finish, then the connection and the database.
 */
export async function createMessageService(module: DynamicModule, logger: Logger): Promise<INestApplication> {
  const app = await NestFactory.create(module, new FastifyAdapter(), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  try {
    await app.init();
    await startMessaging(app);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}
