import { Body, Controller, Delete, Get, Param, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  NumberIdParam,
  NumbersRpc,
  PhoneLineBody,
  PhoneLineView,
  PhoneLinesRpc,
  ServiceError,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';

const NUMBER_ID = { name: 'id', description: 'The number, `num_<n>` or `<n>`.', example: 'num_12' };

/**
 * A number's lost-and-found line (API extension, docs/adr/0079-lostfound-reports-by-phone.md): calls on it that end
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
  async link(
    @Param() params: NumberIdParam,
    @Body() body: PhoneLineBody,
    @Caller() caller: CallerOptions,
  ): Promise<PhoneLineView> {
    const number = await this.rpc.request(NumbersRpc.get, { id: params.id }, caller);
    if (number.status === 'released')
      throw new ServiceError('number_released', `${number.id} is released; it cannot take calls.`);
    return this.rpc.request(PhoneLinesRpc.link, { number_id: number.id, location_id: body.location_id }, caller);
  }

  @Get(':id')
  @ApiOperation({
    summary: "A number's lost-and-found line",
    description: "location_id null when the number is no location's line.",
  })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: PhoneLineView })
  async get(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<PhoneLineView> {
    const number = await this.rpc.request(NumbersRpc.get, { id: params.id }, caller);
    return this.rpc.request(PhoneLinesRpc.get, { number_id: number.id }, caller);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Stop taking lost-item reports on a number' })
  @ApiParam(NUMBER_ID)
  @ApiOkResponse({ type: PhoneLineView })
  async unlink(@Param() params: NumberIdParam, @Caller() caller: CallerOptions): Promise<PhoneLineView> {
    const number = await this.rpc.request(NumbersRpc.get, { id: params.id }, caller);
    return this.rpc.request(PhoneLinesRpc.unlink, { number_id: number.id }, caller);
  }
}
