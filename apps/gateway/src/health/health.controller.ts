import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NatsConnection } from '@nats-io/transport-node';
import { SERVICES, errorEnvelope, healthRpc } from '@switchboard/contracts';
import { NATS_CONNECTION, RpcClient } from '@switchboard/messaging';
import type { FastifyReply } from 'fastify';
import { GatewayPrisma } from '../prisma/gateway-prisma';

const READY_TIMEOUT_MS = 1500;

/** Liveness and readiness, without authentication (operator contract). */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly prisma: GatewayPrisma,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {}

  @Get('healthz')
  @HttpCode(200)
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** 200 only when NATS, the gateway's database and every service answer; otherwise 503 with what is down. */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<object> {
    const checks: Record<string, string> = { nats: this.nc.isClosed() ? 'down' : 'ok' };
    const probes = SERVICES.filter((s) => s !== 'gateway').map(async (service) => {
      try {
        await this.rpc.request(healthRpc(service), {}, { timeoutMs: READY_TIMEOUT_MS });
        checks[service] = 'ok';
      } catch {
        checks[service] = 'down';
      }
    });
    probes.push(
      this.prisma.$queryRaw`SELECT 1`.then(
        () => void (checks.database = 'ok'),
        () => void (checks.database = 'down'),
      ),
    );
    await Promise.all(probes);
    if (Object.values(checks).every((v) => v === 'ok')) return { status: 'ok', checks };
    const down = Object.keys(checks).filter((name) => checks[name] !== 'ok');
    void reply.status(503);
    return { ...errorEnvelope('service_unavailable', `Not ready: ${down.join(', ')} not answering.`), checks };
  }
}
