import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ConsoleKeyIdParam, CreateApiKeyBody, type ApiKeyRevoked } from '@switchboard/contracts';
import { ApiKeysService, type CreatedKey, type KeyListing } from '../api-keys/api-keys.service';
import { Caller, type CallerOptions } from '../auth';
import { CsrfGuard } from './guards/csrf.guard';
import { RoleGuard, Roles } from './guards/roles';
import { SessionGuard, accountIdOf } from './guards/session.guard';

const KEY_ROLES = ['owner', 'developer'] as const;

/** The account's API keys (spec part 5: made, rotated and revoked in the console), for owners and developers. */
@ApiExcludeController()
@Controller('console/api/keys')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class KeysConsoleController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @Roles(KEY_ROLES, 'see API keys')
  list(@Caller() caller: CallerOptions): Promise<{ data: KeyListing[] }> {
    return this.keys.list(accountIdOf(caller));
  }

  @Post()
  @HttpCode(201)
  @Roles(KEY_ROLES, 'create API keys')
  create(@Body() body: CreateApiKeyBody, @Caller() caller: CallerOptions): Promise<CreatedKey> {
    return this.keys.createKey(accountIdOf(caller), body.ip_allowlist ?? [], {
      requestId: caller.requestId,
      mode: body.mode ?? 'live',
    });
  }

  @Post(':id/rotate')
  @HttpCode(201)
  @Roles(KEY_ROLES, 'rotate API keys')
  rotate(@Param() params: ConsoleKeyIdParam, @Caller() caller: CallerOptions): Promise<CreatedKey> {
    return this.keys.rotate(accountIdOf(caller), params.id, caller.requestId);
  }

  @Delete(':id')
  @HttpCode(200)
  @Roles(KEY_ROLES, 'revoke API keys')
  async revoke(@Param() params: ConsoleKeyIdParam, @Caller() caller: CallerOptions): Promise<ApiKeyRevoked> {
    await this.keys.revoke(accountIdOf(caller), params.id);
    return { revoked: true };
  }
}
