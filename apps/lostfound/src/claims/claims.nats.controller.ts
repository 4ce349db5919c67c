import { Injectable } from '@nestjs/common';
import {
  ClaimsRpc,
  type ClaimCreated,
  type ClaimDetail,
  type ClaimPage,
  type FileClaimCommand,
  type GetClaimQuery,
  type ListClaimsQuery,
  type ReuniteCommand,
  type Reunited,
} from '@switchboard/contracts';
import { RpcHandler, type RpcContext } from '@switchboard/messaging';
import { ClaimsService } from './claims.service';
import { ReuniteService } from './reunite.service';

/** `/lostfound/claims` requests, forwarded by the gateway for the authenticated account. */
@Injectable()
export class ClaimsNatsController {
  constructor(
    private readonly claims: ClaimsService,
    private readonly reunion: ReuniteService,
  ) {}

  @RpcHandler(ClaimsRpc.file)
  file(request: FileClaimCommand, ctx: RpcContext): Promise<ClaimCreated> {
    return this.claims.file(request, ctx);
  }

  @RpcHandler(ClaimsRpc.list)
  list(request: ListClaimsQuery, ctx: RpcContext): Promise<ClaimPage> {
    return this.claims.list(request, ctx);
  }

  @RpcHandler(ClaimsRpc.get)
  get(request: GetClaimQuery, ctx: RpcContext): Promise<ClaimDetail> {
    return this.claims.get(request, ctx);
  }

  @RpcHandler(ClaimsRpc.reunite)
  reunite(request: ReuniteCommand, ctx: RpcContext): Promise<Reunited> {
    return this.reunion.reunite(request, ctx);
  }
}
