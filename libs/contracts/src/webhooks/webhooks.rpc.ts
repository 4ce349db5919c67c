import { defineRpc } from '../messaging/rpc';
import { ListWebhookDeliveriesQuery, type WebhookDeliveryList } from './webhook-delivery.dto';
import {
  ListWebhookEventsQuery,
  RecoverWebhookEventsCommand,
  RedeliverWebhookEventCommand,
  SendTestWebhookCommand,
  WebhookEndpointQuery,
  type WebhookEndpointEnabled,
  type WebhookEndpointView,
  type WebhookEventList,
  type WebhookEventsRecovered,
  type WebhookEventView,
  type WebhookTestResult,
} from './webhook-events.dto';

/** Operator reads of the webhook-dispatcher's attempt log, forwarded by the gateway. */
export const WebhookDeliveriesRpc = {
  list: defineRpc<ListWebhookDeliveriesQuery, WebhookDeliveryList>(
    'webhooks.v1.deliveries.list',
    ListWebhookDeliveriesQuery,
  ),
} as const;

/**
 * The integrator's webhook requests, forwarded by the gateway for a number it has checked the caller owns.
 * Account-scoped: the account travels in the `sb-account-id` header and webhook-dispatcher filters on it too.
 */
export const WebhookEventsRpc = {
  list: defineRpc<ListWebhookEventsQuery, WebhookEventList>('webhooks.v1.events.list', ListWebhookEventsQuery),
  redeliver: defineRpc<RedeliverWebhookEventCommand, WebhookEventView>(
    'webhooks.v1.events.redeliver',
    RedeliverWebhookEventCommand,
  ),
  recover: defineRpc<RecoverWebhookEventsCommand, WebhookEventsRecovered>(
    'webhooks.v1.events.recover',
    RecoverWebhookEventsCommand,
  ),
  test: defineRpc<SendTestWebhookCommand, WebhookTestResult>('webhooks.v1.test.send', SendTestWebhookCommand),
  endpoint: defineRpc<WebhookEndpointQuery, WebhookEndpointView>('webhooks.v1.endpoint.get', WebhookEndpointQuery),
  enableEndpoint: defineRpc<WebhookEndpointQuery, WebhookEndpointEnabled>(
    'webhooks.v1.endpoint.enable',
    WebhookEndpointQuery,
  ),
} as const;
