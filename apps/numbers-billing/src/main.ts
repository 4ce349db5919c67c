import './tracing';
import { runService } from '@switchboard/service-runtime';
import { createLogger } from '@switchboard/observability';
import { createNumbersBillingApp } from './bootstrap';

const logger = createLogger('numbers-billing');
void runService('numbers-billing', logger, () => createNumbersBillingApp(process.env, logger));
