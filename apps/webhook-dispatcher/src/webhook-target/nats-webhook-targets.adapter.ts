import { Injectable } from '@nestjs/common';
import { WebhookTargetRpc, type WebhookTarget } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import type { WebhookTargets } from './webhook-targets.port';

/** Asks numbers-billing over NATS (`WebhookTargetRpc`). */
@Injectable()
export class NatsWebhookTargets implements WebhookTargets {
  constructor(private readonly rpc: RpcClient) {}

  find(numberId: string, correlationId: string): Promise<WebhookTarget> {
    return this.rpc.request(WebhookTargetRpc, { number_id: numberId }, { requestId: correlationId });
  }
}
