import type { INestApplication } from '@nestjs/common';
import { createLogger, type Logger } from '@switchboard/observability';
import { createMessageService } from '@switchboard/service-runtime';
import { WebhookDispatcherModule, type WebhookDispatcherOverrides } from './webhook-dispatcher.module';

export type { WebhookDispatcherOverrides } from './webhook-dispatcher.module';

/**
 * The webhook-dispatcher service: a Nest application that consumes `call.completed` from JetStream,
 * delivers signed webhooks and answers the operator's questions about them over NATS.
 */
export async function createWebhookDispatcherApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: Logger = createLogger('webhook-dispatcher'),
  overrides: WebhookDispatcherOverrides = {},
): Promise<INestApplication> {
  return createMessageService(WebhookDispatcherModule.forRoot({ env, logger, overrides }), logger);
}
