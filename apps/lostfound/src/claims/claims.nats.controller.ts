import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  ClaimsRpc,
  type ClaimCandidateList,
  type ClaimCreated,
  type ClaimDetail,
  type ClaimPage,
  type FileClaimCommand,
  type GetClaimQuery,
  type ListClaimsQuery,
  type ReuniteCommand,
  type Reunited,
} from '@switchboard/contracts';
import { Caller, RpcPattern, type RpcContext } from '@switchboard/messaging';
import { ClaimsService } from './claims.service';
import { ReuniteService } from './reunite.service';

/** `/lostfound/claims` requests, forwarded by the gateway for the authenticated account. */
@Controller()
export class ClaimsNatsController {
  constructor(
    private readonly claims: ClaimsService,
    private readonly reunion: ReuniteService,
  ) {}

  @RpcPattern(ClaimsRpc.file)
  file(@Payload() request: FileClaimCommand, @Caller() ctx: RpcContext): Promise<ClaimCreated> {
    return this.claims.file(request, ctx);
  }

  @RpcPattern(ClaimsRpc.list)
  list(@Payload() request: ListClaimsQuery, @Caller() ctx: RpcContext): Promise<ClaimPage> {
    return this.claims.list(request, ctx);
  }

  @RpcPattern(ClaimsRpc.get)
  get(@Payload() request: GetClaimQuery, @Caller() ctx: RpcContext): Promise<ClaimDetail> {
    return this.claims.get(request, ctx);
  }

  @RpcPattern(ClaimsRpc.reunite)
  reunite(@Payload() request: ReuniteCommand, @Caller() ctx: RpcContext): Promise<Reunited> {
    return this.reunion.reunite(request, ctx);
  }

  @RpcPattern(ClaimsRpc.candidates)
  candidates(@Payload() request: GetClaimQuery, @Caller() ctx: RpcContext): Promise<ClaimCandidateList> {
    return this.claims.candidates(request, ctx);
  }
}
