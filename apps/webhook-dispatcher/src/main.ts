import './tracing';
import { runService } from '@switchboard/service-runtime';
import { createLogger } from '@switchboard/observability';
import { createWebhookDispatcherApp } from './bootstrap';

const logger = createLogger('webhook-dispatcher');
void runService('webhook-dispatcher', logger, () => createWebhookDispatcherApp(process.env, logger));
