import { Module } from '@nestjs/common';
import { ProviderEventRelay } from './provider-event-relay';
import { ProviderEventsRepository } from './provider-events.repository';
import { ProviderWebhookIntake } from './provider-webhook-intake';
import { ProviderWebhooksController } from './provider-webhooks.controller';
import { TwilioVoiceAnswerer } from './twilio-voice';

/**
 * Provider webhooks (docs/adr/0083-real-providers.md): taken in by ProviderWebhooksController, verified,
 * recorded once, published through the gateway's outbox. Imported once per process, by the public server.
 */
@Module({
  controllers: [ProviderWebhooksController],
  providers: [ProviderEventsRepository, ProviderEventRelay, ProviderWebhookIntake, TwilioVoiceAnswerer],
})
export class ProviderWebhooksModule {}
