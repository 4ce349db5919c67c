import { Controller, Delete, Get, Headers, HttpCode, Param, Query, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  CallIdParam,
  CallList,
  CallsRpc,
  CallStats,
  CallDataDeletionOutcome,
  CallStatsQuery,
  CallView,
  ExportCallsQuery,
  ListCallsQuery,
  TranscriptView,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';
import { answerRecordingDeletion } from '../call-data/call-data-deletion-reply';
import { answerExport } from '../call-data/call-export-reply';
import { DeletedBy } from '../call-data/deleted-by.decorator';
import { answerRecording } from '../recordings/recording-reply';

const ERROR = { $ref: '#/components/schemas/Error' };

/** Calls, transcripts and recordings (spec part 4): validated here, answered by calls-media for the caller's account. */
@ApiTags('calls')
@ApiBearerAuth()
@Controller('calls')
@UseGuards(ApiKeyGuard)
export class CallsHttpController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: 'List calls',
    description:
      "The account's calls across all its numbers, newest first. Pages with limit and starting_after. Every filter " +
      'given narrows the list (number_id, since inclusive, until exclusive, outcome, direction, status, caller, ' +
      'min_duration, max_duration, sentiment, successful, has_recording) and q searches the transcripts and summaries ' +
      '(docs/call-search.md). A bad value is 400 invalid_request naming the parameter.',
  })
  @ApiOkResponse({ type: CallList })
  list(@Query() query: ListCallsQuery, @Caller() caller: CallerOptions): Promise<CallList> {
    return this.rpc.request(CallsRpc.list, query, caller);
  }

  @Get('stats')
  @ApiOperation({
    summary: 'Call statistics',
    description:
      "The account's calls that started in [since, until) (default: the 30 days before now, at most 366 days), " +
      'counted by day, outcome, sentiment or number: calls, minutes, average duration and success rate.',
  })
  @ApiOkResponse({ type: CallStats })
  stats(@Query() query: CallStatsQuery, @Caller() caller: CallerOptions): Promise<CallStats> {
    return this.rpc.request(CallsRpc.stats, query, caller);
  }

  @Get('export')
  @ApiOperation({
    summary: 'Export calls',
    description:
      'Every call matching the filters of the calls list, newest first, streamed as CSV (text/csv, a header row of ' +
      "the call's field names) or JSON lines (application/x-ndjson). include=transcript,analysis adds either or both. " +
      "A CSV cell a spreadsheet would run as a formula (=, +, -, @) starts with ' (docs/call-data.md).",
  })
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

  @Get(':call_id')
  @ApiOperation({ summary: 'Get a call', description: 'One call as the list shows it.' })
  @ApiParam({ name: 'call_id', description: 'The call id (SID) from the calls list.' })
  @ApiOkResponse({ type: CallView })
  @ApiNotFoundResponse({ description: "not_found: unknown call or another account's call.", schema: ERROR })
  get(@Param() params: CallIdParam, @Caller() caller: CallerOptions): Promise<CallView> {
    return this.rpc.request(CallsRpc.get, { call_id: params.call_id }, caller);
  }

  @Get(':call_id/transcript')
  @ApiOperation({ summary: "A call's transcript" })
  @ApiParam({ name: 'call_id', description: 'The call id (SID) from the calls list.' })
  @ApiOkResponse({ type: TranscriptView })
  @ApiNotFoundResponse({
    description: "not_found: unknown call, another account's call, or no transcript.",
    schema: ERROR,
  })
  transcript(@Param() params: CallIdParam, @Caller() caller: CallerOptions): Promise<TranscriptView> {
    return this.rpc.request(CallsRpc.transcript, { call_id: params.call_id }, caller);
  }

  @Get(':call_id/recording')
  @ApiOperation({
    summary: "A call's recording",
    description:
      'Streamed as audio/mpeg. Honours a single byte Range (206 with Content-Range; 416 when unsatisfiable), If-Range and If-None-Match.',
  })
  @ApiParam({ name: 'call_id', description: 'The call id (SID) from the calls list.' })
  @ApiHeader({ name: 'Range', required: false, description: 'One byte range, e.g. bytes=0-1023 or bytes=-500.' })
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
  @ApiResponse({ status: 304, description: 'If-None-Match named the current ETag.' })
  @ApiResponse({ status: 416, description: 'range_not_satisfiable; Content-Range: bytes */<size>.', schema: ERROR })
  @ApiNotFoundResponse({
    description: "no_recording: the call has no recording. not_found: unknown call or another account's call.",
    schema: ERROR,
  })
  async recording(
    @Param() params: CallIdParam,
    @Headers('range') range: string | undefined,
    @Headers('if-range') ifRange: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Caller() caller: CallerOptions,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await answerRecording(this.rpc, params.call_id, { range, ifRange, ifNoneMatch }, caller, reply);
  }

  @Delete(':call_id/recording')
  @HttpCode(204)
  @ApiOperation({
    summary: "Delete a call's recording",
    description:
      'The recording is deleted from storage before the answer (204); 202 when storage has not confirmed it yet and ' +
      'the deletion is retried until it does. Deleting it again answers 204. The call keeps who deleted it and when.',
  })
  @ApiParam({ name: 'call_id', description: 'The call id (SID) from the calls list.' })
  @ApiResponse({ status: 204, description: 'Deleted (or already gone).' })
  @ApiResponse({
    status: 202,
    description: 'Deleted from the call; object storage will confirm it shortly.',
    type: CallDataDeletionOutcome,
  })
  @ApiNotFoundResponse({ description: "not_found: unknown call or another account's call.", schema: ERROR })
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
  @ApiOperation({
    summary: "Delete a call's transcript",
    description:
      'Deletes the transcript and the summary (the analysis flags and custom values stay). Deleting it again answers 204.',
  })
  @ApiParam({ name: 'call_id', description: 'The call id (SID) from the calls list.' })
  @ApiResponse({ status: 204, description: 'Deleted (or already gone).' })
  @ApiNotFoundResponse({ description: "not_found: unknown call or another account's call.", schema: ERROR })
  async deleteTranscript(
    @Param() params: CallIdParam,
    @DeletedBy() deletedBy: string,
    @Caller() caller: CallerOptions,
  ): Promise<void> {
    await this.rpc.request(CallsRpc.deleteTranscript, { call_id: params.call_id, deleted_by: deletedBy }, caller);
  }
}
