import { Body, Controller, Get, Patch, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSettingsRpc, DataSettingsView, UpdateDataSettingsBody } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { ApiKeyGuard, Caller, type CallerOptions } from '../auth';
import { Idempotent } from '../idempotency';

/** `/settings/data`: what the account keeps of its calls and for how long, answered by calls-media (docs/call-data.md). */
@ApiTags('settings')
@ApiBearerAuth()
@Controller('settings/data')
@UseGuards(ApiKeyGuard)
export class DataSettingsHttpController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: 'Data settings',
    description:
      "The account's storage mode (everything, no_pii, metadata_only) and how many days recordings and transcripts are " +
      'kept (null: forever).',
  })
  @ApiOkResponse({ type: DataSettingsView })
  get(@Caller() caller: CallerOptions): Promise<DataSettingsView> {
    return this.rpc.request(DataSettingsRpc.get, {}, caller);
  }

  @Patch()
  @Idempotent()
  @ApiOperation({
    summary: 'Change data settings',
    description:
      'Any of the fields; each period 1-730 days or null (keep forever). The storage mode applies to calls recorded ' +
      'from now on; a shorter period applies to older calls at the next retention sweep. Answers the settings as they now are.',
  })
  @ApiOkResponse({ type: DataSettingsView })
  update(@Body() body: UpdateDataSettingsBody, @Caller() caller: CallerOptions): Promise<DataSettingsView> {
    return this.rpc.request(DataSettingsRpc.update, body, caller);
  }
}
