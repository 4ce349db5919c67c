import { Controller, Get, Headers, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  CallIdParam,
  CallsRpc,
  ListCallsQuery,
  type CallList,
  type CallView,
  type TranscriptView,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import type { FastifyReply } from 'fastify';
import { Caller, type CallerOptions } from '../auth';
import { answerRecording } from '../recordings/recording-reply';
import { CsrfGuard } from './guards/csrf.guard';
import { RoleGuard } from './guards/roles';
import { SessionGuard } from './guards/session.guard';

/** The account's calls, transcripts and recordings, as `/v1/calls` serves them; every role reads. */
@ApiExcludeController()
@Controller('console/api/calls')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class CallsConsoleController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(@Query() query: ListCallsQuery, @Caller() caller: CallerOptions): Promise<CallList> {
    return this.rpc.request(CallsRpc.list, query, caller);
  }

  @Get(':call_id')
  get(@Param() params: CallIdParam, @Caller() caller: CallerOptions): Promise<CallView> {
    return this.rpc.request(CallsRpc.get, { call_id: params.call_id }, caller);
  }

  @Get(':call_id/transcript')
  transcript(@Param() params: CallIdParam, @Caller() caller: CallerOptions): Promise<TranscriptView> {
    return this.rpc.request(CallsRpc.transcript, { call_id: params.call_id }, caller);
  }

  /** Streamed through the session (the audio element sends the cookie), byte ranges included. */
  @Get(':call_id/recording')
  recording(
    @Param() params: CallIdParam,
    @Headers('range') range: string | undefined,
    @Headers('if-range') ifRange: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Caller() caller: CallerOptions,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return answerRecording(this.rpc, params.call_id, { range, ifRange, ifNoneMatch }, caller, reply);
  }
}
