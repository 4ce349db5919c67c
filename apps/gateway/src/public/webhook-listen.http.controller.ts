import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { NumberIdParam, NumbersRpc } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';
import { WebhookListeners } from './webhook-listeners';

/**
 * `GET /v1/numbers/{id}/webhook/listen`: the number's signed deliveries as Server-Sent Events, while connected, for
 * `npm run listen` to forward to a receiver on the developer's machine (docs/webhooks.md, "On your laptop";
 * docs/adr/0128-webhook-listen.md). The number must be the key's (404 otherwise), in the key's mode. A stream is not
 * a JSON answer, so it is left out of the OpenAPI description and the typed SDK; docs/webhooks.md describes it.
 */
@ApiExcludeController()
@Controller('numbers/:id/webhook')
@UseGuards(ApiKeyGuard)
export class WebhookListenHttpController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly listeners: WebhookListeners,
  ) {}

  @Get('listen')
  async listen(
    @Param() params: NumberIdParam,
    @Caller() caller: CallerOptions,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // 404 for a number of another account (or of the other mode): numbers-billing answers for the key's account.
    const number = await this.rpc.request(NumbersRpc.get, { id: params.id }, caller);
    await this.listeners.open(caller.accountId!, number.id, request, reply);
  }
}
