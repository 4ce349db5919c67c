import { defineRpc } from '../messaging/rpc';
import { ListWebhookDeliveriesQuery, type WebhookDeliveryList } from './webhook-delivery.dto';

/** Operator reads of the webhook-dispatcher's attempt log, forwarded by the gateway. */
export const WebhookDeliveriesRpc = {
  list: defineRpc<ListWebhookDeliveriesQuery, WebhookDeliveryList>('webhooks.v1.deliveries.list', ListWebhookDeliveriesQuery),
} as const;
