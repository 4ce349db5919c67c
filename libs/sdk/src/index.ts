export * from './client';
export * from './pagination';
import type { webhooks } from './generated/openapi';
export type { components, operations, paths, webhooks } from './generated/openapi';

/** The type of each event a number's `webhook_url` receives, as the OpenAPI description's `webhooks` names them. */
export type WebhookEventType = keyof webhooks;

/**
 * The body of a webhook event, typed from the OpenAPI description: `WebhookEvent<'call.completed'>`; without an
 * argument, the union of every event's body, narrowed by its `type`.
 */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = T extends WebhookEventType
  ? webhooks[T]['post']['requestBody']['content']['application/json']
  : never;
// Receivers verify deliveries with the same code the dispatcher signs with.
export {
  verify,
  signedHeaders,
  toStandardWebhooksSecret,
  type CallCompletedWebhookBody,
  type VerifyOptions,
  type VerifyResult,
  type WebhookTestBody,
} from '@switchboard/signing';
