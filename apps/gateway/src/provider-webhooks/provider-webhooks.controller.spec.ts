import { Writable } from 'node:stream';
import { Module } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DECORATORS } from '@nestjs/swagger';
import { LOGGER, createLogger } from '@switchboard/observability';
import { loadGatewayConfig } from '../config/gateway.config';
import { ErrorEnvelopeFilter } from '../http/error-envelope.filter';
import { createFastifyAdapter } from '../http/fastify-adapter';
import { ProviderWebhookRefused, type ProviderWebhookRequest } from './provider-webhook';
import { ProviderWebhookIntake } from './provider-webhook-intake';
import { PROVIDER_WEBHOOK_BODY_LIMIT_BYTES, ProviderWebhooksController } from './provider-webhooks.controller';
import { TwilioVoiceAnswerer } from './twilio-voice';

/**
 * The controller on the gateway's own Fastify adapter, with `rawBody` as the public server runs it, and the intake and
 * the voice answerer replaced: what reaches the verifiers, and how their answers and failures are sent.
 */
describe('ProviderWebhooksController', () => {
  let app: NestFastifyApplication;
  const received: Array<{ provider: string; request: ProviderWebhookRequest }> = [];
  const intake = { receive: jest.fn() };
  const voice = { answer: jest.fn() };
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        callback();
      },
    });
    const logger = createLogger('provider-webhooks-controller-spec', 'info', sink);
    @Module({
      controllers: [ProviderWebhooksController],
      providers: [
        { provide: ProviderWebhookIntake, useValue: intake },
        { provide: TwilioVoiceAnswerer, useValue: voice },
        { provide: LOGGER, useValue: logger },
      ],
    })
    class TestModule {}
    // The API's own body limit is the default (64 KiB): provider webhooks have theirs.
    const config = loadGatewayConfig({ ADMIN_TOKEN: 'a-long-enough-admin-token' });
    app = await NestFactory.create<NestFastifyApplication>(
      TestModule,
      createFastifyAdapter(config, logger, { server: 'public' }),
      { logger: false, rawBody: true },
    );
    app.useGlobalFilters(new ErrorEnvelopeFilter(logger));
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(() => {
    received.length = 0;
    logLines.length = 0;
    intake.receive.mockReset().mockImplementation((provider: string, request: ProviderWebhookRequest) => {
      received.push({ provider, request });
      return Promise.resolve({ received: true, duplicate: false });
    });
    voice.answer.mockReset();
  });

  const post = (url: string, contentType: string | undefined, payload: string | Buffer) =>
    app.inject({ method: 'POST', url, headers: contentType ? { 'content-type': contentType } : {}, payload });

  it('hands the intake the JSON and form bodies as sent, byte for byte, and none of it parsed first', async () => {
    // Nested deeper than the API's JSON parser takes, with a NUL: the verifier refuses these with its own message.
    const json = Buffer.from(`{ "id" : "evt_1",\n "deep": ${'['.repeat(40)}${']'.repeat(40)}, "nul": "\\u0000" }\r\n`);
    const form = Buffer.from('AccountSid=AC1&CallStatus=busy&From=%2B1415%00555&x=%E2%82%AC+y');
    expect((await post('/provider-webhooks/stripe', 'application/json; charset=utf-8', json)).statusCode).toBe(200);
    expect(
      (await post('/provider-webhooks/twilio/status?x=1', 'application/x-www-form-urlencoded', form)).statusCode,
    ).toBe(200);
    expect(received.map(({ provider, request }) => [provider, request.callback, request.url])).toEqual([
      ['stripe', '', '/provider-webhooks/stripe'],
      ['twilio', 'status', '/provider-webhooks/twilio/status?x=1'],
    ]);
    expect(received[0].request.body.equals(json)).toBe(true);
    expect(received[1].request.body.equals(form)).toBe(true);
    expect(received[1].request.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('answers 200 with what the intake says, the same for a duplicate', async () => {
    intake.receive.mockResolvedValueOnce({ received: true, duplicate: true });
    const response = await post('/provider-webhooks/retell', 'application/json', '{}');
    expect([response.statusCode, response.json()]).toEqual([200, { received: true, duplicate: true }]);
  });

  it(`takes bodies up to ${PROVIDER_WEBHOOK_BODY_LIMIT_BYTES / 1024} KiB, past the API's limit, and refuses larger ones with 413`, async () => {
    const sized = (bytes: number) => `{"pad":"${'x'.repeat(bytes - 10)}"}`;
    const within = await post(
      '/provider-webhooks/retell',
      'application/json',
      sized(PROVIDER_WEBHOOK_BODY_LIMIT_BYTES),
    );
    expect(within.statusCode).toBe(200);
    expect(received[0].request.body).toHaveLength(PROVIDER_WEBHOOK_BODY_LIMIT_BYTES);
    for (const contentType of ['application/json', 'application/x-www-form-urlencoded']) {
      const tooLarge = await post('/provider-webhooks/twilio/status', contentType, sized(600 * 1024));
      expect([tooLarge.statusCode, tooLarge.json()]).toEqual([
        413,
        { error: { code: 'payload_too_large', message: 'The request body is larger than the limit.' } },
      ]);
    }
    expect(received).toHaveLength(1);
  });

  it('refuses a body of another media type with 415 in the error envelope, before the intake', async () => {
    for (const contentType of ['text/plain', 'application/xml', 'application/vnd.api+json', undefined]) {
      const response = await post('/provider-webhooks/stripe', contentType, '{"id":"evt_1"}');
      expect([response.statusCode, response.json()]).toEqual([
        415,
        {
          error: {
            code: 'unsupported_media_type',
            message: 'Send provider webhooks as application/json or application/x-www-form-urlencoded.',
          },
        },
      ]);
    }
    expect(received).toEqual([]);
  });

  it('hands on a request without a body as empty bytes', async () => {
    const response = await app.inject({ method: 'POST', url: '/provider-webhooks/stripe' });
    expect(response.statusCode).toBe(200);
    expect(received[0].request.body).toEqual(Buffer.alloc(0));
  });

  it('answers a refusal with its status and message in the error envelope, and logs why', async () => {
    intake.receive.mockRejectedValueOnce(
      new ProviderWebhookRefused('unauthorized', 'The Twilio signature does not verify.', 'another account'),
    );
    const response = await post('/provider-webhooks/twilio/status', 'application/x-www-form-urlencoded', 'a=b');
    expect([response.statusCode, response.json()]).toEqual([
      401,
      { error: { code: 'unauthorized', message: 'The Twilio signature does not verify.' } },
    ]);
    expect(logLines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'provider webhook refused',
        provider: 'twilio',
        code: 'unauthorized',
        detail: 'another account',
        request_id: response.headers['x-request-id'],
      }),
    );
  });

  it('answers 503 with Retry-After when the event could not be recorded', async () => {
    intake.receive.mockRejectedValueOnce(new Error('connection refused'));
    const response = await post('/provider-webhooks/stripe', 'application/json', '{}');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({
      error: { code: 'service_unavailable', message: 'The event could not be recorded; send it again.' },
    });
    expect(logLines).toContainEqual(
      expect.objectContaining({ level: 'error', msg: 'provider webhook failed', provider: 'stripe' }),
    );
  });

  it("answers Twilio's voice URL with TwiML, not as an event", async () => {
    voice.answer.mockResolvedValueOnce(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>',
    );
    const response = await post('/provider-webhooks/twilio/voice', 'application/x-www-form-urlencoded', 'CallSid=CA1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(response.body).toContain('<Reject reason="busy"/>');
    expect((voice.answer.mock.calls[0] as [ProviderWebhookRequest])[0].body.toString()).toBe('CallSid=CA1');
    expect(received).toEqual([]);
  });

  it('has no guard (the signature is the credential) and stays out of the public OpenAPI description', () => {
    expect(Reflect.getMetadata(GUARDS_METADATA, ProviderWebhooksController)).toBeUndefined();
    for (const handler of ['receive', 'receiveCallback'] as const)
      expect(Reflect.getMetadata(GUARDS_METADATA, ProviderWebhooksController.prototype[handler])).toBeUndefined();
    expect(Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, ProviderWebhooksController)).toEqual([true]);
  });
});
