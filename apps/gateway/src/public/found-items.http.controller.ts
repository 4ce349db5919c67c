import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  DisposalBody,
  FoundItemCreate,
  FoundItemDetail,
  FoundItemPage,
  FoundItemView,
  FoundItemsRpc,
  IntIdParam,
  ListFoundItemsQuery,
  LocationQuery,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';
import { Idempotent } from '../idempotency';

/** Found items (spec part 4): validated here, ruled on by lostfound, which checks the location on every request. */
@ApiTags('lost-and-found')
@ApiBearerAuth()
@Controller('lostfound/found-items')
@UseGuards(ApiKeyGuard)
export class FoundItemsHttpController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({
    summary: 'Report a found item',
    description:
      'Open claims of the location are matched at once and their claimants texted. 404 location_not_found unless the location is yours and runs lost-and-found.',
  })
  @ApiCreatedResponse({ type: FoundItemView })
  log(@Body() body: FoundItemCreate, @Caller() caller: CallerOptions): Promise<FoundItemView> {
    return this.rpc.request(FoundItemsRpc.log, body, caller);
  }

  @Get()
  @ApiOperation({
    summary: 'List found items',
    description: 'Filters combine; pages of 25, newest first (best match first with q).',
  })
  @ApiOkResponse({ type: FoundItemPage })
  list(@Query() query: ListFoundItemsQuery, @Caller() caller: CallerOptions): Promise<FoundItemPage> {
    return this.rpc.request(FoundItemsRpc.list, query, caller);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A found item with its photos and chain of custody' })
  @ApiOkResponse({ type: FoundItemDetail })
  get(
    @Param() params: IntIdParam,
    @Query() query: LocationQuery,
    @Caller() caller: CallerOptions,
  ): Promise<FoundItemDetail> {
    return this.rpc.request(FoundItemsRpc.get, { id: params.id, location_id: query.location_id }, caller);
  }

  @Post(':id/disposal')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Donate or dispose of an unclaimed item (API extension)',
    description:
      "Only an item still stored, and only from hold_until (found_date + the location's hold_days, 60 by default): " +
      'before that 409 hold_period_not_over; an item returned, donated or disposed of is 409 item_not_available. ' +
      "The move is added to the custody timeline and the item's status becomes donated or disposed (docs/adr/0079).",
  })
  @ApiOkResponse({ type: FoundItemDetail })
  dispose(
    @Param() params: IntIdParam,
    @Body() body: DisposalBody,
    @Caller() caller: CallerOptions,
  ): Promise<FoundItemDetail> {
    return this.rpc.request(FoundItemsRpc.dispose, { ...body, id: params.id }, caller);
  }
}
