import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { NumberIdParam, NumbersRpc, ServiceError } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';
import { WebhookListeners } from './webhook-listeners';

/**
 * `GET /v1/numbers/{id}/webhook/listen`: the number's signed deliveries as Server-Sent Events, while connected, for
 * `npm run listen` to forward to a receiver on the developer's machine (docs/webhooks.md, "On your laptop";
 * docs/adr/0128-webhook-signatures-secrets-and-listen.md). The number must be the key's (404 otherwise), in the key's mode. Described in the
 * OpenAPI description as a text/event-stream answer, so the description lists every route the API serves.
 */
const ERROR = { $ref: '#/components/schemas/Error' };

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('numbers/:id/webhook')
@UseGuards(ApiKeyGuard)
export class WebhookListenHttpController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly listeners: WebhookListeners,
  ) {}

  @Get('listen')
  @ApiOperation({
    summary: "Listen to a number's webhooks",
    description:
      'Server-Sent Events while connected: a `ready` event once listening, then one `webhook` event per signed ' +
      'delivery of the number (its exact body and signature headers, as JSON), and a comment every 15 s. The ' +
      'stream ends with an `end` event (`{ reason, message }`): after its maximum lifetime, an hour by default ' +
      '(`lifetime`: connect again), ' +
      'at once when the key is revoked (`key_revoked`), after the `number.released` webhook of a released number ' +
      '(`number_released`), or when the server stops (`shutdown`). HEAD answers the headers alone. What ' +
      '`npm run listen` forwards to a local receiver; receiving here is not a delivery (docs/webhooks.md).',
  })
  @ApiParam({ name: 'id', description: 'The number id (num_<n>).' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'The event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiNotFoundResponse({ description: "not_found: unknown number or another account's number.", schema: ERROR })
  @ApiResponse({ status: 409, description: 'number_released: the number was released.', schema: ERROR })
  @ApiResponse({ status: 429, description: 'rate_limited: too many listeners open for this account.', schema: ERROR })
  @ApiServiceUnavailableResponse({
    description: 'The message bus is unavailable; retry after Retry-After.',
    schema: ERROR,
  })
  async listen(
    @Param() params: NumberIdParam,
    @Caller() caller: CallerOptions,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // 404 for a number of another account (or of the other mode): numbers-billing answers for the key's account.
    const number = await this.rpc.request(NumbersRpc.get, { id: params.id }, caller);
    if (number.status === 'released')
      throw new ServiceError('number_released', 'The number was released; it has no more webhooks to listen to.');
    // HEAD (which Fastify serves with this handler) gets the stream's headers and no stream: nothing to wait for.
    if (request.method === 'HEAD') {
      await reply
        .status(200)
        .headers({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' })
        .send();
      return;
    }
    const key = request.auth!;
    await this.listeners.open({ accountId: key.accountId, keyId: key.keyId, numberId: number.id }, request, reply);
  }
}
