import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  ClaimantClaimBody,
  ClaimantClaimFiled,
  ClaimantLocationView,
  ClaimantRpc,
  PUBLIC_SLUG_PATTERN,
  ServiceError,
} from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { Caller, type CallerOptions } from '../auth';
import { Idempotent } from '../idempotency';
import { ClaimantGuard } from './claimant.guard';

/** The same answer for every slug that names no page, well-formed or not: nothing to enumerate. */
export function noSuchPage(): ServiceError {
  return new ServiceError('not_found', 'There is no lost-and-found page at this address.');
}

/**
 * The claimant page's backend (docs/adr/0079-lostfound-custody-claimant-page-and-phone-reports.md), on the public
 * port outside `/v1` and its description (it is the page's, not the integrator's: described in the console's, which
 * types the page's calls): no key, a limit per client address, a small body, no CORS (the page is served from this
 * origin), `Cache-Control: no-store` like every answer. Forwarded to lostfound for no account: the slug names the
 * location.
 */
@ApiTags('claimant page')
@Controller('claim/api/locations')
@UseGuards(ClaimantGuard)
export class ClaimantHttpController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':slug')
  @ApiOkResponse({ type: ClaimantLocationView })
  location(@Param('slug') slug: string, @Caller() caller: CallerOptions): Promise<ClaimantLocationView> {
    if (!PUBLIC_SLUG_PATTERN.test(slug)) throw noSuchPage();
    return this.rpc.request(ClaimantRpc.location, { slug }, { requestId: caller.requestId });
  }

  @Post(':slug/claims')
  @HttpCode(201)
  @Idempotent()
  @ApiCreatedResponse({ type: ClaimantClaimFiled })
  file(
    @Param('slug') slug: string,
    @Body() body: ClaimantClaimBody,
    @Caller() caller: CallerOptions,
  ): Promise<ClaimantClaimFiled> {
    if (!PUBLIC_SLUG_PATTERN.test(slug)) throw noSuchPage();
    return this.rpc.request(ClaimantRpc.file, { ...body, slug }, { requestId: caller.requestId });
  }
}

/** The routes above, kept out of the `/v1` prefix. */
export const CLAIMANT_ROUTE_PREFIX = '/claim/';
