import './tracing';
import { runService } from '@switchboard/service-runtime';
import { createLogger } from '@switchboard/observability';
import { createLostfoundApp } from './bootstrap';

const logger = createLogger('lostfound');
void runService('lostfound', logger, () => createLostfoundApp(process.env, logger));
