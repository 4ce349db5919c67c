import { Injectable } from '@nestjs/common';
import {
  WebhookDeliveriesRpc,
  type ListWebhookDeliveriesQuery,
  type WebhookDeliveryList,
} from '@switchboard/contracts';
import { RpcHandler } from '@switchboard/messaging';
import { DeliveryLogService } from './delivery-log.service';

/** Operator requests about webhook deliveries, forwarded by the gateway. */
@Injectable()
export class DeliveriesNatsController {
  constructor(private readonly log: DeliveryLogService) {}

  @RpcHandler(WebhookDeliveriesRpc.list)
  list(request: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryList> {
    return this.log.list(request);
  }
}
