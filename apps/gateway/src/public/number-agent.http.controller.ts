import { Body, Controller, Get, HttpCode, Param, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AgentRpc, AgentSettingsBody, AgentSettingsView, NumberIdParam } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';
import { Idempotent } from '../idempotency';
import { NUMBER_ID } from './numbers.http.controller';

const ERROR = { $ref: '#/components/schemas/Error' };

/**
 * Extension (not in the spec): the AI agent that answers a number, its greeting and instructions
 * (docs/adr/0083-real-providers.md). Set at creation with `agent` on NumberCreate, read and replaced here.
 */
@ApiTags('numbers')
@ApiBearerAuth()
@Controller('numbers/:id/agent')
@UseGuards(ApiKeyGuard)
export class NumberAgentHttpController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: "Get a number's agent settings",
    description:
      'Extension: the greeting and instructions of the agent that answers the number (null: the default), the ' +
      'analysis fields it fills in after each call, and whether the agent platform has them yet (`status`).',
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: AgentSettingsView })
  @ApiResponse({ status: 404, description: 'not_found: unknown id, or a number of another account', schema: ERROR })
  get(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<AgentSettingsView> {
    return this.rpc.request(AgentRpc.get, { id: params.id }, caller);
  }

  @Put()
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: "Replace a number's agent settings",
    description:
      'Extension: sets the greeting, the instructions and the analysis fields (a field left out or null is the ' +
      'default: no analysis fields; docs/call-analysis.md). The answer says `pending` until the agent platform has ' +
      'them; they are sent at once and retried until they arrive.',
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: AgentSettingsView })
  @ApiResponse({
    status: 400,
    description: 'invalid_request: a field too long or not text, or analysis fields that break a rule (named)',
    schema: ERROR,
  })
  @ApiResponse({ status: 404, description: 'not_found: unknown id, or a number of another account', schema: ERROR })
  @ApiResponse({ status: 409, description: 'number_released: a released number has no agent', schema: ERROR })
  update(
    @Param() params: NumberIdParam,
    @Body() body: AgentSettingsBody,
    @Caller() caller: CallerOptions,
  ): Promise<AgentSettingsView> {
    return this.rpc.request(AgentRpc.update, { ...body, id: params.id }, caller);
  }
}
