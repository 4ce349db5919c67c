// A webhook-dispatcher in a process of its own, configured by its environment like a deployed one (no
// in-process overrides: receivers are trusted through NODE_EXTRA_CA_CERTS). Started by tests that kill it.
import { runService } from '@switchboard/service-runtime';
import { createLogger } from '@switchboard/observability';
import { createWebhookDispatcherApp } from '../../src/bootstrap';

const logger = createLogger('webhook-dispatcher');
void runService('webhook-dispatcher', logger, async () => {
  const app = await createWebhookDispatcherApp(process.env, logger);
  process.send?.('ready');
  return app;
});
