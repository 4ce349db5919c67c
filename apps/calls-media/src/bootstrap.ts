import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PinoNestLogger, createLogger, type Logger } from '@switchboard/observability';
import { CallsMediaModule } from './calls-media.module';

/** The calls-media service: a Nest application context that speaks NATS only. */
export async function createCallsMediaApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: Logger = createLogger('calls-media'),
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(CallsMediaModule.forRoot({ env, logger }), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  await app.init();
  return app;
}
