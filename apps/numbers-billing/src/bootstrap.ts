import type { INestApplication } from '@nestjs/common';
import { createLogger, type Logger } from '@switchboard/observability';
import { createMessageService } from '@switchboard/service-runtime';
import { NumbersBillingModule } from './numbers-billing.module';

/** The numbers-billing service: its NATS request handlers and event consumers (`createMessageService`). */
export async function createNumbersBillingApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: Logger = createLogger('numbers-billing'),
): Promise<INestApplication> {
  return createMessageService(NumbersBillingModule.forRoot({ env, logger }), logger);
}
