import type { INestApplication } from '@nestjs/common';
import { createLogger, type Logger } from '@switchboard/observability';
import { createMessageService } from '@switchboard/service-runtime';
import { CallsMediaModule } from './calls-media.module';

/** The calls-media service: its NATS request handlers and event consumers (`createMessageService`). */
export async function createCallsMediaApp(
  env: NodeJS.ProcessEnv = process.env,
  logger: Logger = createLogger('calls-media'),
): Promise<INestApplication> {
  return createMessageService(CallsMediaModule.forRoot({ env, logger }), logger);
}
