import './tracing';
import { stopTracing } from '@switchboard/observability';
import { createGateway } from './bootstrap';

async function main(): Promise<void> {
  const gateway = await createGateway();
  await gateway.listen();
  const shutdown = async (signal: string): Promise<void> => {
    gateway.shared.logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await gateway.close();
    await stopTracing();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(JSON.stringify({ level: 'fatal', service: 'gateway', msg: 'failed to start', err: String(error?.stack ?? error) }));
  process.exit(1);
});
