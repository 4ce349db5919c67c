import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  ListNumbersQuery,
  MAX_CALL_MINUTES_LIMIT,
  NumberCreate,
  NumberCreated,
  NumberIdParam,
  NumberList,
  NumberReleased,
  NumberUpdate,
  NumbersRpc,
  NumberView,
  ReleaseNumberCommand,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';
import { Idempotent } from '../idempotency';

const ERROR = { $ref: '#/components/schemas/Error' };
/** The `{id}` path parameter of the routes on one number, as the OpenAPI description shows it. */
export const NUMBER_ID = {
  name: 'id',
  description: 'The number id, `num_<n>`, or its digits `<n>`.',
  schema: { type: 'string', pattern: '^(num_)?[1-9][0-9]*$' },
};

@ApiTags('numbers')
@ApiBearerAuth()
@Controller('numbers')
@UseGuards(ApiKeyGuard)
export class NumbersHttpController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Provision a number',
    description:
      'Buys a local US number (in `area_code`, default the area of `business_phone`), charges its first month ($5) and ' +
      'returns `webhook_secret` once. A failed provision is never charged. Send an `Idempotency-Key` to retry safely: a ' +
      'retry with the same key and body returns the first answer, secret included, without buying or charging again, for ' +
      '24 hours; after that the key is 422 `idempotency_key_expired`.',
  })
  // numbers-billing deduplicates on the same key and answers the secret of the number it bought the first time.
  @Idempotent({ secretFields: ['webhook_secret'] })
  @ApiCreatedResponse({ type: NumberCreated })
  @ApiResponse({ status: 400, description: 'invalid_request', schema: ERROR })
  @ApiResponse({ status: 402, description: 'insufficient_balance: the balance is below $5', schema: ERROR })
  @ApiResponse({ status: 409, description: 'no_numbers; idempotency_key_in_use', schema: ERROR })
  @ApiResponse({
    status: 422,
    description:
      'idempotency_key_reused: the key was used with another body; idempotency_key_expired: used more than 24 hours ago',
    schema: ERROR,
  })
  @ApiResponse({ status: 429, description: 'number_limit, provision_velocity or rate_limited', schema: ERROR })
  @ApiResponse({ status: 503, description: 'provider_unavailable: transient, nothing charged; retry', schema: ERROR })
  provision(
    @Body() body: NumberCreate,
    @Caller() caller: CallerOptions,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<NumberCreated> {
    const command = idempotencyKey === undefined ? body : { ...body, idempotency_key: idempotencyKey };
    return this.rpc.request(NumbersRpc.provision, command, caller);
  }

  @Get()
  @ApiOperation({
    summary: 'List numbers',
    description:
      "The account's numbers: active first, then past_due, then released; newest first within each. `webhook_secret` is " +
      'never included. Paginated by cursor: at most `limit` numbers (default 50, at most 100); when `has_more` is true, ' +
      'ask again with `starting_after` set to the `id` of the last number of this page.',
  })
  @ApiOkResponse({ type: NumberList })
  list(@Query() query: ListNumbersQuery, @Caller() caller: CallerOptions): Promise<NumberList> {
    return this.rpc.request(NumbersRpc.list, query, caller);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get a number',
    description:
      'One number as the list shows it, whatever its status (a released number is shown, `released`). `webhook_secret` is never included.',
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: NumberView })
  @ApiResponse({ status: 400, description: 'invalid_request: an id of another form', schema: ERROR })
  @ApiResponse({ status: 404, description: 'not_found: unknown id, or a number of another account', schema: ERROR })
  get(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<NumberView> {
    return this.rpc.request(NumbersRpc.get, { id: params.id }, caller);
  }

  @Patch(':id')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Change a number',
    description:
      'Sets `webhook_url` (public HTTPS, checked as at creation and stored normalised; `null` removes the webhook) and/or ' +
      '`business_phone` (E.164 US) and/or `webhook_events` (the opt-in webhook events: `call.started`, `call.updated`, ' +
      '`billing.balance_low`, `billing.top_up_failed`; `call.completed` is always sent; the list replaces the previous ' +
      `one) and/or \`max_call_minutes\` (1 to ${MAX_CALL_MINUTES_LIMIT}). At least one of them; fields not sent stay as ` +
      'they are. The webhook secret does not change.',
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: NumberView })
  @ApiResponse({
    status: 400,
    description: 'invalid_request: an empty body, a bad field, an id of another form',
    schema: ERROR,
  })
  @ApiResponse({ status: 404, description: 'not_found: unknown id, or a number of another account', schema: ERROR })
  @ApiResponse({
    status: 409,
    description: 'number_released: a released number cannot be changed; idempotency_key_in_use',
    schema: ERROR,
  })
  @ApiResponse({
    status: 422,
    description: 'idempotency_key_reused: the key was used with another request',
    schema: ERROR,
  })
  update(
    @Param() params: NumberIdParam,
    @Body() body: NumberUpdate,
    @Caller() caller: CallerOptions,
  ): Promise<NumberView> {
    return this.rpc.request(NumbersRpc.update, { ...body, id: params.id }, caller);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Release a number',
    description:
      'Final: billing stops, the current month is not refunded, the number goes back to the provider. Releasing it again answers `{ "released": true }`.',
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: NumberReleased })
  @ApiResponse({ status: 404, description: 'not_found: unknown id, or a number of another account', schema: ERROR })
  release(@Param() params: ReleaseNumberCommand, @Caller() caller: CallerOptions): Promise<NumberReleased> {
    return this.rpc.request(NumbersRpc.release, { id: params.id }, caller);
  }
}
