import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  ListNumbersQuery,
  NumberCreate,
  NumberCreated,
  NumberList,
  NumberReleased,
  NumbersRpc,
  ReleaseNumberCommand,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/authenticated-request';
import { IdempotencyService } from '../idempotency/idempotency.service';

const ERROR = { $ref: '#/components/schemas/Error' };

@ApiTags('numbers')
@ApiBearerAuth()
@Controller('numbers')
@UseGuards(ApiKeyGuard)
export class NumbersHttpController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Provision a number',
    description:
      'Buys a local US number (in `area_code`, default the area of `business_phone`), charges its first month ($5) and ' +
      'returns `webhook_secret` once. A failed provision is never charged. Send an `Idempotency-Key` to retry safely: a ' +
      'retry with the same key and body returns the first answer without buying or charging again (for 24 hours).',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '1 to 255 visible ASCII characters, unique per request you mean.' })
  @ApiCreatedResponse({ type: NumberCreated })
  @ApiResponse({ status: 400, description: 'invalid_request', schema: ERROR })
  @ApiResponse({ status: 402, description: 'insufficient_balance: the balance is below $5', schema: ERROR })
  @ApiResponse({ status: 409, description: 'no_numbers; idempotency_key_in_use', schema: ERROR })
  @ApiResponse({ status: 422, description: 'idempotency_key_reused: the key was used with another body', schema: ERROR })
  @ApiResponse({ status: 429, description: 'number_limit, provision_velocity or rate_limited', schema: ERROR })
  @ApiResponse({ status: 503, description: 'provider_unavailable: transient, nothing charged; retry', schema: ERROR })
  provision(
    @Body() body: NumberCreate,
    @CurrentCaller() caller: Caller,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<NumberCreated> {
    const options = { accountId: caller.accountId, requestId: caller.requestId };
    if (idempotencyKey === undefined) return this.rpc.request(NumbersRpc.provision, body, options);
    const forward = () => this.rpc.request(NumbersRpc.provision, { ...body, idempotency_key: idempotencyKey }, options);
    return this.idempotency.execute<NumberCreated>(
      { accountId: caller.accountId, key: idempotencyKey, method: 'POST', path: '/v1/numbers', body },
      {
        status: 201,
        run: forward,
        secretFields: ['webhook_secret'],
        // numbers-billing deduplicates on the same key and answers the secret of the number it bought the first time.
        restore: async (stored) => ({ ...(stored as NumberCreated), webhook_secret: (await forward()).webhook_secret }),
      },
    );
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
  list(@Query() query: ListNumbersQuery, @CurrentCaller() caller: Caller): Promise<NumberList> {
    return this.rpc.request(NumbersRpc.list, query, { accountId: caller.accountId, requestId: caller.requestId });
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Release a number',
    description: 'Final: billing stops, the current month is not refunded, the number goes back to the provider. Releasing it again answers `{ "released": true }`.',
  })
  @ApiParam({ name: 'id', description: 'The number id, `num_<n>`, or its digits `<n>`.', schema: { type: 'string', pattern: '^(num_)?[1-9][0-9]*$' } })
  @ApiOkResponse({ type: NumberReleased })
  @ApiResponse({ status: 404, description: 'not_found: unknown id, or a number of another account', schema: ERROR })
  release(@Param() params: ReleaseNumberCommand, @CurrentCaller() caller: Caller): Promise<NumberReleased> {
    return this.rpc.request(NumbersRpc.release, { id: params.id }, { accountId: caller.accountId, requestId: caller.requestId });
  }
}
