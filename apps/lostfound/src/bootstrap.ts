import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PinoNestLogger, createLogger, type Logger } from '@switchboard/observability';
import { LostfoundModule } from './lostfound.module';

/** The lostfound service: a Nest application context that speaks NATS only. */
export async function createLostfoundApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: Logger = createLogger('lostfound'),
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(LostfoundModule.forRoot({ env, logger }), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  await app.init();
  return app;
}
