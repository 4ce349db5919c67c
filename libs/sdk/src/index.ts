export * from './client';
export * from './pagination';
export type { components, operations, paths } from './generated/openapi';
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
