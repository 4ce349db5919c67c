import { Module } from '@nestjs/common';
import { ProviderEventRelay } from './provider-event-relay';
import { ProviderEventsRepository } from './provider-events.repository';
import { ProviderWebhookIntake } from './provider-webhook-intake';
import { TwilioVoiceAnswerer } from './twilio-voice';

/**
 * Provider webhooks (docs/adr/0083-provider-webhook-intake.md): verified, recorded once, published through the
 * gateway's outbox. The routes are plain Fastify routes (provider-webhooks.routes.ts); this module holds what they
 * use. Imported once per process, by the public server.
 */
@Module({
  providers: [ProviderEventsRepository, ProviderEventRelay, ProviderWebhookIntake, TwilioVoiceAnswerer],
  exports: [ProviderWebhookIntake, ProviderEventRelay, TwilioVoiceAnswerer],
})
export class ProviderWebhooksModule {}
