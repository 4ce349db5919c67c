import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  ListWebhookEventsPage,
  MAX_RECOVERY_DAYS,
  NumberIdParam,
  NumbersRpc,
  RecoverWebhookEvents,
  WebhookEndpointEnabled,
  WebhookEndpointView,
  WebhookEventList,
  WebhookEventParams,
  WebhookEventsRecovered,
  WebhookEventsRpc,
  WebhookEventView,
  WebhookSecretRotate,
  WebhookSecretRotated,
  WebhookTestResult,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';
import { Idempotent } from '../idempotency';

const ERROR = { $ref: '#/components/schemas/Error' };
const NUMBER_ID = {
  name: 'id',
  description: 'The number id, `num_<n>`, or its digits `<n>`.',
  schema: { type: 'string', pattern: '^(num_)?[1-9][0-9]*$' },
};
const EVENT_ID = {
  name: 'event_id',
  description: 'The event id (`id` in the delivery log, `X-Switchboard-Event-Id`).',
  schema: { type: 'string', format: 'uuid' },
};
/** A test event waits for the receiver (at most WEBHOOK_TIMEOUT_MS, 10 s by default) and the target lookup. */
const TEST_TIMEOUT_MS = 25_000;

/**
 * A number's webhook as its owner sees it (docs/webhooks.md): the delivery log, redelivery, recovery and the test
 * event. Every route first asks numbers-billing for the number as the caller (404 for a number of another account),
 * then webhook-dispatcher, which filters on the account again.
 */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('numbers/:id')
