import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  WebhookDeliveriesRpc,
  type ListWebhookDeliveriesQuery,
  type WebhookDeliveryList,
} from '@switchboard/contracts';
import { RpcPattern } from '@switchboard/messaging';
import { DeliveryLogService } from './delivery-log.service';

/** Operator requests about webhook deliveries, forwarded by the gateway. */
@Controller()
export class DeliveriesNatsController {
  constructor(private readonly log: DeliveryLogService) {}

  @RpcPattern(WebhookDeliveriesRpc.list)
  list(@Payload() request: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryList> {
    return this.log.list(request);
  }
}
