import { Controller, Get, Headers, Param, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CallIdParam } from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '../auth';
import { LiveCallStreams, resumeFrom } from '../live-calls/live-call-streams';

const ERROR = { $ref: '#/components/schemas/Error' };
const EVENTS =
  'Server-Sent Events: `status` when a call starts (`{ call_id, number_id, caller, direction, status, started_at }`), ' +
  '`turn` per transcript turn (`{ call_id, position, role, text }`), `ended` once (`{ call_id, status, ' +
  'duration_sec }`), a comment every 15 s, and a last `end` event (`{ reason, message }`) when the stream ends. Each ' +
  'event has an `id`: send the last one seen as `Last-Event-ID` to resume exactly after it (docs/live-calls.md).';
const LAST_EVENT_ID = {
  name: 'Last-Event-ID',
  required: false,
  description: 'The id of the last event received: the stream resumes after it (EventSource sends it by itself).',
};
const STREAM = { description: 'The event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } };
const TOO_MANY = {
  status: 429,
  description: 'rate_limited: too many live streams open for this account.',
  schema: ERROR,
};
const BUS_DOWN = { description: 'The message bus is unavailable; retry after Retry-After.', schema: ERROR };

/**
 * Calls while they happen (docs/live-calls.md): `GET /v1/calls/live` (every call of the account in progress) and
 * `GET /v1/calls/{call_id}/live` (one call, ending when it ends), as Server-Sent Events. Described in the OpenAPI
 * description as text/event-stream answers, as `webhook/listen` is.
 */
@ApiTags('calls')
@ApiBearerAuth()
@Controller('calls')
@UseGuards(ApiKeyGuard)
export class LiveCallsHttpController {
  constructor(private readonly streams: LiveCallStreams) {}

  @Get('live')
  @ApiOperation({
    summary: 'Watch calls in progress',
    description: `Every call of the account in progress, from its start or from Last-Event-ID, then each call that starts while connected. ${EVENTS}`,
  })
  @ApiHeader(LAST_EVENT_ID)
  @ApiProduces('text/event-stream')
  @ApiOkResponse(STREAM)
  @ApiResponse(TOO_MANY)
  @ApiServiceUnavailableResponse(BUS_DOWN)
  all(
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.streams.open(identityOf(request), resumeFrom(lastEventId), request, reply);
  }

  @Get(':call_id/live')
  @ApiOperation({
    summary: 'Watch a call',
    description: `One call as it happens: what it has so far (or what follows Last-Event-ID), then each event until it ends; a call already over answers its \`ended\` event and ends. ${EVENTS}`,
  })
  @ApiParam({ name: 'call_id', description: 'The call id (SID) from the calls list.' })
  @ApiHeader(LAST_EVENT_ID)
  @ApiProduces('text/event-stream')
  @ApiOkResponse(STREAM)
  @ApiNotFoundResponse({ description: "not_found: no such call, or another account's.", schema: ERROR })
  @ApiResponse(TOO_MANY)
  @ApiServiceUnavailableResponse(BUS_DOWN)
  one(
    @Param() params: CallIdParam,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const who = { ...identityOf(request), callId: params.call_id };
    return this.streams.open(who, resumeFrom(lastEventId), request, reply);
  }
}

function identityOf(request: FastifyRequest): { accountId: string; keyId: string; requestId: string } {
  const key = request.auth!;
  return { accountId: key.accountId, keyId: key.keyId, requestId: String(request.id) };
}
