import { Body, Controller, Get, Patch, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { DataSettingsRpc, DataSettingsView, UpdateDataSettingsBody } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { Caller, type CallerOptions } from '../auth';
import { CsrfGuard } from './guards/csrf.guard';
import { RoleGuard, Roles } from './guards/roles';
import { SessionGuard } from './guards/session.guard';

/** As `/v1/settings/data`: every reading role sees the settings, owners change them. */
@ApiTags('data settings')
@Controller('console/api/settings/data')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class DataSettingsConsoleController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOkResponse({ type: DataSettingsView })
  get(@Caller() caller: CallerOptions): Promise<DataSettingsView> {
    return this.rpc.request(DataSettingsRpc.get, {}, caller);
  }

  @Patch()
  @Roles(['owner'], "change how long calls' recordings and transcripts are kept")
  @ApiOkResponse({ type: DataSettingsView })
  update(@Body() body: UpdateDataSettingsBody, @Caller() caller: CallerOptions): Promise<DataSettingsView> {
    return this.rpc.request(DataSettingsRpc.update, body, caller);
  }
}
