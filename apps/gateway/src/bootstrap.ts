import { join } from 'node:path';
import { RequestMethod, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { NatsLink, startMessaging } from '@switchboard/messaging';
import { PinoNestLogger, createLogger, type Logger } from '@switchboard/observability';
import { createPrismaClient } from '@switchboard/persistence';
import { messagingConfigFromEnv, Readiness, type SelfServingProcess } from '@switchboard/service-runtime';
import { loadGatewayConfig } from './config/gateway.config';
import type { GatewayShared } from './gateway-core.module';
import { serveConsoleStatic } from './console/static/console-static';
import { ErrorEnvelopeFilter } from './http/error-envelope.filter';
import { createFastifyAdapter } from './http/fastify-adapter';
import { createValidationPipe } from './http/validation.pipe';
import { OperatorApiModule } from './operator/operator-api.module';
import { GatewayPrisma } from './prisma/gateway-prisma';
import { serveOpenApi } from './public/openapi';
import { PublicApiModule } from './public/public-api.module';

export const MIGRATIONS_DIR = join(__dirname, '..', 'prisma', 'migrations');

/** How long start-up waits for the first NATS connect attempt (a refused one fails at once; see NatsLink.settled). */
const NATS_FIRST_ATTEMPT_WAIT_MS = 2_000;

/** The gateway as `runService` runs it: `drain` turns /readyz to 503, `close` closes both servers, NATS and the database. */
export interface GatewayRuntime extends SelfServingProcess {
  publicApp: NestFastifyApplication;
  adminApp: NestFastifyApplication;
  shared: GatewayShared;
  /** Listens on PORT and ADMIN_PORT (or the ports given; 0 picks free ones). Returns the base URLs. */
  listen(ports?: { port?: number; adminPort?: number }): Promise<{ publicUrl: string; adminUrl: string }>;
  close(): Promise<void>;
}

/**
 * Builds the gateway: migrations, one database client and one NATS connection, two HTTP servers. `logger` replaces
 * the default one (the end-to-end tests read what the gateway logs).
 */
export async function createGateway(
  env: NodeJS.ProcessEnv = process.env,
  options: { logger?: Logger } = {},
): Promise<GatewayRuntime> {
  const config = loadGatewayConfig(env);
  const logger = options.logger ?? createLogger('gateway');
  const messaging = messagingConfigFromEnv(env);
  const database = await createPrismaClient(GatewayPrisma, 'gateway', { env, migrationsDir: MIGRATIONS_DIR });
  // Not awaited: a gateway started while NATS is down listens at once, answers 503 with Retry-After where NATS is
  // needed and says so on /readyz, and logs when NATS is unreachable and when it connects.
  const nats = NatsLink.connectInBackground(messaging, 'gateway', logger);
  await nats.settled(NATS_FIRST_ATTEMPT_WAIT_MS);
  const readiness = new Readiness();
  const shared: GatewayShared = { config, messaging, logger, prisma: database.client, nats, readiness };
  if (config.adminTokenFile)
    logger.warn({ file: config.adminTokenFile }, 'ADMIN_TOKEN not set: using the development token kept in this file');

  const nestLogger = new PinoNestLogger(logger);
  let publicApp: NestFastifyApplication | undefined;
  let adminApp: NestFastifyApplication | undefined;
  try {
    publicApp = await NestFactory.create<NestFastifyApplication>(
      PublicApiModule.forRoot(shared),
      createFastifyAdapter(config, logger, { server: 'public' }),
      // Provider webhooks are verified over the bytes as received: Nest's form parser keeps them as `rawBody` (the
      // JSON parser is the gateway's own, which keeps them too: http/fastify-adapter.ts; docs/adr/0083).
      { logger: nestLogger, abortOnError: false, rawBody: true },
    );
    configure(publicApp, shared);
    publicApp.setGlobalPrefix('v1', {
      exclude: [
        'healthz',
        'readyz',
        // The claimant page's backend lives beside /v1, not in it (docs/adr/0079).
        { path: 'claim/api/locations/:slug', method: RequestMethod.GET },
        { path: 'claim/api/locations/:slug/claims', method: RequestMethod.POST },
        // The console (its pages and its API) too (docs/adr/0080).
        'console/{*path}',
        // And the providers' webhooks, at the URLs set in their consoles and on our numbers (docs/adr/0083).
        'provider-webhooks/{*path}',
      ],
    });
    serveConsoleStatic(publicApp, config.console);
    serveOpenApi(publicApp);

    adminApp = await NestFactory.create<NestFastifyApplication>(
      OperatorApiModule.forRoot(shared),
      createFastifyAdapter(config, logger, { server: 'admin' }),
      { logger: nestLogger, abortOnError: false },
    );
    configure(adminApp, shared);

    await publicApp.init();
    // The gateway's durable event consumers (`@DurableEventPattern`), started once NATS answers; it sends requests only.
    await startMessaging(publicApp, { requests: false, eventsInBackground: true });
    await adminApp.init();
  } catch (error) {
    // A gateway that cannot start must not keep its connections open (a test or a supervisor would hang on them).
    await Promise.allSettled([publicApp?.close(), adminApp?.close()]);
    await nats.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }

  let closed = false;
  return {
    publicApp,
    adminApp,
    shared,
    async listen(ports = {}) {
      await publicApp.listen(ports.port ?? config.port, config.host);
      await adminApp.listen(ports.adminPort ?? config.adminPort, config.adminHost);
      const publicUrl = (await publicApp.getUrl()).replace('[::1]', '127.0.0.1').replace('0.0.0.0', '127.0.0.1');
      const adminUrl = (await adminApp.getUrl()).replace('[::1]', '127.0.0.1');
      logger.info({ public: publicUrl, admin: adminUrl }, 'gateway listening');
      return { publicUrl, adminUrl };
    },
    drain() {
      readiness.drain();
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([publicApp.close(), adminApp.close()]);
      await nats.close();
      await database.close();
    },
  };
}

/** Nest's global steps for every route of both servers: DTO validation and the error envelope. */
function configure(app: INestApplication, shared: GatewayShared): void {
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ErrorEnvelopeFilter(shared.logger));
}
