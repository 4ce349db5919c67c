import type { INestApplication } from '@nestjs/common';
import type { Logger } from '@switchboard/observability';
import { stopTracing } from '@switchboard/observability';
import { ServiceHealth } from './service-health';

/** How long a service may take to stop (finish in-flight work, close NATS and the database) before it exits anyway. */
export const SHUTDOWN_TIMEOUT_MS = 15_000;

/**
 * A process that serves its own `/readyz` (the gateway, on its admin port) rather than through `ServiceHealthModule`:
 * `drain` turns that answer to 503, `close` stops taking work, lets in-flight work finish and closes every
 * connection.
 */
export interface SelfServingProcess {
  drain(): void;
  close(): Promise<void>;
}

/**
 * Runs a service until SIGINT or SIGTERM, then closes it: readiness turns to 503 first, then Nest's shutdown hooks
 * stop taking work, let in-flight messages finish or hand them back, then close NATS and the database, within a
 * bound; the spans still buffered are exported and the process exits 0.
 *
 * A NATS service's Nest application (`createMessageService`) listens on `HEALTH_PORT` for its `/healthz`, `/readyz`
 * and `/metrics` (`ServiceHealthModule`); a `SelfServingProcess` (the gateway) answers them itself.
 *
 * This owns the signals: the app must not call `enableShutdownHooks()`, whose handler re-raises the signal once
 * Nest has closed, killing the process before the health server closes and the spans are flushed.
 */
export async function runService(
  service: string,
  logger: Logger,
  create: () => Promise<INestApplication | SelfServingProcess>,
): Promise<void> {
  let started: INestApplication | SelfServingProcess;
  try {
    started = await create();
  } catch (error) {
    logger.fatal({ err: error }, `${service} failed to start`);
    process.exit(1);
  }
  const running = isSelfServing(started) ? started : await serveHealth(started, logger);
  logger.info(`${service} started`);
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${service} stopping`);
    const force = setTimeout(() => {
      logger.error(`${service} did not stop within ${SHUTDOWN_TIMEOUT_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    try {
      running.drain();
      await running.close();
      await stopTracing();
      clearTimeout(force);
      process.exit(0);
    } catch (error) {
      clearTimeout(force);
      logger.error({ err: error }, `${service} failed to stop cleanly`);
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

function isSelfServing(started: INestApplication | SelfServingProcess): started is SelfServingProcess {
  return typeof (started as Partial<SelfServingProcess>).drain === 'function';
}

/** Puts a NATS service's health endpoints on `HEALTH_PORT` (none when unset); closing the app closes the port too. */
async function serveHealth(app: INestApplication, logger: Logger): Promise<SelfServingProcess> {
  const health = app.get(ServiceHealth, { strict: false });
  const healthPort = process.env.HEALTH_PORT;
  if (healthPort) {
    const requested = Number(healthPort);
    if (!Number.isInteger(requested) || requested < 0 || requested > 65535) {
      logger.fatal(`HEALTH_PORT must be a port number (got "${healthPort}")`);
      await app.close();
      process.exit(1);
    }
    try {
      await app.listen(requested, '0.0.0.0');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
      logger.fatal({ err: error }, `HEALTH_PORT ${requested} cannot be listened on (${code})`);
      await app.close();
      process.exit(1);
    }
    logger.info({ url: await app.getUrl() }, 'health endpoints listening (/healthz, /readyz, /metrics)');
  }
  return { drain: () => health.drain(), close: () => app.close() };
}
