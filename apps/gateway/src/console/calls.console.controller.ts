import { Controller, Delete, Get, Headers, HttpCode, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  CallDataDeletionOutcome,
  CallIdParam,
  CallList,
  CallsRpc,
  CallStats,
  CallStatsQuery,
  CallView,
  ExportCallsQuery,
  ListCallsQuery,
  TranscriptView,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Caller, type CallerOptions } from '../auth';
import { answerRecordingDeletion } from '../call-data/call-data-deletion-reply';
import { answerExport } from '../call-data/call-export-reply';
import { DeletedBy } from '../call-data/deleted-by.decorator';
import { LiveCallStreams, resumeFrom } from '../live-calls/live-call-streams';
import { answerRecording } from '../recordings/recording-reply';
import { CsrfGuard } from './guards/csrf.guard';
import { RoleGuard, Roles } from './guards/roles';
import { accountIdOf, SessionGuard } from './guards/session.guard';

/** Who may delete a call's recording or transcript from the console (viewers only read). */
const CALL_DATA_DELETERS = ['owner', 'developer'] as const;

const CALL_ID = { name: 'call_id', description: 'The call id (SID) from the calls list.' };

/**
 * The account's calls (their filters and search included), stats, transcripts and recordings, and the calls in
 * progress as they happen, as `/v1/calls` serves them: the same DTOs, RPCs and live streams, the session's account in
 * the caller options; every role reads.
 */
@ApiTags('calls')
@Controller('console/api/calls')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class CallsConsoleController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly liveStreams: LiveCallStreams,
  ) {}

  /** Every filter of `GET /v1/calls` (outcome, sentiment, duration, caller, `q`, `include_total`, ...), validated here. */
  @Get()
  @ApiOkResponse({ type: CallList })
  list(@Query() query: ListCallsQuery, @Caller() caller: CallerOptions): Promise<CallList> {
    return this.rpc.request(CallsRpc.list, query, caller);
  }

  /** As `GET /v1/calls/stats`: the calls page's chart (by day, with each day's outcomes and success rate). */
  @Get('stats')
  @ApiOkResponse({ type: CallStats })
  stats(@Query() query: CallStatsQuery, @Caller() caller: CallerOptions): Promise<CallStats> {
    return this.rpc.request(CallsRpc.stats, query, caller);
  }

  /** As `GET /v1/calls/export`: the calls page's Export button, for its current filters. */
  @Get('export')
  @ApiProduces('text/csv', 'application/x-ndjson')
  @ApiOkResponse({
    description: 'The calls, one per line, as an attachment.',
    content: {
      'text/csv': { schema: { type: 'string' } },
      'application/x-ndjson': { schema: { type: 'string' } },
    },
  })
  async export(
    @Query() query: ExportCallsQuery,
    @Caller() caller: CallerOptions,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await answerExport(this.rpc, query, caller, reply);
  }

  /**
   * As `GET /v1/calls/live`: the calls page's "Live now", an EventSource on the page's origin (the cookie goes with
   * it, and so does Last-Event-ID when it reconnects). No key: a sign-out ends nothing here, the page goes with it;
   * the account's cap of open streams counts these with its keys' (docs/live-calls.md).
   */
  @Get('live')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The id of the last event received.' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description: 'Server-Sent Events, as `GET /v1/calls/live` sends them (docs/live-calls.md).',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  live(
    @Headers('last-event-id') lastEventId: string | undefined,
    @Caller() caller: CallerOptions,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const who = { accountId: accountIdOf(caller), requestId: caller.requestId };
    return this.liveStreams.open(who, resumeFrom(lastEventId), request, reply);
  }

  @Get(':call_id')
  @ApiParam(CALL_ID)
  @ApiOkResponse({ type: CallView })
  get(@Param() params: CallIdParam, @Caller() caller: CallerOptions): Promise<CallView> {
    return this.rpc.request(CallsRpc.get, { call_id: params.call_id }, caller);
  }

  @Get(':call_id/transcript')
  @ApiParam(CALL_ID)
  @ApiOkResponse({ type: TranscriptView })
  transcript(@Param() params: CallIdParam, @Caller() caller: CallerOptions): Promise<TranscriptView> {
    return this.rpc.request(CallsRpc.transcript, { call_id: params.call_id }, caller);
  }

  /** Streamed through the session (the audio element sends the cookie), byte ranges included. */
  @Get(':call_id/recording')
  @ApiParam(CALL_ID)
  @ApiProduces('audio/mpeg')
  @ApiOkResponse({
    description: 'The whole recording.',
    content: { 'audio/mpeg': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({
    status: 206,
    description: 'The requested byte range.',
    content: { 'audio/mpeg': { schema: { type: 'string', format: 'binary' } } },
  })
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

  /** As `DELETE /v1/calls/{id}/recording`: 204, or 202 while storage has not confirmed the deletion. */
  @Delete(':call_id/recording')
  @HttpCode(204)
  @Roles(CALL_DATA_DELETERS, "delete a call's recording")
  @ApiParam(CALL_ID)
  @ApiNoContentResponse({ description: 'Deleted (or already gone).' })
  @ApiResponse({
    status: 202,
    description: 'Deleted from the call; object storage will confirm it shortly.',
    type: CallDataDeletionOutcome,
  })
  async deleteRecording(
    @Param() params: CallIdParam,
    @DeletedBy() deletedBy: string,
    @Caller() caller: CallerOptions,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CallDataDeletionOutcome | undefined> {
    return answerRecordingDeletion(this.rpc, params.call_id, deletedBy, caller, reply);
  }

  @Delete(':call_id/transcript')
  @HttpCode(204)
  @Roles(CALL_DATA_DELETERS, "delete a call's transcript")
  @ApiParam(CALL_ID)
  @ApiNoContentResponse({ description: 'Deleted (or already gone).' })
  async deleteTranscript(
    @Param() params: CallIdParam,
    @DeletedBy() deletedBy: string,
    @Caller() caller: CallerOptions,
  ): Promise<void> {
    await this.rpc.request(CallsRpc.deleteTranscript, { call_id: params.call_id, deleted_by: deletedBy }, caller);
  }
}
