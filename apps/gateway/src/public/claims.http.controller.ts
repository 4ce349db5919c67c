import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ClaimCreate,
  ClaimCreated,
  ClaimDetail,
  ClaimPage,
  ClaimsRpc,
  IntIdParam,
  ListClaimsQuery,
  LocationQuery,
  ReuniteBody,
  Reunited,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';
import { Idempotent } from '../idempotency';

/** Claims and reunite (spec parts 3-4; operator contract for the list and detail paths). */
@ApiTags('lost-and-found')
@ApiBearerAuth()
@Controller('lostfound/claims')
@UseGuards(ApiKeyGuard)
export class ClaimsHttpController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({
    summary: 'File a claim',
    description:
      'Low-value categories answer their candidate items in matches; high-value ones only has_match and verify_required. ' +
      'Urgent categories (child, person, medication) get 422 urgent_category and are never stored.',
  })
  @ApiCreatedResponse({ type: ClaimCreated })
  file(@Body() body: ClaimCreate, @Caller() caller: CallerOptions): Promise<ClaimCreated> {
    return this.rpc.request(ClaimsRpc.file, body, caller);
  }

  @Get()
  @ApiOperation({
    summary: 'List claims',
    description: 'Same filters and pages as the found-item list; from/to apply to lost_date.',
  })
  @ApiOkResponse({ type: ClaimPage })
  list(@Query() query: ListClaimsQuery, @Caller() caller: CallerOptions): Promise<ClaimPage> {
    return this.rpc.request(ClaimsRpc.list, query, caller);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A claim with its photos and timeline' })
  @ApiOkResponse({ type: ClaimDetail })
  get(
    @Param() params: IntIdParam,
    @Query() query: LocationQuery,
    @Caller() caller: CallerOptions,
  ): Promise<ClaimDetail> {
    return this.rpc.request(ClaimsRpc.get, { id: params.id, location_id: query.location_id }, caller);
  }

  @Post(':id/reunite')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Release an item to a claim',
    description:
      'Errors, in this order: 404 not_found, 409 verification_required, 409 claim_not_open, 409 item_not_available.',
  })
  @ApiOkResponse({ type: Reunited })
  reunite(@Param() params: IntIdParam, @Body() body: ReuniteBody, @Caller() caller: CallerOptions): Promise<Reunited> {
    return this.rpc.request(ClaimsRpc.reunite, { ...body, id: params.id }, caller);
  }
}
