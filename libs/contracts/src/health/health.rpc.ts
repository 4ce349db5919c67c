import { defineRpc, type RpcDescriptor } from '../messaging/rpc';
import type { ServiceName } from '../messaging/headers';

export class HealthRequest {}

export interface HealthReply {
  service: ServiceName;
  status: 'ok';
}

/** Each service answers on its own health subject; the gateway's /readyz asks all of them. */
export function healthRpc(service: ServiceName): RpcDescriptor<HealthRequest, HealthReply> {
  return defineRpc<HealthRequest, HealthReply>(`health.v1.${service}`, HealthRequest);
}
