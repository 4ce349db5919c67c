import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { LiveCallsRpc, type LiveCallEvents, type LiveCallEventsQuery } from '@switchboard/contracts';
import { Caller, RpcPattern, requireAccount, type RpcContext } from '@switchboard/messaging';
import { LiveCallsService } from './live-calls.service';

/** The live log the gateway's streams replay (`GET /v1/calls/live`, `GET /v1/calls/{call_id}/live`). */
@Controller()
export class LiveCallsNatsController {
  constructor(private readonly live: LiveCallsService) {}

  @RpcPattern(LiveCallsRpc.since)
  since(@Payload() request: LiveCallEventsQuery, @Caller() ctx: RpcContext): Promise<LiveCallEvents> {
    return this.live.since(requireAccount(ctx), request);
  }
}
