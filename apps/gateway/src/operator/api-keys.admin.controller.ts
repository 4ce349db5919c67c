import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { IsString, Matches } from 'class-validator';
import { AccountIdParam, CreateApiKeyBody, type ApiKeyCreated, type ApiKeyRevoked } from '@switchboard/contracts';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AdminTokenGuard, Caller, type CallerOptions } from '../auth';

class ApiKeyParams extends AccountIdParam {
  @IsString()
  @Matches(/^key_[0-9a-f]{24}$/, { message: 'key_id must be a key id (key_...)' })
  key_id: string;
}

@Controller('admin/accounts/:account_id/api-keys')
@UseGuards(AdminTokenGuard)
export class ApiKeysAdminController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @HttpCode(201)
  create(
    @Param() params: AccountIdParam,
    @Body() body: CreateApiKeyBody,
    @Caller() caller: CallerOptions,
  ): Promise<ApiKeyCreated> {
    return this.keys.create(params.account_id, body.ip_allowlist ?? [], {
      requestId: caller.requestId,
      mode: body.mode,
    });
  }

  @Delete(':key_id')
  @HttpCode(200)
  async revoke(@Param() params: ApiKeyParams): Promise<ApiKeyRevoked> {
    await this.keys.revoke(params.account_id, params.key_id);
    return { revoked: true };
  }
}
