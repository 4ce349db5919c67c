import { defineRpc, type RpcDescriptor } from '../messaging/rpc';
import type { ServiceName } from '../messaging/headers';

export class HealthRequest {}

export interface HealthReply {
  service: ServiceName;
  /** `unavailable` when a check failed: the service answers, but its requests would get 503. */
  status: 'ok' | 'unavailable';
  /** What the service depends on besides NATS, e.g. `{ database: 'down' }`. */
  checks?: Record<string, 'ok' | 'down'>;
}

/** Each service answers on its own health subject; the gateway's /readyz asks all of them. */
export function healthRpc(service: ServiceName): RpcDescriptor<HealthRequest, HealthReply> {
  return defineRpc<HealthRequest, HealthReply>(`health.v1.${service}`, HealthRequest);
}
