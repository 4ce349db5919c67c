import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PinoNestLogger, createLogger, type Logger } from '@switchboard/observability';
import { WebhookDispatcherModule, type WebhookDispatcherOverrides } from './webhook-dispatcher.module';

export type { WebhookDispatcherOverrides } from './webhook-dispatcher.module';

/**
 * The webhook-dispatcher service: a Nest application context that consumes `call.completed` from JetStream,
 * delivers signed webhooks and answers the operator's questions about them over NATS.
 */
export async function createWebhookDispatcherApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: Logger = createLogger('webhook-dispatcher'),
  overrides: WebhookDispatcherOverrides = {},
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WebhookDispatcherModule.forRoot({ env, logger, overrides }), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  await app.init();
  return app;
}
