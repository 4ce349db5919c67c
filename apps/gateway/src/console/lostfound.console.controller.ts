import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  ClaimCandidateList,
  ClaimCreate,
  ClaimCreated,
  ClaimDetail,
  ClaimPage,
  ClaimsRpc,
  ConsoleDeskLocationList,
  DisposalBody,
  FoundItemCreate,
  FoundItemDetail,
  FoundItemPage,
  FoundItemsRpc,
  FoundItemView,
  IntIdParam,
  ListClaimsQuery,
  ListFoundItemsQuery,
  LocationQuery,
  LocationsRpc,
  ReuniteBody,
  Reunited,
  accountMode,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import type { FastifyRequest } from 'fastify';
import { Caller, type CallerOptions } from '../auth';
import { Idempotent } from '../idempotency';
import { CsrfGuard } from './guards/csrf.guard';
import { LOSTFOUND_READERS, LOSTFOUND_WRITERS, RoleGuard, Roles } from './guards/roles';
import { SessionGuard, accountIdOf, sessionOf } from './guards/session.guard';

/**
 * The lost-and-found desk (issue 16, docs/adr/0080): the `/v1/lostfound` routes with a session instead of a key,
 * the same DTOs and RPCs, the session's account in the caller options (lostfound checks `location_id` belongs to
 * it on every request). Every role reads; owners, developers and staff change; staff may use nothing else.
 */
@ApiTags('lost and found')
@Controller('console/api/lostfound')
@UseGuards(SessionGuard, CsrfGuard, RoleGuard)
export class LostfoundConsoleController {
  constructor(private readonly rpc: RpcClient) {}

  /**
   * The session's account's locations (the test twin's in test mode, docs/adr/0087), saying whose they are. In test
   * mode the live account's are counted too, read with the session's own account: the desk then says that the live
   * locations are not the twin's, instead of that no location runs lost-and-found.
   */
  @Get('locations')
  @Roles(LOSTFOUND_READERS, 'see lost-and-found locations')
  @ApiOkResponse({ type: ConsoleDeskLocationList })
  async locations(@Req() request: FastifyRequest, @Caller() caller: CallerOptions): Promise<ConsoleDeskLocationList> {
    const accountId = accountIdOf(caller);
    const list = await this.rpc.request(LocationsRpc.listForAccount, {}, caller);
    const mode = accountMode(accountId);
    if (mode === 'live') return { ...list, account_id: accountId, mode };
    const live = await this.rpc.request(
      LocationsRpc.listForAccount,
      {},
      {
        ...caller,
        accountId: sessionOf(request).accountId,
      },
    );
    return { ...list, account_id: accountId, mode, live_locations: live.data.length };
  }

  @Post('found-items')
  @HttpCode(201)
  @Roles(LOSTFOUND_WRITERS, 'log found items')
  @ApiCreatedResponse({ type: FoundItemView })
  @Idempotent()
  // The custody timeline names the signed-in user; /v1 cannot set acted_by (its body is validated first).
  log(
    @Body() body: FoundItemCreate,
    @Req() request: FastifyRequest,
    @Caller() caller: CallerOptions,
  ): Promise<FoundItemView> {
    return this.rpc.request(FoundItemsRpc.log, { ...body, acted_by: sessionOf(request).email }, caller);
  }

  @Get('found-items')
  @Roles(LOSTFOUND_READERS, 'see found items')
  @ApiOkResponse({ type: FoundItemPage })
  listItems(@Query() query: ListFoundItemsQuery, @Caller() caller: CallerOptions): Promise<FoundItemPage> {
    return this.rpc.request(FoundItemsRpc.list, query, caller);
  }

  @Get('found-items/:id')
  @Roles(LOSTFOUND_READERS, 'see found items')
  @ApiOkResponse({ type: FoundItemDetail })
  getItem(
    @Param() params: IntIdParam,
    @Query() query: LocationQuery,
    @Caller() caller: CallerOptions,
  ): Promise<FoundItemDetail> {
    return this.rpc.request(FoundItemsRpc.get, { id: params.id, location_id: query.location_id }, caller);
  }

  @Post('found-items/:id/disposal')
  @HttpCode(200)
  @Roles(LOSTFOUND_WRITERS, 'donate or dispose of found items')
  @ApiOkResponse({ type: FoundItemDetail })
  @Idempotent()
  // The custody timeline names who moved the item: the signed-in user unless the body says otherwise.
  dispose(
    @Param() params: IntIdParam,
    @Body() body: DisposalBody,
    @Req() request: FastifyRequest,
    @Caller() caller: CallerOptions,
  ): Promise<FoundItemDetail> {
    return this.rpc.request(
      FoundItemsRpc.dispose,
      { ...body, staff_name: body.staff_name ?? sessionOf(request).email, id: params.id },
      caller,
    );
  }

  @Post('claims')
  @HttpCode(201)
  @Roles(LOSTFOUND_WRITERS, 'file claims')
  @ApiCreatedResponse({ type: ClaimCreated })
  @Idempotent()
  fileClaim(@Body() body: ClaimCreate, @Caller() caller: CallerOptions): Promise<ClaimCreated> {
    return this.rpc.request(ClaimsRpc.file, body, caller);
  }

  @Get('claims')
  @Roles(LOSTFOUND_READERS, 'see claims')
  @ApiOkResponse({ type: ClaimPage })
  listClaims(@Query() query: ListClaimsQuery, @Caller() caller: CallerOptions): Promise<ClaimPage> {
    return this.rpc.request(ClaimsRpc.list, query, caller);
  }

  @Get('claims/:id')
  @Roles(LOSTFOUND_READERS, 'see claims')
  @ApiOkResponse({ type: ClaimDetail })
  getClaim(
    @Param() params: IntIdParam,
    @Query() query: LocationQuery,
    @Caller() caller: CallerOptions,
  ): Promise<ClaimDetail> {
    return this.rpc.request(ClaimsRpc.get, { id: params.id, location_id: query.location_id }, caller);
  }

  /** The stored items the claim matched, high-value ones included: the desk's staff see what `has_match` saw. */
  @Get('claims/:id/candidates')
  @Roles(LOSTFOUND_READERS, 'see claims')
  @ApiOkResponse({ type: ClaimCandidateList })
  claimCandidates(
    @Param() params: IntIdParam,
    @Query() query: LocationQuery,
    @Caller() caller: CallerOptions,
  ): Promise<ClaimCandidateList> {
    return this.rpc.request(ClaimsRpc.candidates, { id: params.id, location_id: query.location_id }, caller);
  }

  @Post('claims/:id/reunite')
  @HttpCode(200)
  @Roles(LOSTFOUND_WRITERS, 'reunite items with their owners')
  @ApiOkResponse({ type: Reunited })
  @Idempotent()
  reunite(
    @Param() params: IntIdParam,
    @Body() body: ReuniteBody,
    @Req() request: FastifyRequest,
    @Caller() caller: CallerOptions,
  ): Promise<Reunited> {
    return this.rpc.request(ClaimsRpc.reunite, { ...body, id: params.id, acted_by: sessionOf(request).email }, caller);
  }
}
