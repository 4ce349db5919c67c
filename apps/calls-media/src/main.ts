import './tracing';
import { runService } from '@switchboard/service-runtime';
import { createLogger } from '@switchboard/observability';
import { createCallsMediaApp } from './bootstrap';

const logger = createLogger('calls-media');
void runService('calls-media', logger, () => createCallsMediaApp(process.env, logger));
