import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
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
import { Caller, RpcPattern, requireAccount, type RpcContext } from '@switchboard/messaging';
import { EndpointHealth } from '../endpoints/endpoint-health';
import { WebhookEventsService } from './webhook-events.service';

/** The integrator's webhook routes, forwarded by the gateway (account-scoped: `sb-account-id`). */
@Controller()
export class WebhookEventsNatsController {
  constructor(
    private readonly events: WebhookEventsService,
    private readonly endpoints: EndpointHealth,
  ) {}

  @RpcPattern(WebhookEventsRpc.list)
  list(@Payload() request: ListWebhookEventsQuery, @Caller() ctx: RpcContext): Promise<WebhookEventList> {
    return this.events.list(requireAccount(ctx), request);
  }

  @RpcPattern(WebhookEventsRpc.redeliver)
  redeliver(@Payload() request: RedeliverWebhookEventCommand, @Caller() ctx: RpcContext): Promise<WebhookEventView> {
    return this.events.redeliver(requireAccount(ctx), request);
  }

  @RpcPattern(WebhookEventsRpc.recover)
  recover(@Payload() request: RecoverWebhookEventsCommand, @Caller() ctx: RpcContext): Promise<WebhookEventsRecovered> {
    return this.events.recover(requireAccount(ctx), request);
  }

  @RpcPattern(WebhookEventsRpc.test)
  test(@Payload() request: SendTestWebhookCommand, @Caller() ctx: RpcContext): Promise<WebhookTestResult> {
    return this.events.test(requireAccount(ctx), request, ctx.requestId ?? request.number_id);
  }

  @RpcPattern(WebhookEventsRpc.endpoint)
  endpoint(@Payload() request: WebhookEndpointQuery, @Caller() ctx: RpcContext): Promise<WebhookEndpointView> {
    return this.endpoints.view(requireAccount(ctx), request.number_id);
  }

  @RpcPattern(WebhookEventsRpc.enableEndpoint)
  enableEndpoint(@Payload() request: WebhookEndpointQuery, @Caller() ctx: RpcContext): Promise<WebhookEndpointEnabled> {
    return this.endpoints.enable(requireAccount(ctx), request.number_id);
  }
}
