import type { INestApplication } from '@nestjs/common';
import { createLogger, type Logger } from '@switchboard/observability';
import { createMessageService } from '@switchboard/service-runtime';
import { LostfoundModule } from './lostfound.module';

/** The lostfound service: its NATS request handlers and event consumers (`createMessageService`). */
export async function createLostfoundApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: Logger = createLogger('lostfound'),
): Promise<INestApplication> {
  return createMessageService(LostfoundModule.forRoot({ env, logger }), logger);
}
