import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  AgentRpc,
  AgentSettingsBody,
  AgentSettingsView,
  ConsoleAgentSettingsView,
  DEFAULT_AGENT_GREETING,
  ListNumbersQuery,
  NumberCreate,
  NumberCreated,
  NumberIdParam,
  NumberList,
  NumberReleased,
  NumbersRpc,
  NumberUpdate,
  NumberView,
  PhoneLineBody,
  PhoneLineView,
  ReleaseNumberCommand,
  WebhookDeliveriesRpc,
  WebhookDeliveryList,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { Caller, type CallerOptions } from '../auth';
import { Idempotent } from '../idempotency';
import { getPhoneLine, linkPhoneLine, unlinkPhoneLine } from '../phone-lines/phone-line-requests';
import { CsrfGuard } from './guards/csrf.guard';
import { RoleGuard, Roles } from './guards/roles';
import { SessionGuard } from './guards/session.guard';

const NUMBER_ROLES = ['owner', 'developer'] as const;

/** Every route below but the list and provisioning takes one of the account's numbers. */
const NUMBER_ID = { name: 'id', description: 'The number (`num_<n>`).' };

/**
 * The account's numbers, as `/v1/numbers` serves them (same DTOs, same RPCs, the session's account in the caller
 * options), and the webhook attempts of one of them. Everyone reads; owners and developers change.
 */
@ApiTags('numbers')
@Controller('console/api/numbers')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class NumbersConsoleController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOkResponse({ type: NumberList })
  list(@Query() query: ListNumbersQuery, @Caller() caller: CallerOptions): Promise<NumberList> {
    return this.rpc.request(NumbersRpc.list, query, caller);
  }

  @Post()
  @HttpCode(201)
  @Roles(NUMBER_ROLES, 'provision numbers')
  // As on /v1: a retried provision (a double click, a lost answer) with the same key buys and charges once.
  @Idempotent({ secretFields: ['webhook_secret'] })
  @ApiCreatedResponse({ type: NumberCreated })
  provision(
    @Body() body: NumberCreate,
    @Caller() caller: CallerOptions,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<NumberCreated> {
    const command = idempotencyKey === undefined ? body : { ...body, idempotency_key: idempotencyKey };
    return this.rpc.request(NumbersRpc.provision, command, caller);
  }

  @Get(':id')
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: NumberView })
  get(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<NumberView> {
    return this.rpc.request(NumbersRpc.get, { id: params.id }, caller);
  }

  @Patch(':id')
  @HttpCode(200)
  @Roles(NUMBER_ROLES, 'change numbers and their webhooks')
  @Idempotent()
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: NumberView })
  update(
    @Param() params: NumberIdParam,
    @Body() body: NumberUpdate,
    @Caller() caller: CallerOptions,
  ): Promise<NumberView> {
    return this.rpc.request(NumbersRpc.update, { ...body, id: params.id }, caller);
  }

  @Delete(':id')
  @HttpCode(200)
  @Roles(NUMBER_ROLES, 'release numbers')
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: NumberReleased })
  release(@Param() params: ReleaseNumberCommand, @Caller() caller: CallerOptions): Promise<NumberReleased> {
    return this.rpc.request(NumbersRpc.release, { id: params.id }, caller);
  }

  /**
   * The webhook attempts of one of the account's numbers, newest first. The attempt log is not per account, so the
   * number is first asked for as the session's account: another account's number is 404, as on `/v1`.
   */
  @Get(':id/webhook-deliveries')
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: WebhookDeliveryList })
  async deliveries(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<WebhookDeliveryList> {
    const number = await this.rpc.request(NumbersRpc.get, { id: params.id }, caller);
    return this.rpc.request(WebhookDeliveriesRpc.list, { number_id: number.id }, caller);
  }

  /** The location whose lost-item reports this number takes (docs/adr/0079), as `/v1/lostfound/phone-lines/{id}`. */
  @Get(':id/lostfound-line')
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: PhoneLineView })
  lostfoundLine(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<PhoneLineView> {
    return getPhoneLine(this.rpc, params.id, caller);
  }

  @Put(':id/lostfound-line')
  @HttpCode(200)
  @Roles(NUMBER_ROLES, "make a number a location's lost-and-found line")
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: PhoneLineView })
  linkLostfoundLine(
    @Param() params: NumberIdParam,
    @Body() body: PhoneLineBody,
    @Caller() caller: CallerOptions,
  ): Promise<PhoneLineView> {
    return linkPhoneLine(this.rpc, params.id, body.location_id, caller);
  }

  @Delete(':id/lostfound-line')
  @HttpCode(200)
  @Roles(NUMBER_ROLES, 'stop lost-item reports on a number')
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: PhoneLineView })
  unlinkLostfoundLine(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<PhoneLineView> {
    return unlinkPhoneLine(this.rpc, params.id, caller);
  }

  /**
   * The agent's greeting and instructions (docs/adr/0083), as `/v1/numbers/{id}/agent`, and the greeting the agent says
   * when the number has none: the page shows what an empty field means.
   */
  @Get(':id/agent')
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: ConsoleAgentSettingsView })
  async agent(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<ConsoleAgentSettingsView> {
    const settings = await this.rpc.request(AgentRpc.get, { id: params.id }, caller);
    return { ...settings, default_greeting: DEFAULT_AGENT_GREETING };
  }

  @Put(':id/agent')
  @HttpCode(200)
  @Roles(NUMBER_ROLES, "change a number's agent")
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: AgentSettingsView })
  updateAgent(
    @Param() params: NumberIdParam,
    @Body() body: AgentSettingsBody,
    @Caller() caller: CallerOptions,
  ): Promise<AgentSettingsView> {
    return this.rpc.request(AgentRpc.update, { ...body, id: params.id }, caller);
  }
}