@UseGuards(ApiKeyGuard)
export class WebhooksHttpController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('webhook-events')
  @ApiOperation({
    summary: "List a number's webhook events",
    description:
      "Every event sent (or to be sent) to the number's webhook, newest first, each with its attempts: status code, latency, " +
      'error, and when the next attempt is due. Paginated by cursor: at most `limit` events (default 20, at most 100); when ' +
      '`has_more` is true, ask again with `starting_after` set to the `id` of the last event of this page.',
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: WebhookEventList })
  @ApiResponse({
    status: 400,
    description: 'invalid_request: a bad limit or cursor, an id of another form',
    schema: ERROR,
  })
  @ApiResponse({ status: 404, description: 'not_found: unknown number, or a number of another account', schema: ERROR })
  async list(
    @Param() params: NumberIdParam,
    @Query() query: ListWebhookEventsPage,
    @Caller() caller: CallerOptions,
  ): Promise<WebhookEventList> {
    const numberId = await this.ownedNumber(params.id, caller);
    return this.rpc.request(WebhookEventsRpc.list, { ...query, number_id: numberId }, caller);
  }

  @Post('webhook-events/:event_id/redeliver')
  @HttpCode(202)
  @Idempotent()
  @ApiOperation({
    summary: 'Send one event again',
    description:
      "Queues the event for a new round of up to 5 attempts, to the number's current `webhook_url`, signed with its current " +
      'secret. It keeps its id, so a receiver that de-duplicates on `X-Switchboard-Event-Id` (or `webhook-id`) handles it once. ' +
      'An event already pending is left as it is.',
  })
  @ApiParam(NUMBER_ID)
  @ApiParam(EVENT_ID)
  @ApiAcceptedResponse({ type: WebhookEventView })
  @ApiResponse({ status: 400, description: 'invalid_request: an id of another form', schema: ERROR })
  @ApiResponse({
    status: 404,
    description: 'not_found: unknown number or event, or one of another account',
    schema: ERROR,
  })
  @ApiResponse({
    status: 409,
    description: 'event_not_redeliverable: sent before bodies were kept; idempotency_key_in_use',
    schema: ERROR,
  })
  @ApiResponse({ status: 422, description: 'idempotency_key_reused', schema: ERROR })
  async redeliver(@Param() params: WebhookEventParams, @Caller() caller: CallerOptions): Promise<WebhookEventView> {
    const numberId = await this.ownedNumber(params.id, caller);
    return this.rpc.request(WebhookEventsRpc.redeliver, { number_id: numberId, event_id: params.event_id }, caller);
  }

  @Post('webhook-events/recover')
  @HttpCode(202)
  @Idempotent()
  @ApiOperation({
    summary: 'Send every failed event again',
    description: `Queues every failed event of the number created since \`since\` (at most ${MAX_RECOVERY_DAYS} days ago) for a new round of attempts. Test events are left out.`,
  })
  @ApiParam(NUMBER_ID)
  @ApiAcceptedResponse({ type: WebhookEventsRecovered })
  @ApiResponse({
    status: 400,
    description: `invalid_request: since missing, malformed, or more than ${MAX_RECOVERY_DAYS} days ago`,
    schema: ERROR,
  })
  @ApiResponse({ status: 404, description: 'not_found: unknown number, or a number of another account', schema: ERROR })
  @ApiResponse({ status: 409, description: 'idempotency_key_in_use', schema: ERROR })
  @ApiResponse({ status: 422, description: 'idempotency_key_reused', schema: ERROR })
  async recover(
    @Param() params: NumberIdParam,
    @Body() body: RecoverWebhookEvents,
    @Caller() caller: CallerOptions,
  ): Promise<WebhookEventsRecovered> {
    const numberId = await this.ownedNumber(params.id, caller);
    return this.rpc.request(WebhookEventsRpc.recover, { ...body, number_id: numberId }, caller);
  }

  @Post('webhook-test')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Send a test event',
    description:
      "Sends a `webhook.test` event to the number's `webhook_url` now, signed like any other, once (no retry), and answers " +
      'what the receiver said: its status, the first 1 KiB of its body, the latency, or why no answer came. It is listed in ' +
      'the delivery log.',
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: WebhookTestResult })
  @ApiResponse({ status: 404, description: 'not_found: unknown number, or a number of another account', schema: ERROR })
  @ApiResponse({
    status: 409,
    description: 'no_webhook: the number has no webhook_url; idempotency_key_in_use',
    schema: ERROR,
  })
  @ApiResponse({ status: 422, description: 'idempotency_key_reused', schema: ERROR })
  @ApiResponse({
    status: 429,
    description: 'rate_limited: the receiver already has its share of deliveries on the wire; retry after Retry-After',
    schema: ERROR,
  })
  @ApiResponse({
    status: 503,
    description: 'service_unavailable: the number could not be looked up; retry',
    schema: ERROR,
  })
  async test(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<WebhookTestResult> {
    const numberId = await this.ownedNumber(params.id, caller);
    return this.rpc.request(WebhookEventsRpc.test, { number_id: numberId }, { ...caller, timeoutMs: TEST_TIMEOUT_MS });
  }

  @Post('webhook-secret/rotate')
  @HttpCode(200)
  // numbers-billing deduplicates on the same key and answers the secret that rotation made.
  @Idempotent({ secretFields: ['webhook_secret'] })
  @ApiOperation({
    summary: "Rotate a number's webhook secret",
    description:
      'Makes a new `webhook_secret`, returned only in this answer. For `overlap_hours` (default 24, at most 168; 0 ends the ' +
      'old secret at once) every delivery is signed with the new and the old secret: `X-Switchboard-Signature: v1=<new> ' +
      'v1=<old>` and two `webhook-signature` values, so a receiver still on the old secret keeps verifying while you deploy ' +
      'the new one. Send an `Idempotency-Key`: a retry with it answers the same new secret instead of rotating again.',
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: WebhookSecretRotated })
  @ApiResponse({
    status: 400,
    description: 'invalid_request: overlap_hours out of range, an id of another form',
    schema: ERROR,
  })
  @ApiResponse({ status: 404, description: 'not_found: unknown number, or a number of another account', schema: ERROR })
  @ApiResponse({ status: 409, description: 'number_released; idempotency_key_in_use', schema: ERROR })
  @ApiResponse({ status: 422, description: 'idempotency_key_reused', schema: ERROR })
  rotateSecret(
    @Param() params: NumberIdParam,
    @Body() body: WebhookSecretRotate,
    @Caller() caller: CallerOptions,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<WebhookSecretRotated> {
    const command = {
      ...body,
      id: params.id,
      ...(idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey }),
    };
    return this.rpc.request(NumbersRpc.rotateWebhookSecret, command, caller);
  }

  @Get('webhook-endpoint')
  @ApiOperation({
    summary: "A number's webhook endpoint health",
    description:
      'Whether the endpoint is enabled, and the current run of failed attempts. It is disabled at once when the receiver ' +
      'answers `410 Gone`, or when every attempt has failed for 5 days (at least 10 attempts in a row); the account is told ' +
      'with a `webhook.endpoint_disabled` event. While disabled, events wait (`paused` in the log).',
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: WebhookEndpointView })
  @ApiResponse({ status: 404, description: 'not_found: unknown number, or a number of another account', schema: ERROR })
  async endpoint(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<WebhookEndpointView> {
    const numberId = await this.ownedNumber(params.id, caller);
    return this.rpc.request(WebhookEventsRpc.endpoint, { number_id: numberId }, caller);
  }

  @Post('webhook-endpoint/enable')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: "Enable a number's webhook endpoint again",
    description:
      'Ends the run of failures and queues every event that waited while it was disabled (`resumed`), each with a new round of attempts. Enabling an enabled endpoint changes nothing.',
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: WebhookEndpointEnabled })
  @ApiResponse({ status: 404, description: 'not_found: unknown number, or a number of another account', schema: ERROR })
  @ApiResponse({ status: 409, description: 'idempotency_key_in_use', schema: ERROR })
  @ApiResponse({ status: 422, description: 'idempotency_key_reused', schema: ERROR })
  async enableEndpoint(
    @Param() params: NumberIdParam,
    @Caller() caller: CallerOptions,
  ): Promise<WebhookEndpointEnabled> {
    const numberId = await this.ownedNumber(params.id, caller);
    return this.rpc.request(WebhookEventsRpc.enableEndpoint, { number_id: numberId }, caller);
  }

  /** The number's canonical id (`num_<n>`), or 404 when it is not the caller's. */
  private async ownedNumber(id: string, caller: CallerOptions): Promise<string> {
    return (await this.rpc.request(NumbersRpc.get, { id }, caller)).id;
  }
}
