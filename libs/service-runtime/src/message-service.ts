import { Module, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { startMessaging } from '@switchboard/messaging';
import { PinoNestLogger, type Logger } from '@switchboard/observability';
import { NotFoundEnvelopeFilter, ServiceHealthModule } from './service-health';

@Module({})
class MessageServiceRoot {}

/** The service's own module with the health endpoints beside it (`ServiceHealthModule`). */
export function withServiceHealth(module: DynamicModule | Type): DynamicModule {
  return { module: MessageServiceRoot, imports: [module, ServiceHealthModule] };
}

/**
 * Nest's Fastify application for a service's health endpoints (`/healthz`, `/readyz`, `/metrics`), with the 404
 * envelope for any other path; `runService` makes it listen on `HEALTH_PORT`. The filter is the HTTP side's only:
 * a hybrid application's microservices do not inherit the application's global filters.
 */
export async function createHealthServedApp(
  module: DynamicModule | Type,
  options: { logger: Logger | false },
): Promise<INestApplication> {
  const app = await NestFactory.create(withServiceHealth(module), new FastifyAdapter(), {
    logger: options.logger ? new PinoNestLogger(options.logger) : false,
    abortOnError: false,
  });
  app.useGlobalFilters(new NotFoundEnvelopeFilter());
  return app;
}

/**
 * A service that speaks NATS only, as a Nest hybrid application: its `@RpcPattern` handlers on Nest's NATS
 * transport and its `@DurableEventPattern` handlers on JetStream (`startMessaging`), in one container, and its health
 * endpoints on the same application's HTTP adapter. Closing the app closes the message servers, which let the
 * messages in flight finish, then the health port, the connection and the database.
 */
export async function createMessageService(module: DynamicModule, logger: Logger): Promise<INestApplication> {
  const app = await createHealthServedApp(module, { logger });
  try {
    await app.init();
    await startMessaging(app);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}
