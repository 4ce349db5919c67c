import { Injectable } from '@nestjs/common';
import {
  WebhookEventsRpc,
  type ListWebhookEventsQuery,
  type RecoverWebhookEventsCommand,
  type RedeliverWebhookEventCommand,
  type SendTestWebhookCommand,
  type WebhookEventList,
  type WebhookEventsRecovered,
  type WebhookEventView,
  type WebhookEndpointEnabled,
  type WebhookEndpointQuery,
  type WebhookEndpointView,
  type WebhookTestResult,
} from '@switchboard/contracts';
import { RpcHandler, requireAccount, type RpcContext } from '@switchboard/messaging';
import { EndpointHealth } from '../endpoints/endpoint-health';
import { WebhookEventsService } from './webhook-events.service';

/** The integrator's webhook routes, forwarded by the gateway (account-scoped: `sb-account-id`). */
@Injectable()
export class WebhookEventsNatsController {
  constructor(
    private readonly events: WebhookEventsService,
    private readonly endpoints: EndpointHealth,
  ) {}

  @RpcHandler(WebhookEventsRpc.list)
  list(request: ListWebhookEventsQuery, ctx: RpcContext): Promise<WebhookEventList> {
    return this.events.list(requireAccount(ctx), request);
  }

  @RpcHandler(WebhookEventsRpc.redeliver)
  redeliver(request: RedeliverWebhookEventCommand, ctx: RpcContext): Promise<WebhookEventView> {
    return this.events.redeliver(requireAccount(ctx), request);
  }

  @RpcHandler(WebhookEventsRpc.recover)
  recover(request: RecoverWebhookEventsCommand, ctx: RpcContext): Promise<WebhookEventsRecovered> {
    return this.events.recover(requireAccount(ctx), request);
  }

  @RpcHandler(WebhookEventsRpc.test)
  test(request: SendTestWebhookCommand, ctx: RpcContext): Promise<WebhookTestResult> {
    return this.events.test(requireAccount(ctx), request, ctx.requestId ?? request.number_id);
  }

  @RpcHandler(WebhookEventsRpc.endpoint)
  endpoint(request: WebhookEndpointQuery, ctx: RpcContext): Promise<WebhookEndpointView> {
    return this.endpoints.view(requireAccount(ctx), request.number_id);
  }

  @RpcHandler(WebhookEventsRpc.enableEndpoint)
  enableEndpoint(request: WebhookEndpointQuery, ctx: RpcContext): Promise<WebhookEndpointEnabled> {
    return this.endpoints.enable(requireAccount(ctx), request.number_id);
  }
}
