import { Controller, Inject, Optional, type Type } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { healthRpc, type HealthReply, type HealthRequest, type ServiceName } from '@switchboard/contracts';
import { DatabaseHealth } from '@switchboard/persistence';
import { OutageLog } from './outage-log';
import { RpcPattern } from './rpc-pattern.decorator';
import { RPC_OUTAGES } from './tokens';

/**
 * The health subject a service answers (`health.v1.<service>`): the gateway's /readyz asks each one, and shows a
 * database that is down. Made per service because a pattern is fixed when its class is defined.
 */
export function healthControllerFor(service: ServiceName): Type<unknown> {
  @Controller()
  class HealthNatsController {
    constructor(
      @Inject(RPC_OUTAGES) private readonly outages: OutageLog,
      @Optional() private readonly database?: DatabaseHealth,
    ) {}

    @RpcPattern(healthRpc(service))
    async health(@Payload() _request: HealthRequest): Promise<HealthReply> {
      if (!this.database) return { service, status: 'ok' };
      const database = (await this.database.ping()) ? 'ok' : 'down';
      if (database === 'ok') this.outages.recovered('database');
      return { service, status: database === 'ok' ? 'ok' : 'unavailable', checks: { database } };
    }
  }
  return HealthNatsController;
}
