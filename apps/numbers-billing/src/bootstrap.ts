import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PinoNestLogger, createLogger, type Logger } from '@switchboard/observability';
import { NumbersBillingModule } from './numbers-billing.module';

/** The numbers-billing service: a Nest application context that speaks NATS only. */
export async function createNumbersBillingApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: Logger = createLogger('numbers-billing'),
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(NumbersBillingModule.forRoot({ env, logger }), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  await app.init();
  return app;
}
