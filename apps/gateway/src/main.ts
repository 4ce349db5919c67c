import './tracing';
import { createLogger } from '@switchboard/observability';
import { runService } from '@switchboard/service-runtime';
import { createGateway } from './bootstrap';

const logger = createLogger('gateway');
void runService('gateway', logger, async () => {
  const gateway = await createGateway();
  await gateway.listen();
  return gateway;
});
