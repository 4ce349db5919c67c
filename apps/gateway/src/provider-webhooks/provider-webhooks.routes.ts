import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DEFAULT_RETRY_AFTER_SECONDS, ERROR_STATUS, errorEnvelope } from '@switchboard/contracts';
import type { Logger } from '@switchboard/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProviderWebhookIntake } from './provider-webhook-intake';
import { TwilioVoiceAnswerer } from './twilio-voice';
import { PROVIDER_WEBHOOKS_PATH, ProviderWebhookRefused } from './provider-webhook';

/**
 * The largest provider webhook taken in. An event travels on in one JetStream message (1 MiB at most by NATS's
 * default `max_payload`), so the bound keeps every accepted event publishable; a long call's Retell report with its
 * transcript is well below it.
 */
export const PROVIDER_WEBHOOK_BODY_LIMIT_BYTES = 512 * 1024;

/**
 * The provider webhook routes on the public server, as plain Fastify routes in their own scope: the body arrives as
 * raw bytes (no JSON or form parser runs before the signature is checked), whatever its media type, and only here.
 */
export function serveProviderWebhooks(app: NestFastifyApplication, logger: Logger): void {
  const intake = app.get(ProviderWebhookIntake);
  const voice = app.get(TwilioVoiceAnswerer);
  const fastify = app.getHttpAdapter().getInstance();
  // eslint-disable-next-line @typescript-eslint/require-await -- Fastify's plugin form without a `done` callback
  void fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: PROVIDER_WEBHOOK_BODY_LIMIT_BYTES },
      (_request: FastifyRequest, body: Buffer, done: (error: Error | null, body?: Buffer) => void) => done(null, body),
    );
    const handler = async (
      request: FastifyRequest<{ Params: { provider: string; callback?: string } }>,
      reply: FastifyReply,
    ) => {
      const received = {
        callback: request.params.callback ?? '',
        url: request.url,
        headers: request.headers,
        body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      };
      try {
        // Twilio's voice URL waits for TwiML now; everything else is an event, recorded and answered at once.
        if (request.params.provider === 'twilio' && received.callback === 'voice') {
          const twiml = await voice.answer(received, { requestId: request.id });
          return reply.status(200).header('Content-Type', 'text/xml; charset=utf-8').send(twiml);
        }
        const accepted = await intake.receive(request.params.provider, received, { requestId: request.id });
        return reply.status(200).send(accepted);
      } catch (error) {
        if (error instanceof ProviderWebhookRefused) {
          logger.warn(
            {
              provider: request.params.provider,
              code: error.code,
              reason: error.message,
              ...(error.detail ? { detail: error.detail } : {}),
              request_id: request.id,
            },
            'provider webhook refused',
          );
          return reply.status(ERROR_STATUS[error.code]).send(errorEnvelope(error.code, error.message));
        }
        // The database is down or failing: the provider retries a 5xx later, and nothing was recorded.
        logger.error(
          { err: error, provider: request.params.provider, request_id: request.id },
          'provider webhook failed',
        );
        return reply
          .status(503)
          .header('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS.service_unavailable))
          .send(errorEnvelope('service_unavailable', 'The event could not be recorded; send it again.'));
      }
    };
    const options = { bodyLimit: PROVIDER_WEBHOOK_BODY_LIMIT_BYTES };
    scope.post(`${PROVIDER_WEBHOOKS_PATH}/:provider`, options, handler);
    scope.post(`${PROVIDER_WEBHOOKS_PATH}/:provider/:callback`, options, handler);
  });
}
