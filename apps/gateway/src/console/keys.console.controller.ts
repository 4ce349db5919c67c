import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ConsoleKeyIdParam, CreateApiKeyBody, type ApiKeyMode, type ApiKeyRevoked } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService, type CreatedKey, type KeyListing } from '../api-keys/api-keys.service';
import { Caller, type CallerOptions } from '../auth';
import { CsrfGuard } from './guards/csrf.guard';
import { RoleGuard, Roles } from './guards/roles';
import { SessionGuard, accountIdOf, sessionOf } from './guards/session.guard';

const KEY_ROLES = ['owner', 'developer'] as const;

/** The keys the session's mode shows, and the active keys of each mode counted over all of them. */
export interface KeysConsoleListing {
  data: KeyListing[];
  active: Record<ApiKeyMode, number>;
}

/**
 * The account's API keys (spec part 5: made, rotated and revoked in the console), for owners and developers. A live
 * session lists both modes' keys and makes live keys unless asked for `mode: "test"`; a session in test mode
 * (docs/adr/0132) lists the test keys alone and makes test keys unless asked for `mode: "live"`.
 */
@ApiExcludeController()
@Controller('console/api/keys')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class KeysConsoleController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @Roles(KEY_ROLES, 'see API keys')
  async list(@Req() request: FastifyRequest): Promise<KeysConsoleListing> {
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
  create(
    @Body() body: CreateApiKeyBody,
    @Req() request: FastifyRequest,
    @Caller() caller: CallerOptions,
  ): Promise<CreatedKey> {
    const session = sessionOf(request);
    return this.keys.createKey(session.accountId, body.ip_allowlist ?? [], {
      requestId: caller.requestId,
      mode: body.mode ?? session.mode,
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
