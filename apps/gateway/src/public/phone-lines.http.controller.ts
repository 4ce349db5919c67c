import { Body, Controller, Delete, Get, Param, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { NumberIdParam, PhoneLineBody, PhoneLineView } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';
import { getPhoneLine, linkPhoneLine, unlinkPhoneLine } from '../phone-lines/phone-line-requests';

const NUMBER_ID = { name: 'id', description: 'The number, `num_<n>` or `<n>`.', example: 'num_12' };

/**
 * A number's lost-and-found line (API extension, docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md): calls on it that end
 * with the outcome `lost_item_report` become claims at the location. numbers-billing says whether the number is
 * the account's (404 not_found otherwise); lostfound owns the link and the location rule (404 location_not_found).
 */
@ApiTags('lost-and-found')
@ApiBearerAuth()
@Controller('lostfound/phone-lines')
@UseGuards(ApiKeyGuard)
export class PhoneLinesHttpController {
  constructor(private readonly rpc: RpcClient) {}

  @Put(':id')
  @ApiOperation({
    summary: "Make a number a location's lost-and-found line",
    description:
      'Idempotent by nature: the number is the line of this one location afterwards. A released number is 409 number_released.',
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: PhoneLineView })
  link(
    @Param() params: NumberIdParam,
    @Body() body: PhoneLineBody,
    @Caller() caller: CallerOptions,
  ): Promise<PhoneLineView> {
    return linkPhoneLine(this.rpc, params.id, body.location_id, caller);
  }

  @Get(':id')
  @ApiOperation({
    summary: "A number's lost-and-found line",
    description: "location_id null when the number is no location's line.",
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: PhoneLineView })
  get(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<PhoneLineView> {
    return getPhoneLine(this.rpc, params.id, caller);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Stop taking lost-item reports on a number' })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: PhoneLineView })
  unlink(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<PhoneLineView> {
    return unlinkPhoneLine(this.rpc, params.id, caller);
  }
}
