import { Controller, Get, HttpCode, Inject, Res, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DEFAULT_RETRY_AFTER_SECONDS, SERVICES, errorEnvelope, healthRpc } from '@switchboard/contracts';
import { NATS_LINK, RpcClient, type NatsLink } from '@switchboard/messaging';
import { observeDatabaseUp } from '@switchboard/observability';
import { Readiness } from '@switchboard/service-runtime';
import type { FastifyReply } from 'fastify';
import { sql } from 'kysely';
import { GatewayPrisma } from '../prisma/gateway-prisma';

const READY_TIMEOUT_MS = 1500;

/** Liveness and readiness, without authentication (operator contract). */
@ApiExcludeController()
@Controller()
export class HealthController implements OnModuleInit, OnModuleDestroy {
  private stopDatabaseGauge: (() => void) | undefined;

  constructor(
    private readonly rpc: RpcClient,
    private readonly prisma: GatewayPrisma,
    @Inject(NATS_LINK) private readonly nats: NatsLink,
    private readonly readiness: Readiness,
  ) {}

  /** `database_up` for the DatabaseDown alert (deploy/prometheus/alerts.yml), pinged at each scrape of /metrics. */
  onModuleInit(): void {
    this.stopDatabaseGauge = observeDatabaseUp(() => this.pingDatabase());
  }

  onModuleDestroy(): void {
    this.stopDatabaseGauge?.();
  }

  private pingDatabase(): Promise<boolean> {
    return sql`SELECT 1`.execute(this.prisma.$kysely()).then(
      () => true,
      () => false,
    );
  }

  @Get('healthz')
  @HttpCode(200)
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * 200 only when NATS is connected, the gateway's database answers and every service answers with its own
   * database up; otherwise 503 with `Retry-After` and each check: `nats` is the client's real state (`connecting`,
   * `reconnecting`, `closed`), a service is `down` (not answering), `database down`, or `unknown` without NATS;
   * `shutdown: in progress` once SIGTERM has drained the gateway (`runService`), so traffic moves before it stops.
   */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<object> {
    const natsState = this.nats.state;
    const checks: Record<string, string> = { nats: natsState === 'connected' ? 'ok' : natsState };
    const probes = SERVICES.filter((s) => s !== 'gateway').map(async (service) => {
      if (natsState !== 'connected') {
        checks[service] = 'unknown';
        return;
      }
      try {
        const health = await this.rpc.request(healthRpc(service), {}, { timeoutMs: READY_TIMEOUT_MS });
        checks[service] = health.checks?.database === 'down' ? 'database down' : 'ok';
      } catch {
        checks[service] = 'down';
      }
    });
    probes.push(this.pingDatabase().then((up) => void (checks.database = up ? 'ok' : 'down')));
    await Promise.all(probes);
    if (this.readiness.draining) checks.shutdown = 'in progress';
    if (Object.values(checks).every((v) => v === 'ok')) return { status: 'ok', checks };
    const notReady = Object.keys(checks)
      .filter((name) => checks[name] !== 'ok')
      .map((name) => `${name} ${checks[name]}`);
    void reply.status(503).header('retry-after', String(DEFAULT_RETRY_AFTER_SECONDS.service_unavailable));
    return { ...errorEnvelope('service_unavailable', `Not ready: ${notReady.join(', ')}.`), checks };
  }
}
