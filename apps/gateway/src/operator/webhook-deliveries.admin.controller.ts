import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ListWebhookDeliveriesQuery, WebhookDeliveriesRpc, type WebhookDeliveryList } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

/** The webhook attempt log is owned by webhook-dispatcher; this route forwards to it (operator contract). */
@Controller('admin/webhook-deliveries')
@UseGuards(AdminTokenGuard)
export class WebhookDeliveriesAdminController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(@Query() query: ListWebhookDeliveriesQuery, @Caller() caller: CallerOptions): Promise<WebhookDeliveryList> {
    return this.rpc.request(WebhookDeliveriesRpc.list, query, caller);
  }
}
