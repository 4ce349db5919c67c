import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ApiKeyRevoked,
  ConsoleKeyCreated,
  ConsoleKeyIdParam,
  ConsoleKeyList,
  CreateApiKeyBody,
  type ApiKeyMode,
} from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { Caller, type CallerOptions } from '../auth';
import { CsrfGuard } from './guards/csrf.guard';
import { RoleGuard, Roles } from './guards/roles';
import { SessionGuard, accountIdOf, sessionOf } from './guards/session.guard';

const KEY_ROLES = ['owner', 'developer'] as const;

/**
 * The account's API keys (spec part 5: made, rotated and revoked in the console), for owners and developers. A live
 * session lists both modes' keys and makes live keys unless asked for `mode: "test"`; a session in test mode
 * (docs/adr/0087) lists the test keys alone and makes test keys unless asked for `mode: "live"`.
 */
@ApiTags('keys')
@Controller('console/api/keys')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class KeysConsoleController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @Roles(KEY_ROLES, 'see API keys')
  @ApiOkResponse({ type: ConsoleKeyList })
  async list(@Req() request: FastifyRequest): Promise<ConsoleKeyList> {
    const session = sessionOf(request);
    const keys = await this.keys.list(session.accountId);
    // The limit is five active keys per mode whichever mode the session shows: both counts come from every key.
    const active: Record<ApiKeyMode, number> = { live: 0, test: 0 };
    for (const key of keys.data) if (!key.revoked_at) active[key.mode] += 1;
    return {
      data: session.mode === 'test' ? keys.data.filter((key) => key.mode === 'test') : keys.data,
      active,
    };
  }

  @Post()
  @HttpCode(201)
  @Roles(KEY_ROLES, 'create API keys')
  @ApiCreatedResponse({ type: ConsoleKeyCreated })
  create(
    @Body() body: CreateApiKeyBody,
    @Req() request: FastifyRequest,
    @Caller() caller: CallerOptions,
  ): Promise<ConsoleKeyCreated> {
    const session = sessionOf(request);
    return this.keys.createKey(session.accountId, body.ip_allowlist ?? [], {
      requestId: caller.requestId,
      mode: body.mode ?? session.mode,
    });
  }

  @Post(':id/rotate')
  @HttpCode(201)
  @Roles(KEY_ROLES, 'rotate API keys')
  @ApiParam({ name: 'id', description: 'The key to replace (`key_...`).' })
  @ApiCreatedResponse({ type: ConsoleKeyCreated, description: 'A new key of the same mode, with `replaces`.' })
  rotate(@Param() params: ConsoleKeyIdParam, @Caller() caller: CallerOptions): Promise<ConsoleKeyCreated> {
    return this.keys.rotate(accountIdOf(caller), params.id, caller.requestId);
  }

  @Delete(':id')
  @HttpCode(200)
  @Roles(KEY_ROLES, 'revoke API keys')
  @ApiParam({ name: 'id', description: 'The key (`key_...`).' })
  @ApiOkResponse({ type: ApiKeyRevoked })
  async revoke(@Param() params: ConsoleKeyIdParam, @Caller() caller: CallerOptions): Promise<ApiKeyRevoked> {
    await this.keys.revoke(accountIdOf(caller), params.id);
    return { revoked: true };
  }
}
