import {
  Catch,
  Controller,
  Get,
  Injectable,
  Module,
  NotFoundException,
  Res,
  type ExceptionFilter,
  type ArgumentsHost,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DEFAULT_RETRY_AFTER_SECONDS, errorEnvelope } from '@switchboard/contracts';
import { NATS_LINK, type NatsLink } from '@switchboard/messaging';
import { observeDatabaseUp, serveMetrics } from '@switchboard/observability';
import { DatabaseHealth } from '@switchboard/persistence';
import type { FastifyReply } from 'fastify';
import { Readiness } from './readiness';

/**
 * What a NATS service's `/readyz` checks: the NATS link's state and, when the app has one, its database; and
 * `database_up` (the DatabaseDown alert's signal, deploy/prometheus/alerts.yml), pinged at each scrape of /metrics
 * until the service drains.
 */
@Injectable()
export class ServiceHealth implements OnModuleInit, OnModuleDestroy {
  private stopDatabaseGauge: (() => void) | undefined;

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly readiness: Readiness,
  ) {}

  onModuleInit(): void {
    const database = this.find(DatabaseHealth);
    if (database) this.stopDatabaseGauge = observeDatabaseUp(() => database.ping());
  }

  onModuleDestroy(): void {
    this.stopDatabaseGauge?.();
  }

  /** From now on /readyz answers 503, and the database, about to close, is no longer pinged. */
  drain(): void {
    this.stopDatabaseGauge?.();
    this.readiness.drain();
  }

  get draining(): boolean {
    return this.readiness.draining;
  }

  async checks(): Promise<Record<string, string>> {
    const checks: Record<string, string> = {};
    const nats = this.find<NatsLink>(NATS_LINK)?.state;
    if (nats) checks.nats = nats === 'connected' ? 'ok' : nats;
    const database = this.find(DatabaseHealth);
    if (database) checks.database = (await database.ping()) ? 'ok' : 'down';
    if (this.readiness.draining) checks.shutdown = 'in progress';
    return checks;
  }

  /** A provider of the service's own modules, where it has one (the health module is imported beside them). */
  private find<T>(token: string | symbol | (abstract new (...args: never[]) => T)): T | undefined {
    try {
      return this.moduleRef.get<T>(token, { strict: false });
    } catch {
      return undefined;
    }
  }
}

/**
 * `GET /healthz` (the process lives), `GET /readyz` (NATS connected, not reconnecting, and the database answering;
 * else 503 with `Retry-After` and each check) and `GET /metrics` (Prometheus), for orchestrators and scrapers, on
 * the service's one HTTP port (`HEALTH_PORT`). Services speak NATS only otherwise.
 */
@Controller()
export class ServiceHealthController {
  constructor(private readonly health: ServiceHealth) {}

  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<object> {
    const checks = await this.health.checks();
    if (!this.health.draining && Object.values(checks).every((value) => value === 'ok'))
      return { status: 'ok', checks };
    void reply.status(503).header('retry-after', String(DEFAULT_RETRY_AFTER_SECONDS.service_unavailable));
    return { ...errorEnvelope('service_unavailable', 'Not ready.'), checks };
  }

  /** The OpenTelemetry Prometheus exporter's own handler writes the answer. */
  @Get('metrics')
  metrics(@Res() reply: FastifyReply): void {
    void reply.hijack();
    serveMetrics(reply.request.raw, reply.raw);
  }
}

/** Any other path or method: the API's 404 envelope, not Nest's `{ statusCode, message }`. */
@Catch(NotFoundException)
export class NotFoundEnvelopeFilter implements ExceptionFilter {
  catch(_exception: NotFoundException, host: ArgumentsHost): void {
    void host
      .switchToHttp()
      .getResponse<FastifyReply>()
      .status(404)
      .send(errorEnvelope('not_found', 'No such resource.'));
  }
}

/** The health endpoints of a NATS service, imported beside its own module (`createMessageService`). */
@Module({ controllers: [ServiceHealthController], providers: [ServiceHealth, Readiness] })
export class ServiceHealthModule {}
