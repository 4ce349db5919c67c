import { Controller, HttpCode, Inject, Param, Post, Req, Res, type RawBodyRequest } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import { DEFAULT_RETRY_AFTER_SECONDS, ERROR_STATUS, errorEnvelope, type ErrorEnvelope } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProviderWebhookIntake, type ProviderWebhookAccepted } from './provider-webhook-intake';
import { PROVIDER_WEBHOOKS_PATH, ProviderWebhookRefused, type ProviderWebhookRequest } from './provider-webhook';
import { TwilioVoiceAnswerer } from './twilio-voice';

/**
 * The largest provider webhook taken in. An event travels on in one JetStream message (1 MiB at most by NATS's
 * default `max_payload`), so the bound keeps every accepted event publishable; a long call's Retell report with its
 * transcript is well below it. It replaces the API's BODY_LIMIT_BYTES on these routes, smaller or larger.
 */
export const PROVIDER_WEBHOOK_BODY_LIMIT_BYTES = 512 * 1024;

/**
 * The providers' door on the public server (docs/adr/0083): outside `/v1`, without a guard (the provider's
 * signature is the credential, checked by its verifier) and out of the public OpenAPI description. The public app
 * runs with Nest's `rawBody` option, and on these paths no parser reads the body before the verifier does: the
 * JSON parser hands the bytes on unparsed, the form parser's result is not used, and any other media type is
 * refused with 415 before the body is read (http/fastify-adapter.ts). Signatures are checked over `rawBody`.
 */
@ApiExcludeController()
@Controller(PROVIDER_WEBHOOKS_PATH)
export class ProviderWebhooksController {
  constructor(
    private readonly intake: ProviderWebhookIntake,
    private readonly voice: TwilioVoiceAnswerer,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post(':provider')
  @HttpCode(200)
  @RouteConfig({ bodyLimit: PROVIDER_WEBHOOK_BODY_LIMIT_BYTES })
  receive(
    @Param('provider') provider: string,
    @Req() request: RawBodyRequest<FastifyRequest>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ProviderWebhookAccepted | ErrorEnvelope | string> {
    return this.answer(provider, '', request, reply);
  }

  @Post(':provider/:callback')
  @HttpCode(200)
  @RouteConfig({ bodyLimit: PROVIDER_WEBHOOK_BODY_LIMIT_BYTES })
  receiveCallback(
    @Param('provider') provider: string,
    @Param('callback') callback: string,
    @Req() request: RawBodyRequest<FastifyRequest>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ProviderWebhookAccepted | ErrorEnvelope | string> {
    return this.answer(provider, callback, request, reply);
  }

  private async answer(
    provider: string,
    callback: string,
    request: RawBodyRequest<FastifyRequest>,
    reply: FastifyReply,
  ): Promise<ProviderWebhookAccepted | ErrorEnvelope | string> {
    const received: ProviderWebhookRequest = {
      callback,
      url: request.url,
      headers: request.headers,
      // No parser runs for a request without a body, so it has no rawBody either.
      body: request.rawBody ?? Buffer.alloc(0),
    };
    try {
      // Twilio's voice URL waits for TwiML now; everything else is an event, recorded and answered at once.
      if (provider === 'twilio' && callback === 'voice') {
        const twiml = await this.voice.answer(received, { requestId: request.id });
        void reply.header('Content-Type', 'text/xml; charset=utf-8');
        return twiml;
      }
      return await this.intake.receive(provider, received, { requestId: request.id });
    } catch (error) {
      if (error instanceof ProviderWebhookRefused) {
        this.logger.warn(
          {
            provider,
            code: error.code,
            reason: error.message,
            ...(error.detail ? { detail: error.detail } : {}),
            request_id: request.id,
          },
          'provider webhook refused',
        );
        void reply.status(ERROR_STATUS[error.code]);
        return errorEnvelope(error.code, error.message);
      }
      // The database is down or failing: the provider retries a 5xx later, and nothing was recorded.
      this.logger.error({ err: error, provider, request_id: request.id }, 'provider webhook failed');
      void reply.status(503).header('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS.service_unavailable));
      return errorEnvelope('service_unavailable', 'The event could not be recorded; send it again.');
    }
  }
}
